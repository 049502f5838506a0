/**
 * Real examples for the documents reference: for each document kind, node kind and action, the
 * smallest use of it in the shipped documents (schemas/), with the file and JSON pointer it came
 * from, so the reference shows what operators really write and never an invented snippet. Files
 * are read in sorted order and ties broken by path, so the output is the same on every machine.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

export interface Example {
  /** The file, relative to the repository root, with forward slashes. */
  file: string
  /** JSON pointer of the example inside the file ('' for the whole document). */
  pointer: string
  value: unknown
}

export interface DocumentFile {
  file: string
  kind: string
  value: unknown
}

export interface Examples {
  documents: Map<string, Example>
  nodes: Map<string, Example>
  actions: Map<string, Example>
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const size = (value: unknown) => JSON.stringify(value).length
/** Keys whose values are JSON Schema or rjsf options, not documents' nodes and actions. */
const NOT_DOCUMENT_CONTENT = new Set(['schema', 'uiSchema'])

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : []))
}

/** Every whole document under `schemasDir`, parsed (the emitted kind schemas and jurisdiction
 * overlays left out: an overlay holds only a patch, never a whole example). */
export function readDocuments(root: string, schemasDir = join(root, 'schemas')): DocumentFile[] {
  return files(schemasDir)
    .filter((file) => !file.startsWith(join(schemasDir, 'kinds') + sep))
    .map((file) => {
      const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
      return { file: relative(root, file).split(sep).join('/'), kind: isObject(value) && typeof value.kind === 'string' ? value.kind : '', value }
    })
    .filter((document) => !(isObject(document.value) && '$overlay' in document.value))
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** Calls `visit` on every object of a document with its JSON pointer (JSON Schema parts skipped). */
function walk(value: unknown, pointer: string, visit: (object: Json, pointer: string) => void): void {
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${pointer}/${index}`, visit))
  else if (isObject(value)) {
    visit(value, pointer)
    for (const [key, inner] of Object.entries(value)) if (!NOT_DOCUMENT_CONTENT.has(key)) walk(inner, `${pointer}/${escapePointer(key)}`, visit)
  }
}

/** Keeps the better of two candidates: with parameters when the action has any, then smaller, then first. */
function better(current: Example | undefined, next: Example, preferWith: boolean): Example {
  if (!current) return next
  if (preferWith) {
    const has = (e: Example) => isObject((e.value as Json).with)
    if (has(next) !== has(current)) return has(next) ? next : current
  }
  return size(next.value) < size(current.value) ? next : current
}

/** The smallest real document, node and action call of every kind and name in `documents`. */
export function findExamples(documents: DocumentFile[], nodeKinds: readonly string[], actionNames: readonly string[]): Examples {
  const examples: Examples = { documents: new Map(), nodes: new Map(), actions: new Map() }
  const nodes = new Set(nodeKinds)
  const actions = new Set(actionNames)
  for (const { file, kind, value } of documents) {
    const whole = { file, pointer: '', value }
    examples.documents.set(kind, better(examples.documents.get(kind), whole, false))
    walk(value, '', (object, pointer) => {
      const example = { file, pointer, value: object }
      if (typeof object.type === 'string' && nodes.has(object.type) && pointer !== '')
        examples.nodes.set(object.type, better(examples.nodes.get(object.type), example, false))
      if (typeof object.do === 'string' && actions.has(object.do)) examples.actions.set(object.do, better(examples.actions.get(object.do), example, true))
    })
  }
  return examples
}

/** Lines of `value` pretty-printed. */
export const lineCount = (value: unknown) => JSON.stringify(value, null, 2).split('\n').length

/** Arrays cut to their first item, at any depth. */
function firstItems(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [firstItems(value[0])] : []
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, firstItems(v)]))
  return value
}

/** Objects below the top level cut to their first `keep` entries. */
function firstEntries(value: unknown, keep: number, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => firstEntries(item, keep, depth + 1))
  if (!isObject(value)) return value
  const entries = Object.entries(value)
  return Object.fromEntries((depth > 0 ? entries.slice(0, keep) : entries).map(([k, v]) => [k, firstEntries(v, keep, depth + 1)]))
}

/** Optional top-level fields left out, last first, until the value fits; undefined if it never does. */
function withoutOptional(value: unknown, required: readonly string[], maxLines: number): { value: unknown; left: string[] } | undefined {
  if (!isObject(value)) return undefined
  const kept = { ...value }
  const left: string[] = []
  for (const key of Object.keys(value).reverse()) {
    if (lineCount(kept) <= maxLines) break
    if (required.includes(key)) continue
    delete kept[key]
    left.unshift(key)
  }
  return lineCount(kept) <= maxLines ? { value: kept, left } : undefined
}

/**
 * A real value made short enough to read: unchanged when it fits in `maxLines`; else arrays cut to
 * their first item; then (a document) optional top-level fields left out, or nested objects cut to
 * their first entries (fewer until it fits). Says how it was shortened.
 */
export function shorten(value: unknown, maxLines: number, required?: readonly string[]): { value: unknown; shortened: string } {
  if (lineCount(value) <= maxLines) return { value, shortened: '' }
  const cut = firstItems(value)
  const arrays = 'arrays cut to their first item'
  if (lineCount(cut) <= maxLines) return { value: cut, shortened: arrays }
  const fewer = required ? withoutOptional(cut, required, maxLines) : undefined
  if (fewer) return { value: fewer.value, shortened: `${arrays}; left out: ${fewer.left.map((k) => '`' + k + '`').join(', ')}` }
  for (const keep of [6, 4, 3, 2, 1]) {
    const entries = firstEntries(cut, keep)
    if (lineCount(entries) <= maxLines || keep === 1) return { value: entries, shortened: `${arrays}, nested objects to their first ${keep === 1 ? 'entry' : `${keep} entries`}` }
  }
  return { value: cut, shortened: arrays }
}
