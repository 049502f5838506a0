/**
 * Loads and checks the operator document `experiments/experiments.json` (under documentsDir).
 * JSON Schema first (`kinds/experiments.schema.json`, ajv), then the rules a schema cannot state.
 * Any problem stops the server with the file and the JSON pointer of the problem.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import createDOMPurify from 'dompurify'
import type { Experiment, ExperimentsConfig, FeatureFlag, WebBuilderContentParams, WebBuilderPage } from '../../kernel/experiments/types'
import { ajvCacheOptions, compileCached } from '../../tools/schema-lint'

export interface ExperimentsDocument extends ExperimentsConfig {
  $schema: string
  kind: 'experiments'
  id: string
  tokens: Array<{ token: string; active: boolean; description?: string }>
  pages?: Array<WebBuilderPage & { experiment: string; group: string }>
}

export class ExperimentsDocumentError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(`${file}#${pointer}: ${problem}`)
    this.name = 'ExperimentsDocumentError'
  }
}

export const DOCUMENT_PATH = path.join('experiments', 'experiments.json')
export const SCHEMA_PATH = path.join('kinds', 'experiments.schema.json')

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * CSP `script-src` sources for the pinned web-builder scripts: the client inserts globalJs as an
 * inline script, which a strict CSP runs only when its hash is listed.
 */
export function pinnedScriptCspSources(pinnedGlobalJsSha256: readonly string[]): string[] {
  return pinnedGlobalJsSha256.map((hex) => `'sha256-${Buffer.from(hex, 'hex').toString('base64')}'`)
}

// jsdom ships no types and only the server needs a DOM for DOMPurify.
const require = createRequire(import.meta.url)
type WindowForPurify = Parameters<typeof createDOMPurify>[0]
let purifier: ReturnType<typeof createDOMPurify> | null = null
export function sanitizeHtml(html: string): string {
  if (!purifier) {
    const { JSDOM } = require('jsdom') as { JSDOM: new (html: string) => { window: unknown } }
    purifier = createDOMPurify(new JSDOM('').window as WindowForPurify)
  }
  return purifier.sanitize(html)
}

