/**
 * Shapes of the experiment service's config (spec §3 "Experiment service entities").
 * The wire format keeps the service's snake_case names. The operator document's JSON Schema
 * (`schemas/kinds/experiments.schema.json`) describes the same shapes and is what the server
 * validates with; `tests/unit/experiments/schema.test.ts` keeps the two in step.
 */

export type ConditionSign = 'equal' | 'not equal' | 'any of' | 'none of'
export type ConditionalStatement = 'OR' | 'AND'

export interface Condition {
  /** Visitor data field: userId, geo.country, os.name, custom.<key>, time, date, … */
  name: string
  /** A string, or a list of strings for 'any of' / 'none of'. For private flags, MD5 hex. */
  value: string | number | boolean | Array<string | number | boolean>
  condition_sign: ConditionSign
}

export interface FlagRule {
  id: string | number
  value: unknown
  is_default: boolean
  conditional_statement?: ConditionalStatement
  conditions?: Condition[]
}

export type ParamType = 'string' | 'bool' | 'integer' | 'number' | 'json'

export interface FeatureFlag {
  name: string
  type: ParamType
  is_private?: boolean
  rules: FlagRule[]
  /** Value of the flag per experiment group name, used when an experiment lists this flag. */
  groups?: Array<{ name: string; value: unknown }>
}

export interface ExperimentGroup {
  name: string
  /** Pinned by us (the spec names no field): relative weight; equal split when absent. */
  weight?: number
  forced_user_list?: string[]
}

export interface ExperimentParam {
  name: string
  type: ParamType
  values: Array<{ group: string; value: unknown }>
}

export interface LayerBound {
  lower_bound: number
  upper_bound: number
}

export type SplitBy = 'userId' | 'profileId' | 'deviceId'
export type Platform = 'all' | 'web' | 'spliturl'

export interface Redirection {
  groups: Array<{ name: string; url: string }>
  conditions?: Condition[]
  conditional_statement?: ConditionalStatement
}

export interface Experiment {
  name: string
  type?: string
  salt: string
  /** Percentage 0-100 of units that enter the experiment. */
  allocation: number
  groups: ExperimentGroup[]
  params?: ExperimentParam[]
  /** Names of feature flags whose value follows this experiment's group (see FeatureFlag.groups). */
  feature_flags?: string[]
  split_by?: SplitBy
  forced_user_list?: string[]
  layer_id?: string
  layer_bounds?: LayerBound | LayerBound[]
  redirection?: Redirection
  webbuilder?: { path_params?: string[]; search_params?: string[]; domain?: string }
  platform?: Platform
  platforms?: Platform[]
}

export interface ExperimentsConfig {
  feature_flags: FeatureFlag[]
  experiments: Experiment[]
}

export interface Geo {
  country?: string
  code?: string
  state?: string
  city?: string
}

export type DeviceCategory = 'tablet' | 'mobile' | 'desktop'

/** What the host tells the client about the visitor (spec §3 "Visitor data"). */
export interface VisitorData {
  userId?: string
  profileId?: string
  deviceId?: string
  ip?: string
  email?: string
  appVersion?: string
  geo?: Geo | typeof import('./constants').GEO_NONE
  browser?: string
  os?: { name?: string; version?: string }
  custom?: Record<string, string | number | boolean>
  deviceCategory?: DeviceCategory
  domain?: string
  url?: string
  query?: string
  pathname?: string
}

export interface WebBuilderContentParams {
  text?: string
  href?: string
  src?: string
  color?: string
  backgroundColor?: string
  fontSize?: string
  display?: string
  contentHtml?: string
  contentCss?: string
  /**
   * The words of `text` and `contentHtml` per locale (two letters). `text` and `contentHtml` are
   * written in English, the documents' source language; on a page in another language a rule
   * changes words only when it has them in that language (ADR 0090).
   */
  translations?: Record<string, { text?: string; contentHtml?: string }>
}

export interface WebBuilderRule {
  /** Pathname the rule applies to; a trailing `*` matches any trailing path. */
  path: string
  /** CSS selector of the element the content params change (the spec does not name one). */
  selector: string
  contentParams: WebBuilderContentParams
}

export interface WebBuilderPage {
  globalCss?: string
  globalJs?: string
  rules: WebBuilderRule[]
}

/** A storage with the browser localStorage's shape; Node tests inject a Map-backed one. */
export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}
