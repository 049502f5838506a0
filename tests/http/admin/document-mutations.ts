/**
 * One-thing mutations of a published document for the publish fuzz (publish-fuzz.test.ts): each
 * takes the document's JSON and a seeded random source and changes exactly one thing an operator
 * could get wrong. A mutation that does not apply to the document answers undefined.
 */
import { seededRandom } from '../../unit/experiments/helpers'

export type MutationKind = 'wrong-type' | 'unknown-key' | 'bad-expression' | 'missing-translation' | 'removed-reference' | 'other-value'

export interface Mutation {
  kind: MutationKind
  file: string
  content: string
  describe: string
}

/** A seeded generator (mulberry32), so a failing run reproduces from its seed. */
export const random = (seed: number): (() => number) => seededRandom(seed)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Path = (string | number)[]
const isObject = (v: Json): v is { [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Every [path, value] of a document (the root's kind, id and $schema left alone). */
function entries(value: Json, path: Path = [], out: [Path, Json][] = []): [Path, Json][] {
  if (path.length > 0) out.push([path, value])
  if (Array.isArray(value)) value.forEach((v, i) => entries(v, [...path, i], out))
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) if (path.length > 0 || !['kind', 'id', '$schema'].includes(k)) entries(v, [...path, k], out)
  return out
}

function set(doc: Json, path: Path, value: Json | undefined): void {
  let at = doc as { [key: string]: Json }
  for (const key of path.slice(0, -1)) at = at[key as string] as { [key: string]: Json }
  const last = path[path.length - 1]
  if (value === undefined) Array.isArray(at) ? (at as Json[]).splice(last as number, 1) : delete at[last as string]
  else at[last as string] = value
}

const pick = <T,>(items: T[], next: () => number): T | undefined => (items.length === 0 ? undefined : items[Math.floor(next() * items.length)])
const where = (path: Path) => `/${path.join('/')}`

const WRONG: Record<string, (v: Json) => Json> = {
  number: (v) => (v === 8 ? 'eight' : String(v) + 'x'),
  string: () => 42,
  boolean: () => 'yes',
  object: () => 'oops',
}
/** Keywords of a step schema the real incident changed (a number became a word). */
const SCHEMA_NUMBERS = /^(minLength|maxLength|minimum|maximum|minItems|maxItems)$/
const EXPRESSIONS = ['user.(', "user.balance + 'x' > 1.0", 'nosuch.thing == 1', 'user.state == 1', 'user.loggedIn &&']
const TEXT_KEYS = /^(text|label|title|body|notice|subtitle|submitLabel|empty)$/

type Mutator = (doc: Json, next: () => number) => string | undefined

const MUTATORS: Record<MutationKind, Mutator> = {
  'other-value': () => undefined, // below
  'wrong-type'(doc, next) {
    const all = entries(doc).filter(([, v]) => v !== null && (typeof v !== 'object' || isObject(v)))
    const schemaNumbers = all.filter(([p]) => SCHEMA_NUMBERS.test(String(p[p.length - 1])) && p.includes('schema'))
    const [path, value] = pick(schemaNumbers.length > 0 && next() < 0.5 ? schemaNumbers : all, next) ?? []
    if (!path) return undefined
    const changed = WRONG[typeof value === 'object' ? 'object' : typeof value](value as Json)
    set(doc, path, changed)
    return `${where(path)}: ${JSON.stringify(value)?.slice(0, 40)} → ${JSON.stringify(changed)}`
  },
  'unknown-key'(doc, next) {
    const objects = entries(doc).filter(([, v]) => isObject(v))
    // half of them inside what a kind's schema leaves open (a step schema, a uiSchema, a data source)
    const open = objects.filter(([p]) => p.some((k) => ['schema', 'uiSchema', 'data', 'regulatory', 'config', 'with'].includes(String(k))))
    const [path] = pick(open.length > 0 && next() < 0.5 ? open : objects, next) ?? []
    const at = path ?? []
    set(doc, [...at, 'zzUnknown'], true)
    return `${where(at)}: unknown key zzUnknown`
  },
  'bad-expression'(doc, next) {
    const expressions = entries(doc).filter(([p, v]) => typeof v === 'string' && ['when', 'enabled', '$', 'ui:when'].includes(String(p[p.length - 1])))
    const bad = pick(EXPRESSIONS, next)!
    const [path] = pick(expressions, next) ?? []
    if (!path) return undefined
    set(doc, path, bad)
    return `${where(path)}: expression ${JSON.stringify(bad)}`
  },
  'missing-translation'(doc, next) {
    if (isObject(doc) && isObject(doc.resources as Json)) {
      const key = pick(Object.keys(doc.resources as object), next)
      if (!key) return undefined
      set(doc, ['resources', key], undefined)
      return `/resources/${key}: removed`
    }
    const [path] = pick(entries(doc).filter(([p, v]) => typeof v === 'string' && TEXT_KEYS.test(String(p[p.length - 1])) && /\./.test(v as string) && !p.includes('schema')), next) ?? []
    if (!path) return undefined
    set(doc, path, 'fuzz.missing.key')
    return `${where(path)}: text key fuzz.missing.key (in no locale)`
  },
  'removed-reference'(doc, next) {
    const refs = entries(doc).filter(([p, v]) => typeof v === 'string' && ['popup', 'flow', 'menu', 'to', 'id'].includes(String(p[p.length - 1])) && p.length > 1)
    const steps = entries(doc).filter(([p, v]) => p[p.length - 1] === 'steps' && Array.isArray(v) && (v as Json[]).length > 1)
    if (steps.length > 0 && next() < 0.3) {
      const [path] = steps[0]
      set(doc, [...path, 0], undefined)
      return `${where(path)}/0: first step removed`
    }
    const [path] = pick(refs, next) ?? []
    if (!path) return undefined
    const gone = path[path.length - 1] === 'to' ? '/removed-by-fuzz' : 'removed-by-fuzz'
    set(doc, path, gone)
    return `${where(path)}: refers to ${gone}, which does not exist`
  },
}

/** A value of the same type changed (a number moved by one, a flag flipped, a string swapped for
 * another of the document's): what an operator's ordinary edit looks like. */
function otherValue(doc: Json, next: () => number): string | undefined {
  const all = entries(doc).filter(([, v]) => ['number', 'boolean', 'string'].includes(typeof v))
  const [path, value] = pick(all, next) ?? []
  if (!path) return undefined
  const strings = all.map(([, v]) => v).filter((v) => typeof v === 'string' && v !== value)
  const changed = typeof value === 'number' ? value + 1 : typeof value === 'boolean' ? !value : (pick(strings, next) ?? `${String(value)}-x`)
  set(doc, path, changed)
  return `${where(path)}: ${JSON.stringify(value)?.slice(0, 40)} → ${JSON.stringify(changed)?.slice(0, 40)}`
}
MUTATORS['other-value'] = otherValue

const KINDS = Object.keys(MUTATORS) as MutationKind[]

/** A one-thing mutation of a document, or undefined when the chosen kind does not apply. */
export function mutate(file: string, content: string, next: () => number): Mutation | undefined {
  const kind = pick(KINDS, next)!
  const doc = JSON.parse(content) as Json
  const what = MUTATORS[kind](doc, next)
  if (!what) return undefined
  const changed = JSON.stringify(doc, null, 2)
  if (JSON.stringify(JSON.parse(content)) === JSON.stringify(doc)) return undefined
  return { kind, file, content: changed, describe: `${kind} in ${file} ${what}` }
}
