/**
 * Reads document files, validates each against its kind's schema and compiles its expressions.
 *
 * Documents are untrusted input (an operator typed them): every problem is reported as
 * `file:json-pointer: message`, and a set with any problem is refused as a whole so the server
 * keeps serving the last good set.
 */
import Ajv, { type ValidateFunction } from 'ajv'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { documentSchemas, type DocumentKind } from '../../../kernel/documents/kinds'
import { compileExpression } from './cel-compiler'
import { gameMathsProblems, type GameMaths } from '../../../kernel/games/maths'
import { resolveOverlaySet } from '../../../kernel/documents/overlay-set'
import { clientCopy } from './server-only'
import type { DocumentProblem } from '../../../kernel/documents/problem'
import { ajvCacheOptions, compileCached } from './ajv-cache'

export type { DocumentProblem } from '../../../kernel/documents/problem'

export interface DocumentRecord {
  kind: DocumentKind
  id: string
  /** '' for shared documents, otherwise the jurisdiction whose folder holds it. */
  jurisdiction: string
  locales: string[]
  platforms: string[]
  /** Path relative to the documents folder, with forward slashes. */
  file: string
  source: Record<string, unknown>
  /** The document as served: expressions replaced by `{cel, ir}`. */
  served: Record<string, unknown>
  hash: string
}

/** Folders under the documents root that hold something other than engine documents. */
const IGNORED_FOLDERS = new Set(['kinds', 'experiments'])

/** Keys whose string value is a boolean CEL condition. */
const CONDITION_KEYS = new Set(['when', 'enabled'])
/** Subtrees that are data, not document structure: never scanned for expressions. */
const OPAQUE_KEYS = new Set(['schema', 'uiSchema', 'resources', 'config', 'regulatory'])

const DOCUMENT_AJV_OPTIONS = { allErrors: true, strict: false } as const
let documentAjv: Ajv | undefined
const validators = new Map<string, ValidateFunction>()
/** Each kind's validator, compiled (or loaded from ajv-cache.ts's folder) the first time a document of the kind is read. */
function validatorFor(kind: DocumentKind): ValidateFunction {
  let validate = validators.get(kind)
  if (!validate) {
    documentAjv ??= new Ajv({ ...DOCUMENT_AJV_OPTIONS, ...ajvCacheOptions() })
    validate = compileCached(documentAjv, DOCUMENT_AJV_OPTIONS, documentSchemas[kind])
    validators.set(kind, validate)
  }
  return validate
}

const escapePointer = (segment: string | number) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')

export function listDocumentFiles(root: string): string[] {
  const files: string[] = []
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry)
      const rel = relative(root, full).split(sep).join('/')
      if (statSync(full).isDirectory()) {
        if (depth === 0 && IGNORED_FOLDERS.has(entry)) continue
        walk(full, depth + 1)
      } else if (entry.endsWith('.json')) files.push(rel)
    }
  }
  walk(root, 0)
  return files
}

/**
 * A flow step's uiSchema is data, except each field's `ui:when`: a boolean condition (the form's
 * values are `form.<field>`) that shows the field only while it holds. Compiled like every `when`.
 */
function compileFieldConditions(uiSchema: unknown, pointer: string, file: string, problems: DocumentProblem[]): unknown {
  if (uiSchema === null || typeof uiSchema !== 'object' || Array.isArray(uiSchema)) return uiSchema
  const out: Record<string, unknown> = {}
  for (const [field, options] of Object.entries(uiSchema as Record<string, unknown>)) {
    const condition = (options as Record<string, unknown> | null)?.['ui:when']
    if (typeof condition !== 'string' || typeof options !== 'object' || options === null || Array.isArray(options)) {
      out[field] = options
      continue
    }
    const result = compileExpression(condition, 'bool')
    if (!result.ok) problems.push({ file, pointer: `${pointer}/${escapePointer(field)}/ui:when`, message: `expression ${JSON.stringify(condition)}: ${result.error}` })
    out[field] = { ...options, 'ui:when': result.ok ? result.expression : condition }
  }
  return out
}

/** Compiles every expression in a document; returns the served copy and the problems found. */
export function compileDocument(source: unknown, file: string, problems: DocumentProblem[]): unknown {
  const visit = (value: unknown, pointer: string, key: string | null): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => visit(item, `${pointer}/${i}`, null))
    if (value === null || typeof value !== 'object') {
      if (key !== null && CONDITION_KEYS.has(key) && typeof value === 'string') {
        const result = compileExpression(value, 'bool')
        if (result.ok) return result.expression
        problems.push({ file, pointer, message: `expression ${JSON.stringify(value)}: ${result.error}` })
      }
      return value
    }
    const object = value as Record<string, unknown>
    const keys = Object.keys(object)
    if (keys.length === 1 && keys[0] === '$' && typeof object.$ === 'string') {
      const result = compileExpression(object.$)
      if (result.ok) return { $: result.expression }
      problems.push({ file, pointer: `${pointer}/$`, message: `binding ${JSON.stringify(object.$)}: ${result.error}` })
      return value
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(object)) {
      if (k === 'uiSchema') out[k] = compileFieldConditions(v, `${pointer}/uiSchema`, file, problems)
      else out[k] = OPAQUE_KEYS.has(k) ? v : visit(v, `${pointer}/${escapePointer(k)}`, k)
    }
    return out
  }
  return visit(source, '', null)
}

function jurisdictionOf(file: string): string {
  const parts = file.split('/')
  return parts[0] === 'jurisdictions' && parts.length > 2 ? parts[1] : ''
}

export function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 16)
}

/** Records already read, by file and text: start-up reads each file once, and the document store
 * (seeding, the published set, review) reuses the record instead of validating the text again. */
