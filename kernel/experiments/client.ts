import { assignGroup, appliesToPlatform, splitKey, NOT_IN_EXPERIMENT, type Assignment } from './assignment'
import { evaluateConditions, md5, type VisitorAttributes } from './conditions'
import {
  DISABLE_COOKIE_NAME,
  EDITOR_QUERY_PARAM,
  EDITOR_QUERY_VALUE,
  IDENTIFIER_EXPIRY_MS,
  FETCH_RETRIES,
  FETCH_TIMEOUT_MS,
  GEO_NONE,
  MESSAGES,
  MIN_CACHE_TTL_SECONDS,
  PRODUCT_EXPERIMENTS,
  SDK_NAME,
  SDK_VERSION,
  STATUS_FAILURE,
  STATUS_SUCCESS,
  STORAGE_KEYS,
  TEST_GROUP_PREFIX,
  type ProductExperimentKey,
} from './constants'
import { evaluateFlag, type FlagResult } from './flags'
import { convertParam } from './params'
import { applyPages, type DocumentLike, type HtmlSanitizer } from './web-builder'
import type {
  Experiment,
  ExperimentsConfig,
  FeatureFlag,
  Geo,
  KeyValueStorage,
  Platform,
  VisitorData,
  WebBuilderPage,
} from './types'
import {
  EXPIRING_IDENTIFIERS,
  createPrivateId,
  describeUserAgent,
  truncateUserAgent,
  visitorAttributes,
  type ExpirationMap,
} from './visitor'

export type SigmaErrorCode = keyof typeof MESSAGES

/** Every failure the client reports carries one of the spec's messages (§8) and a stable code. */
export class SigmaError extends Error {
  constructor(
    readonly code: SigmaErrorCode,
    readonly status?: number,
  ) {
    super(MESSAGES[code])
    this.name = 'SigmaError'
  }
}

export type FetchLike = (url: string, init?: { method?: string; headers?: Record<string, string>; signal?: AbortSignal }) => Promise<{
  status: number
  text(): Promise<string>
}>

export interface SigmaOptions {
  token: string | null | undefined
  /** Base URL of the experiment service, e.g. '/experiments/api' or 'https://host/experiments/api'. */
  api: string
  /** Defaults to `{api}/pages.json`. */
  pagesUrl?: string
  /** Defaults to globalThis.localStorage; `null` means "no storage" (the client refuses to start). */
  storage?: KeyValueStorage | null
  fetch?: FetchLike
  now?: () => number
  random?: () => number
  readCookie?: (name: string) => string | undefined
  userAgent?: string
  /** Seconds; minimum and default 10, a lower value becomes 10. */
  cacheTtlSeconds?: number
  platform?: Exclude<Platform, 'all'>
  visitor?: VisitorData
  /** Geo supplied by the host: the geo call is skipped. */
  geo?: Geo
  fetchTimeoutMs?: number
  retries?: number
}

export interface ConfigStatus {
  /** Where the config in use came from. 'stale': the fetch failed and the last good copy is in use. */
  source: 'none' | 'cache' | 'network' | 'stale'
  stale: boolean
  configHash: string | null
  lastUpdateTime: number | null
  /** Set after a failed fetch: the spec's failure status (400) and message. */
  failureStatus?: number
  lastError?: string
}

export interface ForcedExperiment {
  experimentId: string
  groupIndex: number
}

interface StickyEntry {
  /** MD5 of the unit id the assignment was made for: another unit on this device is assigned afresh. */
  unit: string
  index: number
  group: string
}

export interface ExperimentView extends Assignment {
  params: Record<string, unknown>
}

function defaultStorage(): KeyValueStorage | null {
  try {
    const storage = (globalThis as { localStorage?: KeyValueStorage }).localStorage
    return storage ?? null
  } catch {
    // Safari private mode and sandboxed iframes throw on access.
    return null
  }
}