function readJson(file: string): unknown {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ExperimentsDocumentError(file, '', `cannot read: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ExperimentsDocumentError(file, '', `not JSON: ${(error as Error).message}`)
  }
}

const escapePointer = (segment: string | number) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')
const pointer = (...segments: Array<string | number>) => segments.map((s) => `/${escapePointer(s)}`).join('')

/** Checks JSON Schema cannot express; each returns the first problem with its pointer. */
function checkSemantics(doc: ExperimentsDocument, pinned: ReadonlySet<string>): { pointer: string; problem: string } | null {
  const flagNames = new Map<string, number>()
  for (const [i, flag] of doc.feature_flags.entries()) {
    if (flagNames.has(flag.name)) return { pointer: pointer('feature_flags', i, 'name'), problem: `duplicate flag name '${flag.name}'` }
    flagNames.set(flag.name, i)
    const defaults = flag.rules.filter((r) => r.is_default).length
    if (defaults !== 1)
      return { pointer: pointer('feature_flags', i, 'rules'), problem: `a feature flag needs exactly one default rule, found ${defaults}` }
  }
  const experiments = new Map<string, Experiment>()
  for (const [i, experiment] of doc.experiments.entries()) {
    if (experiments.has(experiment.name))
      return { pointer: pointer('experiments', i, 'name'), problem: `duplicate experiment name '${experiment.name}'` }
    experiments.set(experiment.name, experiment)
    const groups = new Set(experiment.groups.map((g) => g.name))
    if (groups.size !== experiment.groups.length) return { pointer: pointer('experiments', i, 'groups'), problem: 'duplicate group name' }
    for (const [j, param] of (experiment.params ?? []).entries()) {
      for (const [k, value] of param.values.entries()) {
        if (!groups.has(value.group))
          return { pointer: pointer('experiments', i, 'params', j, 'values', k, 'group'), problem: `unknown group '${value.group}'` }
      }
    }
    for (const [j, flag] of (experiment.feature_flags ?? []).entries()) {
      if (!flagNames.has(flag)) return { pointer: pointer('experiments', i, 'feature_flags', j), problem: `unknown feature flag '${flag}'` }
    }
    const bounds = experiment.layer_bounds === undefined ? [] : Array.isArray(experiment.layer_bounds) ? experiment.layer_bounds : [experiment.layer_bounds]
    for (const [j, bound] of bounds.entries()) {
      if (bound.lower_bound > bound.upper_bound) {
        const at = Array.isArray(experiment.layer_bounds) ? pointer('experiments', i, 'layer_bounds', j) : pointer('experiments', i, 'layer_bounds')
        return { pointer: at, problem: 'lower_bound is above upper_bound' }
      }
    }
    if (bounds.length > 0 && !experiment.layer_id) return { pointer: pointer('experiments', i), problem: 'layer_bounds without layer_id' }
  }
  for (const [i, page] of (doc.pages ?? []).entries()) {
    const experiment = experiments.get(page.experiment)
    if (!experiment) return { pointer: pointer('pages', i, 'experiment'), problem: `unknown experiment '${page.experiment}'` }
    if (!experiment.groups.some((g) => g.name === page.group))
      return { pointer: pointer('pages', i, 'group'), problem: `unknown group '${page.group}'` }
    if (page.globalJs !== undefined && !pinned.has(sha256Hex(page.globalJs)))
      return {
        pointer: pointer('pages', i, 'globalJs'),
        problem: `globalJs is refused: its sha256 ${sha256Hex(page.globalJs)} is not pinned in pinnedGlobalJsSha256`,
      }
  }
  return null
}

const EXPERIMENTS_AJV_OPTIONS = { allErrors: false, strict: false } as const

export function loadExperimentsDocument(documentsDir: string, pinnedGlobalJsSha256: readonly string[] = []): ExperimentsDocument {
  const file = path.join(documentsDir, DOCUMENT_PATH)
  const schemaFile = path.join(documentsDir, SCHEMA_PATH)
  const schema = readJson(schemaFile) as object
  const document = readJson(file)
  const ajv = new Ajv({ ...EXPERIMENTS_AJV_OPTIONS, ...ajvCacheOptions() })
  addFormats(ajv)
  const validate = compileCached(ajv, EXPERIMENTS_AJV_OPTIONS, schema)
  if (!validate(document)) {
    const error = validate.errors?.[0]
    const detail = error ? `${error.message ?? error.keyword}${error.params ? ` ${JSON.stringify(error.params)}` : ''}` : 'invalid'
    throw new ExperimentsDocumentError(file, error?.instancePath ?? '', detail)
  }
  const doc = document as ExperimentsDocument
  const pinned = new Set(pinnedGlobalJsSha256.map((h) => h.toLowerCase()))
  const problem = checkSemantics(doc, pinned)
  if (problem) throw new ExperimentsDocumentError(file, problem.pointer, problem.problem)
  return doc
}

/** What config.json serves: flags and experiments without operator-only fields. */
export function publicConfig(doc: ExperimentsDocument): ExperimentsConfig {
  const withoutDescription = <T extends object>(value: T): T => {
    const copy = { ...value } as T & { description?: unknown }
    delete copy.description
    return copy
  }
  return {
    feature_flags: doc.feature_flags.map((f: FeatureFlag) => withoutDescription(f)),
    experiments: doc.experiments.map((e: Experiment) => withoutDescription(e)),
  }
}

/** A rule's params with every contentHtml (its own and each translation's) sanitised. */
function sanitizedParams(params: WebBuilderContentParams): WebBuilderContentParams {
  const clean = (words: { text?: string; contentHtml?: string }) =>
    words.contentHtml === undefined ? { ...words } : { ...words, contentHtml: sanitizeHtml(words.contentHtml) }
  const { translations, ...own } = params
  return {
    ...clean(own),
    ...(translations ? { translations: Object.fromEntries(Object.entries(translations).map(([locale, words]) => [locale, clean(words)])) } : {}),
  }
}

/** Pages per experiment and group, contentHtml sanitised once at load. */
export function sanitizedPages(doc: ExperimentsDocument): Map<string, WebBuilderPage[]> {
  const byKey = new Map<string, WebBuilderPage[]>()
  for (const page of doc.pages ?? []) {
    const key = `${page.experiment}\u0000${page.group}`
    const clean: WebBuilderPage = {
      ...(page.globalCss !== undefined ? { globalCss: page.globalCss } : {}),
      ...(page.globalJs !== undefined ? { globalJs: page.globalJs } : {}),
      rules: page.rules.map((rule) => ({
        ...rule,
        contentParams: sanitizedParams(rule.contentParams),
      })),
    }
    byKey.set(key, [...(byKey.get(key) ?? []), clean])
  }
  return byKey
}