const readRecords = new Map<string, DocumentRecord>()
const READ_RECORDS_LIMIT = 5000

/** Parses, validates and compiles one document text (once per file and text: see readRecords). */
export function readDocument(file: string, text: string, problems: DocumentProblem[]): DocumentRecord | null {
  const key = `${file}\u0000${createHash('sha256').update(text).digest('base64url')}`
  const known = readRecords.get(key)
  if (known) return known
  const record = parseDocument(file, text, problems)
  if (record) {
    if (readRecords.size >= READ_RECORDS_LIMIT) readRecords.clear()
    readRecords.set(key, record)
  }
  return record
}

function parseDocument(file: string, text: string, problems: DocumentProblem[]): DocumentRecord | null {
  let source: unknown
  try {
    source = JSON.parse(text)
  } catch (error) {
    problems.push({ file, pointer: '', message: `invalid JSON: ${(error as Error).message}` })
    return null
  }
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    problems.push({ file, pointer: '', message: 'a document must be a JSON object' })
    return null
  }
  const doc = source as Record<string, unknown>
  const kind = doc.kind as DocumentKind
  if (typeof kind !== 'string' || !Object.hasOwn(documentSchemas, kind)) {
    problems.push({ file, pointer: '/kind', message: `unknown document kind ${JSON.stringify(doc.kind)}; expected one of ${Object.keys(documentSchemas).join(', ')}` })
    return null
  }
  const validate = validatorFor(kind)
  if (!validate(doc)) {
    for (const error of validate.errors ?? []) {
      // if/then wrappers repeat the real error; keep the informative one.
      if (error.keyword === 'if' || error.keyword === 'allOf' || error.keyword === 'anyOf') continue
      const detail =
        error.keyword === 'additionalProperties'
          ? `unknown property ${JSON.stringify(error.params.additionalProperty)}`
          : error.keyword === 'enum'
            ? `${error.message}: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
            : (error.message ?? error.keyword)
      problems.push({ file, pointer: error.instancePath, message: detail })
    }
    if ((validate.errors ?? []).every((e) => ['if', 'allOf', 'anyOf'].includes(e.keyword)))
      problems.push({ file, pointer: validate.errors?.[0]?.instancePath ?? '', message: 'does not match the schema' })
    return null
  }
  const jurisdiction = kind === 'jurisdiction' ? String(doc.id) : jurisdictionOf(file)
  if (kind === 'jurisdiction' && jurisdictionOf(file) !== doc.id) {
    problems.push({ file, pointer: '/id', message: `a jurisdiction document must live in schemas/jurisdictions/${String(doc.id)}/` })
    return null
  }
  // a casino game's declared return must be what its paytable pays (kernel/games/maths.ts)
  if (kind === 'game') {
    const wrong = gameMathsProblems(doc as unknown as GameMaths)
    for (const problem of wrong) problems.push({ file, ...problem })
    if (wrong.length > 0) return null
  }
  const before = problems.length
  // What browsers get: compiled expressions, and no field the kind's schema marks server-only.
  const served = clientCopy(kind, compileDocument(doc, file, problems)) as Record<string, unknown>
  if (problems.length > before) return null
  return {
    kind,
    id: String(doc.id),
    jurisdiction,
    locales: (doc.locales as string[] | undefined) ?? [],
    platforms: (doc.platforms as string[] | undefined) ?? [],
    file,
    source: doc,
    served,
    hash: hashOf(served),
  }
}

export const variantOf = (record: Pick<DocumentRecord, 'locales' | 'platforms'>) =>
  [record.locales.join(','), record.platforms.join(',')].join('|').replace(/^\|$/, '')

/**
 * Reads a set of (file → text) as the server serves it: overlays resolved (shared ⊕ overlay, see
 * overlay-set.ts), bases left out, each document validated whole. A problem in an overlay's
 * resolved document names the overlay file, with the pointer into the resolved document.
 */
export function readDocumentSet(texts: Map<string, string>, problems: DocumentProblem[] = []): { records: DocumentRecord[]; problems: DocumentProblem[] } {
  const resolved = resolveOverlaySet(texts)
  problems.push(...resolved.problems)
  const records: DocumentRecord[] = []
  for (const [file, text] of resolved.texts) {
    const before = problems.length
    const record = readDocument(file, text, problems)
    const base = resolved.overlays.get(file)
    if (base) problems.splice(before, Infinity, ...problems.slice(before).map((p) => ({ ...p, message: `${p.message} (in the resolved document: ${base} ⊕ this overlay)` })))
    if (record) records.push(record)
  }
  return { records, problems }
}

/** Loads every document under `root`. Never throws for bad documents: they come back as problems. */
export function loadDocuments(root: string): { records: DocumentRecord[]; problems: DocumentProblem[] } {
  const problems: DocumentProblem[] = []
  const texts = new Map<string, string>()
  for (const file of listDocumentFiles(root)) {
    try {
      texts.set(file, readFileSync(join(root, file), 'utf8'))
    } catch (error) {
      problems.push({ file, pointer: '', message: `cannot read: ${(error as Error).message}` })
    }
  }
  const records: DocumentRecord[] = []
  const seen = new Map<string, string>()
  for (const record of readDocumentSet(texts, problems).records) {
    const key = `${record.kind}/${record.id}/${record.jurisdiction}/${variantOf(record)}`
    const other = seen.get(key)
    if (other) {
      problems.push({ file: record.file, pointer: '/id', message: `duplicate ${record.kind} ${JSON.stringify(record.id)}: also defined in ${other}` })
      continue
    }
    seen.set(key, record.file)
    records.push(record)
  }
  return { records, problems }
}

export function formatProblem(problem: DocumentProblem): string {
  return `${problem.file}:${problem.pointer || '/'}: ${problem.message}`
}