function defaultCookieReader(name: string): string | undefined {
  const doc = (globalThis as { document?: { cookie?: string } }).document
  if (!doc?.cookie) return undefined
  for (const part of doc.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

function parseJson<T>(text: string | null): T | undefined {
  if (text === null) return undefined
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}

/** A config is an object whose feature_flags and experiments are arrays (absent counts as empty). */
export function parseConfig(text: string): ExperimentsConfig {
  const value = parseJson<unknown>(text)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SigmaError('badConfig')
  const record = value as Record<string, unknown>
  const flags = record['feature_flags'] ?? []
  const experiments = record['experiments'] ?? []
  if (!Array.isArray(flags) || !Array.isArray(experiments)) throw new SigmaError('badConfig')
  return { feature_flags: flags, experiments } as ExperimentsConfig
}

/**
 * The experiment and feature-flag client ("Sigma", spec §4/§5/§7). Framework-free: storage, clock,
 * fetch, cookie reader and random source are injected, so it runs in the browser and in Node.
 *
 * Construction is the spec's init check: it throws without a token, with the disable cookie, or
 * without storage. `init()` then loads geo and config.
 */
export class Sigma {
  readonly token: string
  readonly privateId: string
  private readonly api: string
  private readonly pagesUrl: string
  private readonly storage: KeyValueStorage
  private readonly fetchImpl: FetchLike
  private readonly now: () => number
  private readonly random: () => number
  private readonly platform: Exclude<Platform, 'all'>
  private readonly timeoutMs: number
  private readonly retries: number
  readonly cacheTtlMs: number
  readonly userAgent: string | undefined
  private configCache: ExperimentsConfig | null = null
  private flagsByName = new Map<string, FeatureFlag>()
  private experimentsByName = new Map<string, Experiment>()
  /** The experiment that lists each flag in its feature_flags (the first one wins). */
  private experimentByFlag = new Map<string, Experiment>()
  private configStatus: ConfigStatus

  constructor(options: SigmaOptions) {
    const token = typeof options.token === 'string' ? options.token.trim() : ''
    if (!token) throw new SigmaError('tokenRequired')
    const readCookie = options.readCookie ?? defaultCookieReader
    if (readCookie(DISABLE_COOKIE_NAME)) throw new SigmaError('disabled')
    const storage = options.storage === undefined ? defaultStorage() : options.storage
    if (!storage) throw new SigmaError('noStorage')
    // Bound: browsers throw "Illegal invocation" when fetch is called with another `this`.
    const fetchImpl =
      options.fetch ?? (typeof globalThis.fetch === 'function' ? (globalThis.fetch.bind(globalThis) as unknown as FetchLike) : undefined)
    if (!fetchImpl) throw new TypeError('No fetch available: inject one')

    this.token = token
    this.api = options.api.replace(/\/+$/, '')
    this.pagesUrl = options.pagesUrl ?? `${this.api}/pages.json`
    this.storage = storage
    this.fetchImpl = fetchImpl
    this.now = options.now ?? Date.now
    this.random = options.random ?? Math.random
    this.platform = options.platform ?? 'web'
    this.timeoutMs = options.fetchTimeoutMs ?? FETCH_TIMEOUT_MS
    this.retries = options.retries ?? FETCH_RETRIES
    const ttl = options.cacheTtlSeconds
    this.cacheTtlMs = Math.max(MIN_CACHE_TTL_SECONDS, typeof ttl === 'number' && Number.isFinite(ttl) ? ttl : 0) * 1000
    const navigatorUa = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent
    const ua = options.userAgent ?? navigatorUa
    this.userAgent = ua === undefined ? undefined : truncateUserAgent(ua)

    let privateId = storage.getItem(STORAGE_KEYS.privateId)
    if (!privateId) {
      privateId = createPrivateId(this.random)
      storage.setItem(STORAGE_KEYS.privateId, privateId)
    }
    this.privateId = privateId

    const cachedText = storage.getItem(STORAGE_KEYS.dataFile)
    if (cachedText !== null) {
      try {
        this.useConfig(parseConfig(cachedText))
      } catch {
        this.configCache = null
      }
    }
    this.configStatus = {
      source: this.configCache ? 'cache' : 'none',
      stale: false,
      configHash: storage.getItem(STORAGE_KEYS.configHash),
      lastUpdateTime: this.storedNumber(STORAGE_KEYS.lastUpdateTime),
    }

    const fromUa = this.userAgent ? describeUserAgent(this.userAgent) : {}
    const patch: Partial<VisitorData> = { ...fromUa, ...options.visitor }
    if (options.geo) {
      patch.geo = options.geo
      storage.setItem(STORAGE_KEYS.geo, JSON.stringify(options.geo))
    }
    this.patchVisitor(patch)
  }

  // ---- storage helpers -------------------------------------------------------------------------

  private storedNumber(key: string): number | null {
    const text = this.storage.getItem(key)
    if (text === null) return null
    const value = Number(text)
    return Number.isFinite(value) ? value : null
  }

  // Parsed copies of the JSON the client keeps in storage, written through on every change. The
  // client is the only writer of its keys; another tab's writes are seen by the next instance.
  private readonly jsonCache = new Map<string, unknown>()

  /** The parsed value (shared: callers that change it must write it back with writeJson). */
  private readJson<T>(key: string, fallback: T): T {
    if (this.jsonCache.has(key)) return this.jsonCache.get(key) as T
    const value = parseJson<T>(this.storage.getItem(key)) ?? fallback
    this.jsonCache.set(key, value)
    return value
  }

  private writeJson(key: string, value: unknown): void {
    this.storage.setItem(key, JSON.stringify(value))
    this.jsonCache.set(key, value)
  }

  // ---- network ---------------------------------------------------------------------------------

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      token: this.token,
      'user-id': this.privateId,
      'sdk-name': SDK_NAME,
      'sdk-version': SDK_VERSION,
      ...extra,
    }
  }

  /**
   * GET with the spec's timeout (2000 ms) and retries (2): a network error, timeout or 5xx is
   * retried; a 4xx answer is final. Returns the status (400 for a failure without one) and body.
   */
  private async get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
    let last: { status: number; body: string } = { status: STATUS_FAILURE, body: '' }
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      const controller = typeof AbortController === 'function' ? new AbortController() : undefined
      const timer = controller ? setTimeout(() => controller.abort(), this.timeoutMs) : undefined
      try {
        const response = await this.fetchImpl(url, { method: 'GET', headers, signal: controller?.signal })
        const body = await response.text()
        last = { status: response.status, body }
        if (response.status < 500) return last
      } catch {
        last = { status: STATUS_FAILURE, body: '' }
      } finally {
        if (timer !== undefined) clearTimeout(timer)
      }
    }
    return last
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Loads geo (unless the host supplied it) and the config. Rejects only as `loadConfig` does. */
  async init(): Promise<ConfigStatus> {
    await this.loadGeo()
    return this.loadConfig()
  }

  /** Geo from storage or `{api}/geo`; a failure stores location 'none' and continues. */
  async loadGeo(): Promise<Geo | typeof GEO_NONE> {
    const stored = this.storage.getItem(STORAGE_KEYS.geo)
    if (stored !== null) {
      const geo = stored === GEO_NONE ? GEO_NONE : (parseJson<Geo>(stored) ?? GEO_NONE)
      this.patchVisitor({ geo })
      return geo
    }
    let geo: Geo | typeof GEO_NONE = GEO_NONE
    const { status, body } = await this.get(`${this.api}/geo`, this.headers())
    if (status === STATUS_SUCCESS) {
      const parsed = parseJson<Geo>(body)
      if (parsed && typeof parsed === 'object') geo = parsed
    }
    this.storage.setItem(STORAGE_KEYS.geo, geo === GEO_NONE ? GEO_NONE : JSON.stringify(geo))
    this.patchVisitor({ geo })
    return geo
  }

  /**
   * Uses the cached config while it is younger than the TTL; otherwise fetches `{api}/config.json`.
   * A new config is stored (data file and hash) only when its MD5 differs from the stored hash.
   * When the fetch fails, the last good config stays in use and the status says `stale`; only
   * when nothing is cached does this reject, with 'Sigma Error: Invalid token or configuration
   * not published.'.
   */
  async loadConfig(options: { force?: boolean } = {}): Promise<ConfigStatus> {
    const now = this.now()
    const storedHash = this.storage.getItem(STORAGE_KEYS.configHash)
    const lastUpdate = this.storedNumber(STORAGE_KEYS.lastUpdateTime)
    const fresh =
      this.configCache !== null && storedHash !== null && lastUpdate !== null && now - lastUpdate < this.cacheTtlMs
    if (fresh && !options.force) {
      this.configStatus = { source: 'cache', stale: false, configHash: storedHash, lastUpdateTime: lastUpdate }
      return this.status
    }

    const { status, body } = await this.get(`${this.api}/config.json`, this.headers())
    let failure: SigmaError | null = null
    if (status === STATUS_SUCCESS) {
      try {
        const config = parseConfig(body)
        const hash = md5(body)
        // Also rewritten when the stored copy went missing, so storage can always serve a reload.
        if (hash !== storedHash || this.configCache === null || this.storage.getItem(STORAGE_KEYS.dataFile) === null) {
          this.storage.setItem(STORAGE_KEYS.dataFile, body)
          this.storage.setItem(STORAGE_KEYS.configHash, hash)
        }
        this.storage.setItem(STORAGE_KEYS.lastUpdateTime, String(now))
        this.useConfig(config)
        this.configStatus = { source: 'network', stale: false, configHash: hash, lastUpdateTime: now }
        return this.status
      } catch (error) {
        failure = error instanceof SigmaError ? error : new SigmaError('badConfig')
      }
    }
    const serverMessage = parseJson<{ error?: string }>(body)?.error
    const lastError = failure?.message ?? serverMessage ?? MESSAGES.configUnavailable
    if (this.configCache) {
      this.configStatus = {
        source: 'stale',
        stale: true,
        configHash: storedHash,
        lastUpdateTime: lastUpdate,
        failureStatus: STATUS_FAILURE,
        lastError,
      }
      return this.status
    }
    this.configStatus = {
      source: 'none',
      stale: false,
      configHash: null,
      lastUpdateTime: null,
      failureStatus: STATUS_FAILURE,
      lastError,
    }
    throw new SigmaError('configUnavailable', STATUS_FAILURE)
  }

  private useConfig(config: ExperimentsConfig): void {
    this.configCache = config
    this.flagsByName = new Map()
    for (const flag of config.feature_flags) if (!this.flagsByName.has(flag.name)) this.flagsByName.set(flag.name, flag)
    this.experimentsByName = new Map()
    this.experimentByFlag = new Map()
    for (const experiment of config.experiments) {
      if (!this.experimentsByName.has(experiment.name)) this.experimentsByName.set(experiment.name, experiment)
      for (const flag of experiment.feature_flags ?? []) if (!this.experimentByFlag.has(flag)) this.experimentByFlag.set(flag, experiment)
    }
  }

  get status(): ConfigStatus {
    return { ...this.configStatus }
  }

  get config(): ExperimentsConfig | null {
    return this.configCache
  }

  private requireConfig(): ExperimentsConfig {
    if (!this.configCache) throw new SigmaError('experimentsNotCached')
    return this.configCache
  }

  // ---- visitor ---------------------------------------------------------------------------------

  getVisitor(): VisitorData {
    return { ...this.readJson<VisitorData>(STORAGE_KEYS.userData, {}) }
  }

  private expirationMap(): ExpirationMap {
    return { ...this.readJson<ExpirationMap>(STORAGE_KEYS.expirationMap, {}) }
  }

  /**
   * Replaces what the host knows about the visitor (the stored geo is kept unless a new one is
   * given). Each expiring identifier given (userId, profileId, deviceId, email) is stamped with the
   * clock; it stops counting a day later.
   */
  setVisitor(visitor: VisitorData): void {
    const previous = this.getVisitor()
    const next: VisitorData = { ...visitor }
    if (next.geo === undefined && previous.geo !== undefined) next.geo = previous.geo
    this.stampIdentifiers(next)
    this.writeVisitor(next)
  }

  /** Merges into the stored visitor data; identifiers given are stamped as in `setVisitor`. */
  patchVisitor(patch: Partial<VisitorData>): void {
    const next = { ...this.getVisitor(), ...patch }
    this.stampIdentifiers(patch)
    this.writeVisitor(next)
  }

  private writeVisitor(visitor: VisitorData): void {
    this.writeJson(STORAGE_KEYS.userData, visitor)
    this.attributesCache = null
  }

  private stampIdentifiers(visitor: Partial<VisitorData>): void {
    const expiration = this.expirationMap()
    let changed = false
    for (const key of EXPIRING_IDENTIFIERS) {
      if (visitor[key] !== undefined && visitor[key] !== null) {
        expiration[key] = this.now()
        changed = true
      }
    }
    if (changed) {
      this.writeJson(STORAGE_KEYS.expirationMap, expiration)
      this.attributesCache = null
    }
  }

  private attributesCache: { value: VisitorAttributes; from: number; until: number } | null = null

  /**
   * The visitor's attributes for conditions (read-only). Cached until the visitor changes, the
   * local hour changes (`time`, `date`) or an identifier expires, whichever comes first.
   */
  attributes(): VisitorAttributes {
    const now = this.now()
    const cached = this.attributesCache
    if (cached && now >= cached.from && now < cached.until) return cached.value
    const expiration = this.expirationMap()
    const value = visitorAttributes(this.getVisitor(), expiration, now, this.privateId)
    const nextHour = new Date(now)
    nextHour.setMinutes(60, 0, 0)
    let until = nextHour.getTime()
    for (const key of EXPIRING_IDENTIFIERS) {
      const setAt = expiration[key]
      if (setAt !== undefined && setAt + IDENTIFIER_EXPIRY_MS > now) until = Math.min(until, setAt + IDENTIFIER_EXPIRY_MS)
    }
    this.attributesCache = { value, from: now, until }
    return value
  }

  // ---- feature flags ---------------------------------------------------------------------------

  flagNames(): string[] {
    return (this.configCache?.feature_flags ?? []).map((f) => f.name)
  }

  evaluateFlag(name: string, attributes: VisitorAttributes = this.attributes()): FlagResult {
    this.requireConfig()
    const flag = this.flagsByName.get(name)
    if (!flag) return { ok: false, code: 'FLAG_NOT_FOUND' }
    const experiment = this.experimentByFlag.get(name)
    const group = experiment ? this.assign(experiment, attributes).group : null
    return evaluateFlag(flag, attributes, group)
  }

  /** The flag's value, or undefined when the flag is missing or invalid. */
  getFlag(name: string): unknown {
    const result = this.evaluateFlag(name)
    return result.ok ? result.value : undefined
  }

  // ---- experiments -----------------------------------------------------------------------------

  experimentNames(): string[] {
    return (this.configCache?.experiments ?? []).map((e) => e.name)
  }

  private findExperiment(name: string): Experiment | undefined {
    this.requireConfig()
    return this.experimentsByName.get(name)
  }

  /** The split_by id that still counts; the private id when the visitor has none. */
  unitId(experiment: Experiment, attributes: VisitorAttributes = this.attributes()): string {
    return attributes[splitKey(experiment)] ?? this.privateId
  }

  private lastUnit: { id: string; digest: string } | null = null
  private unitDigest(id: string): string {
    if (this.lastUnit?.id !== id) this.lastUnit = { id, digest: md5(id) }
    return this.lastUnit.digest
  }

  private assign(experiment: Experiment, attributes: VisitorAttributes): Assignment {
    if (!appliesToPlatform(experiment, this.platform)) return NOT_IN_EXPERIMENT('platform')
    // The sticky map keeps an MD5 of the unit, not the id itself (it may be an e-mail).
    const unitId = this.unitId(experiment, attributes)
    const unit = this.unitDigest(unitId)
    const forced = this.forcedExperiments().find((f) => f.experimentId === experiment.name)
    const stickyMap = this.readJson<Record<string, StickyEntry>>(STORAGE_KEYS.experiments, {})
    const sticky = stickyMap[experiment.name]
    const stickyIndex =
      sticky && sticky.unit === unit && experiment.groups[sticky.index]?.name === sticky.group ? sticky.index : undefined
    const assignment = assignGroup({ experiment, unitId, forcedGroupIndex: forced?.groupIndex, stickyIndex })
    // Only a hashed assignment is remembered: forces and forced-user lists are the operator's to
    // lift, and lifting one returns the unit to its natural group.
    if (assignment.inExperiment && assignment.reason === 'assigned') {
      stickyMap[experiment.name] = { unit, index: assignment.index, group: assignment.group ?? '' }
      this.writeJson(STORAGE_KEYS.experiments, stickyMap)
    }
    return assignment
  }

  /** Assignment and typed params; throws 'Experiments not found in cache' before any config. */
  getExperiment(name: string): ExperimentView {
    const experiment = this.findExperiment(name)
    if (!experiment) return { ...NOT_IN_EXPERIMENT('noGroups'), params: {} }
    const assignment = this.assign(experiment, this.attributes())
    return { ...assignment, params: paramsFor(experiment, assignment.group) }
  }

  getParam(experimentName: string, paramName: string): unknown {
    return this.getExperiment(experimentName).params[paramName]
  }

  /** The three product experiments: test group when the param value starts with 'b'. */
  checkProductExperiment(key: ProductExperimentKey): { inTest: boolean; groupIndex: number } {
    const { experiment, param } = PRODUCT_EXPERIMENTS[key]
    const view = this.getExperiment(experiment)
    const value = view.params[param]
    return { inTest: typeof value === 'string' && value.startsWith(TEST_GROUP_PREFIX), groupIndex: view.index }
  }

  /** Redirect target of a split-url experiment for this visitor, when its conditions hold. */
  getRedirect(name: string): string | null {
    const experiment = this.findExperiment(name)
    if (!experiment?.redirection) return null
    const attributes = this.attributes()
    const { group } = this.assign(experiment, attributes)
    if (!group) return null
    const { conditions, conditional_statement } = experiment.redirection
    if (!evaluateConditions(conditions, conditional_statement, attributes)) return null
    return experiment.redirection.groups.find((g) => g.name === group)?.url ?? null
  }

  // ---- forcing ---------------------------------------------------------------------------------

  forcedExperiments(): ForcedExperiment[] {
    return this.readJson<ForcedExperiment[]>(STORAGE_KEYS.forcedExperiments, [])
  }

  /** Forces this visitor into an experiment's group index (QA, editor). Forced wins over sticky. */
  forceExperiment(experimentId: string, groupIndex: number): void {
    const list = this.forcedExperiments().filter((f) => f.experimentId !== experimentId)
    list.push({ experimentId, groupIndex })
    this.writeJson(STORAGE_KEYS.forcedExperiments, list)
  }

  /**
   * Ends a force for one experiment, or for all when no id is given; then clears the config hash
   * and refetches the config (spec §4).
   */
  async excludeForced(experimentId?: string): Promise<ConfigStatus> {
    const list = experimentId === undefined ? [] : this.forcedExperiments().filter((f) => f.experimentId !== experimentId)
    this.writeJson(STORAGE_KEYS.forcedExperiments, list)
    this.storage.removeItem(STORAGE_KEYS.configHash)
    return this.loadConfig({ force: true })
  }

  /**
   * Sets one custom visitor property. The name must be a string (spec §5); anything else is
   * refused with a result, not thrown, so a host's bad call cannot break the page.
   */
  setCustomProperty(name: unknown, value: string | number | boolean): { ok: true } | { ok: false; code: 'CUSTOM_NAME_NOT_STRING' } {
    if (typeof name !== 'string' || name.trim() === '') return { ok: false, code: 'CUSTOM_NAME_NOT_STRING' }
    const visitor = this.getVisitor()
    this.patchVisitor({ custom: { ...visitor.custom, [name.trim()]: value } })
    return { ok: true }
  }

  // ---- web builder -----------------------------------------------------------------------------

  /**
   * Runs the web builder for every web-builder experiment the visitor is in: fetches the group's
   * pages and applies them to the page. Skipped in editor mode (`?editor=start`), where the
   * editor draws instead. Never throws: failures are swallowed (spec §8) and counted.
   */
  async runWebBuilder(
    document: DocumentLike,
    location: { pathname: string; search: string },
    sanitize: HtmlSanitizer,
  ): Promise<{ applied: number; failed: number }> {
    const total = { applied: 0, failed: 0 }
    if (isEditorMode(location.search) || !this.configCache) return total
    for (const experiment of this.configCache.experiments) {
      if (experiment.type !== 'web builder' && experiment.type !== 'webbuilder') continue
      try {
        const pages = await this.fetchPages(experiment.name)
        const result = applyPages(document, pages, location.pathname, sanitize)
        total.applied += result.applied
        total.failed += result.failed
      } catch {
        total.failed++
      }
    }
    return total
  }

  /** The web-builder experiments of the loaded config, with their groups (the editor lists them). */
  webBuilderExperiments(): Array<{ name: string; groups: string[] }> {
    return (this.configCache?.experiments ?? []).filter((e) => e.type === 'web builder' || e.type === 'webbuilder').map((e) => ({ name: e.name, groups: e.groups.map((g) => g.name) }))
  }

  /** Pages of the web builder for an experiment group: `GET {pagesUrl}?r={random}`. */
  async fetchPages(experimentName: string): Promise<WebBuilderPage[]> {
    const { group } = this.getExperiment(experimentName)
    if (!group) return []
    const r = Math.floor(this.random() * 1e9)
    const { status, body } = await this.get(
      `${this.pagesUrl}?r=${r}`,
      { 'Content-Type': 'application/json', token: this.token, exp: experimentName, group },
    )
    if (status !== STATUS_SUCCESS) return []
    const pages = parseJson<{ pages?: WebBuilderPage[] }>(body)?.pages
    return Array.isArray(pages) ? pages : []
  }
}

export function paramsFor(experiment: Experiment, group: string | null): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  if (!group) return params
  for (const param of experiment.params ?? []) {
    const entry = param.values.find((v) => v.group === group)
    if (entry) params[param.name] = convertParam(param.type, entry.value)
  }
  return params
}

/** Editor mode of the web builder is marked by `?editor=start` (spec §6). */
export function isEditorMode(search: string): boolean {
  return new URLSearchParams(search).get(EDITOR_QUERY_PARAM) === EDITOR_QUERY_VALUE
}
