/**
 * The semantic differ: compares two sets of documents and says what changed in the product's
 * language ("Spain sign-up (email): field birthDay no longer required"), with a compliance impact
 * class, a severity and a stable fingerprint per finding.
 *
 * Arrays are compared by identity, never by index: steps and after-login rules by id, menu items
 * by name, buttons by label, nodes by kind and text, action chains as a whole. So a location reads
 * `/steps[personal]/schema/required[birthDay]` and stays the same when unrelated parts move, and
 * the fingerprint (class + document + location + kind of change, no values, no line numbers) lets
 * an approval follow a finding across commits.
 */
import { createHash } from 'node:crypto'
import { promotionMeaning } from './promotion-wording'
import { classifyConstraint, classifyWords, COMPLIANCE_CLASSES, severityOf, type Direction, type ImpactClass, type Severity } from './classify'
import { engagementWording } from './engagement'

export interface DocumentSnapshot {
  kind: string
  id: string
  /** '' for shared documents. */
  jurisdiction: string
  file: string
  source: Record<string, unknown>
  locales?: string[]
  platforms?: string[]
  /** Set when the source is an overlay resolved over this shared file (docs/adr/0005-jurisdiction-overlays.md). */
  overlayOf?: string
}

export interface DocumentRef {
  kind: string
  id: string
  jurisdiction: string
  variant: string
  file: string
  label: string
}

export interface DiffFinding {
  fingerprint: string
  /** The kind of change, e.g. `field.required.removed`, `chain.changed`. */
  rule: string
  impact: ImpactClass
  severity: Severity
  direction: Direction
  /** One line in the product's language. */
  message: string
  document: DocumentRef
  /** JSON-path-ish, keyed by identity: `/items[loyalty]/loginOnly`. */
  location: string
  before?: unknown
  after?: unknown
}

interface Segment {
  key: string
  phrase?: string
  /** An array element, written `[key]` in a location. */
  keyed?: boolean
}

const CHAIN_KEYS = new Set(['actions', 'submit', 'onSuccess', 'onComplete', 'onEnter', 'afterSignUp', 'onClose'])
const TEXT_KEYS = new Set(['text', 'label', 'title', 'body', 'empty', 'badge', 'alt', 'notice', 'subtitle', 'submitLabel', 'message', 'ui:help', 'ui:enumNames', 'ui:placeholder'])
const COSMETIC_KEYS = new Set(['icon', 'variant', 'animation', 'gap', 'direction', 'layout', 'tone', 'image', 'src', 'width', 'height', '$schema', 'description', 'uiSchema', 'ui:widget', 'ui:autocomplete', 'testId'])
const MIN_KEYS = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'formatMinimum'])
const MAX_KEYS = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'formatMaximum'])

const titleCase = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s)
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
const show = (v: unknown) => (v === undefined ? 'nothing' : typeof v === 'string' ? v : JSON.stringify(v))

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`
  return JSON.stringify(value) ?? 'undefined'
}
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b)

export const variantKey = (doc: Pick<DocumentSnapshot, 'locales' | 'platforms' | 'source'>) => {
  const locales = doc.locales ?? (doc.source.locales as string[] | undefined) ?? []
  const platforms = doc.platforms ?? (doc.source.platforms as string[] | undefined) ?? []
  return locales.length || platforms.length ? `${locales.join(',')}|${platforms.join(',')}` : ''
}

export const documentIdentity = (doc: Pick<DocumentRef, 'kind' | 'jurisdiction' | 'id' | 'variant'>) =>
  `${doc.kind}:${doc.jurisdiction || '*'}:${doc.id}${doc.variant ? `:${doc.variant}` : ''}`

/** "Spain sign-up (email)", "popup self-exclude", "left menu", "Denmark site". */
export function documentLabel(doc: DocumentSnapshot): string {
  const where = doc.jurisdiction ? `${titleCase(doc.jurisdiction)} ` : ''
  switch (doc.kind) {
    case 'jurisdiction':
      return `${String(doc.source.name ?? titleCase(doc.id))} site`
    case 'flow': {
      const signup = /^signup-(.+)$/.exec(doc.id)
      return signup ? `${where || 'shared '}sign-up (${signup[1]})` : `${where}flow ${doc.id}`
    }
    case 'menu':
      return `${where}${doc.id.replace(/-/g, ' ')}`
    case 'footer':
      return `${where}footer`
    case 'translations':
      return `${where}texts ${doc.id}`
    case 'remote-config':
      return `${where}remote config`
    default:
      return `${where}${doc.kind} ${doc.id}`
  }
}

function textKeyOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (isObject(value) && typeof value.key === 'string') return value.key
  return undefined
}
const lastSegment = (key: string) => key.split('.').pop() ?? key

/** The identity of an array element, and how to say it. */
function identityOf(parentKey: string, item: unknown, index: number): Segment {
  if (!isObject(item)) return { key: `#${index}` }
  if (typeof item.id === 'string' && typeof item.type !== 'string') {
    const noun = parentKey === 'steps' ? 'step' : parentKey === 'afterLogin' ? 'after-login rule' : 'entry'
    return { key: item.id, phrase: `${noun} ${item.id}` }
  }
  if (typeof item.name === 'string') return { key: item.name, phrase: `item ${item.name}` }
  if (typeof item.type === 'string') {
    const name = (typeof item.id === 'string' && item.id) || textKeyOf(item.text) || textKeyOf(item.label) || textKeyOf(item.title) || (item.menu as string) || (item.flow as string) || (item.testId as string)
    return name ? { key: `${item.type}:${name}`, phrase: `${item.type} ${name}` } : { key: `${item.type}#${index}`, phrase: `${item.type} #${index + 1}` }
  }
  const label = textKeyOf(item.label)
  if (label) return { key: label, phrase: `${parentKey === 'buttons' ? 'button' : 'entry'} ${lastSegment(label)}` }
  if (typeof item.code === 'string') return { key: item.code, phrase: `${parentKey} ${item.code}` }
  return { key: `#${index}` }
}

function keyedEntries(parentKey: string, items: unknown[]): Map<string, { segment: Segment; value: unknown; index: number }> {
  const out = new Map<string, { segment: Segment; value: unknown; index: number }>()
  items.forEach((value, index) => {
    const segment = identityOf(parentKey, value, index)
    let key = segment.key
    for (let n = 2; out.has(key); n++) key = `${segment.key}#${n}`
    out.set(key, { segment: { ...segment, key, keyed: true }, value, index })
  })
  return out
}

interface RawChange {
  op: 'added' | 'removed' | 'changed' | 'reordered' | 'chain'
  path: Segment[]
  before?: unknown
  after?: unknown
}

const chainNames = (chain: unknown) => (Array.isArray(chain) ? chain.map((a) => (isObject(a) ? String(a.do) : '?')) : [])

function walk(before: unknown, after: unknown, path: Segment[], out: RawChange[]): void {
  if (same(before, after)) return
  const key = path[path.length - 1]?.key ?? ''
  if (before === undefined) return void out.push({ op: 'added', path, after })
  if (after === undefined) return void out.push({ op: 'removed', path, before })
  if (CHAIN_KEYS.has(key) && Array.isArray(before) && Array.isArray(after)) {
    const a = chainNames(before)
    const b = chainNames(after)
    if (a.join(' ') !== b.join(' ')) return void out.push({ op: 'chain', path, before: a, after: b })
    // Same actions in the same order: compare each action's parameters and branches.
    before.forEach((action, i) => walk(action, after[i], [...path, { key: `${a[i]}@${i}`, phrase: `action ${a[i]}`, keyed: true }], out))
    return
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const scalar = [...before, ...after].every((v) => !isObject(v) && !Array.isArray(v))
    if (scalar) {
      const a = new Set(before.map((v) => JSON.stringify(v)))
      const b = new Set(after.map((v) => JSON.stringify(v)))
      for (const v of b) if (!a.has(v)) out.push({ op: 'added', path: [...path, { key: String(JSON.parse(v)), keyed: true }], after: JSON.parse(v) })
      for (const v of a) if (!b.has(v)) out.push({ op: 'removed', path: [...path, { key: String(JSON.parse(v)), keyed: true }], before: JSON.parse(v) })
      if (a.size === b.size && [...a].every((v) => b.has(v)) && key !== 'required' && key !== 'enum')
        out.push({ op: 'reordered', path, before, after })
      return
    }
    const a = keyedEntries(key, before)
    const b = keyedEntries(key, after)
    for (const [k, entry] of b) walk(a.get(k)?.value, entry.value, [...path, entry.segment], out)
    for (const [k, entry] of a) if (!b.has(k)) walk(entry.value, undefined, [...path, entry.segment], out)
    const common = [...a.keys()].filter((k) => b.has(k))
    const orderAfter = [...b.keys()].filter((k) => a.has(k))
    if (common.join('\u0000') !== orderAfter.join('\u0000')) out.push({ op: 'reordered', path, before: common, after: orderAfter })
    return
  }
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)])
    for (const k of keys) {
      const phrase = path[path.length - 1]?.key === 'properties' ? `field ${k}` : undefined
      walk(before[k], after[k], [...path, { key: k, phrase }], out)
    }
    return
  }
  out.push({ op: 'changed', path, before, after })
}

const locationOf = (path: Segment[]) => path.map((s) => (s.keyed ? `[${s.key}]` : `/${s.key}`)).join('') || '/'

const KEYED_PARENTS = new Set(['steps', 'afterLogin', 'items', 'buttons', 'body', 'children', 'required', 'enum', 'hosts', 'locales', 'methods', 'platforms'])
const isKeyedParent = (key: string) => KEYED_PARENTS.has(key)

/** The nearest segment with a phrase ("step personal", "button confirm", "item loyalty"). */
function subjectOf(path: Segment[], upTo = path.length): string | undefined {
  const phrases: string[] = []
  for (let i = 0; i < upTo; i++) if (path[i].phrase) phrases.push(path[i].phrase!)
  // "step personal field birthDay" reads as just "field birthDay": the field name is what matters.
  const field = [...phrases].reverse().find((p) => p.startsWith('field '))
  if (field) return field
  return phrases.length ? phrases.slice(-2).join(' ') : undefined
}

function fieldOf(path: Segment[]): string | undefined {
  for (let i = path.length - 1; i > 0; i--) if (path[i - 1].key === 'properties') return path[i].key
  return undefined
}

interface Interpretation {
  rule: string
  message: string
  direction: Direction
  impact?: ImpactClass
}

/** What interpret's steps read about one change: its path words and how to phrase its subject. */
interface Facts {
  path: Segment[]
  op: RawChange['op']
  before: unknown
  after: unknown
  keys: string[]
  key: string
  parent: string
  subject: string
  field: string | undefined
  at: (words: string) => string
  doc: DocumentSnapshot
}

function factsOf(change: RawChange, doc: DocumentSnapshot): Facts {
  const { path, op, before, after } = change
  const keys = path.map((s) => s.key)
  const subject = subjectOf(path, path.length) ?? ''
  const at = (words: string) => (subject ? `${subject} ${words}` : words)
  return { path, op, before, after, keys, key: keys[keys.length - 1] ?? '', parent: keys[keys.length - 2] ?? '', subject, field: fieldOf(path), at, doc }
}

function interpret(change: RawChange, doc: DocumentSnapshot): Interpretation {
  const engagement = engagementWording(change, doc.kind, doc.source)
  if (engagement) return engagement
  if (doc.kind === 'promotion') {
    const meaning = promotionMeaning(change.path.map((s) => s.key), change.op, change.before, change.after, doc.source)
    if (meaning) return meaning
  }
  const facts = factsOf(change, doc)
  return structuralMeaning(facts) ?? fieldMeaning(facts) ?? policyMeaning(facts) ?? elementMeaning(facts)
}

/** A changed action chain or a reordered list. */
function structuralMeaning(c: Facts): Interpretation | undefined {
  const { path, op, before, after, key, parent, at } = c
  if (op === 'chain') {
    const a = before as string[]
    const b = after as string[]
    const where = subjectOf(path.slice(0, -1)) ?? ''
    const what = key === 'submit' ? `${where} submit`.trim() : key === 'actions' ? where || 'actions' : `${where} ${key}`.trim()
    const message =
      a.length === 0 ? `${what} now runs ${b.join(', ')}` : b.length === 0 ? `${what} no longer runs ${a.join(', ')}` : `${what} now runs ${b.join(', ')} instead of ${a.join(', ')}`
    const lost = a.filter((n) => !b.includes(n))
    return { rule: 'chain.changed', message, direction: lost.length > 0 ? 'loosened' : 'neutral', impact: classifyWords(...lost, ...b.filter((n) => !a.includes(n))) }
  }
  if (op === 'reordered') return { rule: 'order.changed', message: `${at(`${parent || key} order changed`)}`.replace(/^ /, ''), direction: 'neutral', impact: 'cosmetic' }
  return undefined
}

/** A form field gained, lost, made (not) required, or with a changed constraint. */
function fieldMeaning(c: Facts): Interpretation | undefined {
  const { path, op, before, after, keys, key, parent, field } = c
  if (parent === 'required' && keys.includes('schema')) {
    const name = String(key)
    return op === 'removed'
      ? { rule: 'field.required.removed', message: `field ${name} no longer required`, direction: 'loosened', impact: classifyWords(name) }
      : { rule: 'field.required.added', message: `field ${name} now required`, direction: 'tightened', impact: classifyWords(name) }
  }
  if (parent === 'properties' && keys.includes('schema')) {
    return op === 'added'
      ? { rule: 'field.added', message: `${subjectOf(path.slice(0, -2)) ?? 'form'} gains field ${key}`, direction: 'tightened', impact: classifyWords(key) }
      : op === 'removed'
        ? { rule: 'field.removed', message: `field ${key} removed${subjectOf(path.slice(0, -2)) ? ` from ${subjectOf(path.slice(0, -2))}` : ''}`, direction: 'loosened', impact: classifyWords(key) }
        : { rule: 'field.changed', message: `field ${key} changed`, direction: 'neutral', impact: classifyWords(key) }
  }
  if (field && parent === 'enum') {
    return op === 'added'
      ? { rule: 'field.enum.added', message: `field ${field} now accepts ${show(key)}`, direction: 'loosened', impact: classifyWords(field) }
      : { rule: 'field.enum.removed', message: `field ${field} no longer accepts ${show(key)}`, direction: 'tightened', impact: classifyWords(field) }
  }
  if (field && (MIN_KEYS.has(key) || MAX_KEYS.has(key) || ['pattern', 'const', 'format', 'type'].includes(key)) && path[path.length - 2]?.key === field) {
    let direction: Direction = 'neutral'
    if (before === undefined) direction = 'tightened'
    else if (after === undefined) direction = 'loosened'
    else if (MIN_KEYS.has(key)) direction = String(after) > String(before) || Number(after) > Number(before) ? 'tightened' : 'loosened'
    else if (MAX_KEYS.has(key)) direction = Number(after) < Number(before) || String(after) < String(before) ? 'tightened' : 'loosened'
    const words = op === 'added' ? `now has ${key} ${show(after)}` : op === 'removed' ? `no longer has ${key} ${show(before)}` : `${key} ${show(before)} → ${show(after)}`
    return { rule: `field.${key}.${op}`, message: `field ${field} ${words}`, direction, impact: classifyConstraint(field, key) }
  }
  return undefined
}

/** Age, login visibility, conditions, popups, texts and cosmetic settings. */
function policyMeaning(c: Facts): Interpretation | undefined {
  const { path, op, before, after, keys, key, parent, at, doc } = c
  if (key === 'minimumAge') {
    const direction: Direction = Number(after) < Number(before) ? 'loosened' : 'tightened'
    return { rule: 'age.minimum.changed', message: `minimum age ${show(before)} → ${show(after)}`, direction, impact: 'age-gate' }
  }
  if (key === 'loginOnly' || (key === 'login' && parent === 'guard')) {
    const nowGuests = !after
    return {
      rule: 'visibility.login.changed',
      message: nowGuests ? at('now shown to guests') : at('now only for logged-in punters'),
      direction: nowGuests ? 'loosened' : 'tightened',
    }
  }
  if (key === 'when' || key === 'enabled') {
    const noun = key === 'when' ? 'condition' : 'enabled condition'
    const message =
      op === 'removed' ? at(key === 'when' ? 'now always applies (condition removed)' : 'now always enabled') : op === 'added' ? at(`now only when ${show(after)}`) : at(`${noun} ${show(before)} → ${show(after)}`)
    return { rule: `condition.${op}`, message, direction: op === 'removed' ? 'loosened' : op === 'added' ? 'tightened' : 'neutral' }
  }
  if (key === 'popup' && parent !== 'with') return { rule: 'popup.changed', message: at(`now opens popup ${show(after)} instead of ${show(before)}`), direction: 'neutral', impact: classifyWords(String(before), String(after)) }
  if (doc.kind === 'translations' && keys[0] === 'resources') {
    const textKey = keys[1]
    const message = op === 'added' ? `text ${textKey} added: "${show(after)}"` : op === 'removed' ? `text ${textKey} removed` : `text ${textKey} "${show(before)}" → "${show(after)}"`
    return { rule: `text.${op}`, message, direction: 'neutral', impact: 'copy' }
  }
  const isText = (v: unknown) => v === undefined || typeof v === 'string' || (isObject(v) && typeof v.key === 'string')
  const textChange = (TEXT_KEYS.has(key) && !path[path.length - 1]?.keyed && isText(before) && isText(after)) || (TEXT_KEYS.has(parent) && ['key', 'values', 'count'].includes(key))
  if (textChange && !keys.includes('properties')) {
    const message = op === 'changed' ? at(`text ${show(before)} → ${show(after)}`) : op === 'added' ? at(`text ${key} added: ${show(after)}`) : at(`text ${key} removed`)
    return { rule: `text.${op}`, message, direction: 'neutral', impact: 'copy' }
  }
  if (keys.some((k) => COSMETIC_KEYS.has(k))) {
    const message = op === 'changed' ? at(`${key} ${show(before)} → ${show(after)}`) : at(`${key} ${op}`)
    return { rule: `cosmetic.${op}`, message, direction: 'neutral', impact: 'cosmetic' }
  }
  return undefined
}

/** Whole elements (a step, a menu item, a button, an after-login rule, a regulatory setting) and any other value. */
function elementMeaning(c: Facts): Interpretation {
  const { path, op, before, after, keys, key, parent, subject } = c
  const last = path[path.length - 1]
  const owner = keys.slice(0, -1).filter((k, i) => !path[i].keyed && !path[i].phrase).slice(-2).join(' ')
  const thing = last?.phrase ?? (last?.keyed ? `${owner} ${show(key)}`.trim() : key)
  const context = subjectOf(path.slice(0, -1))
  const lead = context && context !== thing ? `${context}: ` : ''
  if (op === 'added') return { rule: 'element.added', message: `${lead}${thing} added${isObject(after) || Array.isArray(after) ? '' : ` (${show(after)})`}`, direction: 'tightened' }
  if (op === 'removed') return { rule: 'element.removed', message: `${lead}${thing} removed`, direction: 'loosened' }
  const pathWords = keys.slice(-2).join(' ')
  let direction: Direction = 'neutral'
  if (typeof before === 'boolean' && typeof after === 'boolean') direction = after ? 'tightened' : 'loosened'
  // Regulatory numbers (waiting hours, exclusion days, limits) protect the punter more when larger.
  if (keys[0] === 'regulatory' && typeof before === 'number' && typeof after === 'number') direction = after < before ? 'loosened' : 'tightened'
  // Money bounds (maximum stake, maximum payouts) risk more when larger; a larger minimum stake asks more of the punter.
  if ((keys[0] === 'betting' || keys[0] === 'games') && typeof before === 'number' && typeof after === 'number' && key !== 'minimum') direction = after > before ? 'loosened' : 'tightened'
  return { rule: 'value.changed', message: `${lead || (subject && subject !== thing ? `${subject}: ` : '')}${isKeyedParent(parent) ? thing : pathWords} ${show(before)} → ${show(after)}`, direction }
}

function impactFor(change: RawChange, doc: DocumentSnapshot, guess: ImpactClass | undefined): ImpactClass {
  if (guess) return guess
  const words = change.path.map((s) => s.key)
  const values = [change.before, change.after].filter((v) => typeof v === 'string') as string[]
  const element = [change.before, change.after].find(isObject)
  const elementWords = element ? [String(element.id ?? ''), String(element.name ?? ''), String(element.popup ?? ''), textKeyOf(element.label) ?? ''] : []
  return (
    classifyWords(...words, ...values, ...elementWords) ??
    classifyWords(doc.id) ??
    (doc.kind === 'flow' && doc.id.startsWith('signup') && words.includes('schema') ? 'identity-kyc' : undefined) ??
    'cosmetic'
  )
}

export function fingerprintOf(impact: ImpactClass, document: string, location: string, rule: string): string {
  return createHash('sha256').update([impact, document, location, rule].join('\u0000')).digest('hex').slice(0, 16)
}

export function refOf(doc: DocumentSnapshot): DocumentRef {
  return { kind: doc.kind, id: doc.id, jurisdiction: doc.jurisdiction, variant: variantKey(doc), file: doc.file, label: documentLabel(doc) }
}

/** Findings for one document present in both sets. */
export function diffDocument(before: DocumentSnapshot, after: DocumentSnapshot): DiffFinding[] {
  const changes: RawChange[] = []
  walk(before.source, after.source, [], changes)
  const document = refOf(after)
  const identity = documentIdentity(document)
  return changes.map((change) => {
    const meaning = interpret(change, after)
    let impact = impactFor(change, after, meaning.impact)
    if (meaning.rule.startsWith('text.')) impact = 'copy'
    if (meaning.rule.startsWith('cosmetic.') || meaning.rule === 'order.changed') impact = 'cosmetic'
    let severity = severityOf(impact, meaning.direction)
    // Copy on a compliance surface (the self-exclusion popup, the terms text) is read by compliance.
    if (impact === 'copy' && classifyWords(after.id, ...change.path.map((s) => s.key))) severity = 'warning'
    const location = locationOf(change.path)
    return {
      fingerprint: fingerprintOf(impact, identity, location, meaning.rule),
      rule: meaning.rule,
      impact,
      severity,
      direction: meaning.direction,
      message: `${document.label}: ${meaning.message}`,
      document,
      location,
      ...(change.before !== undefined ? { before: change.before } : {}),
      ...(change.after !== undefined ? { after: change.after } : {}),
    }
  })
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, note: 2 }

/**
 * A jurisdiction's document appearing or going beside a shared one (or a base under `bases/`):
 * what it changes for that site against the shared document, not "new document". A whole copy is
 * a warning (later shared changes will not reach it); an overlay a note.
 */
function jurisdictionVersionFindings(doc: DocumentSnapshot, counterpart: DocumentSnapshot, added: boolean): DiffFinding[] {
  // the shared document as if it were this site's (its $schema differs only by the folder depth)
  const shared = { ...counterpart, source: { ...counterpart.source, $schema: doc.source.$schema }, jurisdiction: doc.jurisdiction, file: doc.file, overlayOf: undefined }
  const document = refOf(doc)
  const rule = added ? 'document.jurisdiction-added' : 'document.jurisdiction-removed'
  const whole = added && !doc.overlayOf
  const how = !added ? `now served ${counterpart.file} again` : whole ? `a whole copy of ${counterpart.file}: later changes of it will not reach this site` : `an overlay on ${counterpart.file}: later changes of it still reach this site`
  const impact = classifyWords(doc.id) ?? 'cosmetic'
  const head: DiffFinding = {
    fingerprint: fingerprintOf(impact, documentIdentity(document), '/', rule),
    rule,
    impact,
    severity: whole ? 'warning' : 'note',
    direction: 'neutral',
    message: `${document.label}: ${how}${added ? '; what it changes:' : '; what that changes:'}`,
    document,
    location: '/',
  }
  return [head, ...(added ? diffDocument(shared, doc) : diffDocument(doc, shared))]
}

const isBase = (d: DocumentSnapshot) => d.file.startsWith('bases/')

/** The shared document a jurisdiction's document stands beside: its overlay's own, else the served
 * shared one of the same identity, else (`withBases`: a document appearing) a base of that identity. */
function sharedCounterpart(doc: DocumentSnapshot, side: DocumentSnapshot[], withBases: boolean): DocumentSnapshot | undefined {
  if (!doc.jurisdiction || doc.kind === 'jurisdiction') return undefined
  const own = doc.overlayOf ? side.find((s) => s.file === doc.overlayOf && (withBases || !isBase(s))) : undefined
  const same = side.filter((s) => s.jurisdiction === '' && s.kind === doc.kind && s.id === doc.id && variantKey(s) === variantKey(doc))
  return own ?? same.find((s) => !isBase(s)) ?? (withBases ? same.find(isBase) : undefined)
}

/** Findings between two document sets, most severe first, then by document and location. Bases
 * (files under `bases/`, served only through overlays) are compared only as what a jurisdiction's
 * new document is measured against: their changes show on each site's resolved document. */
export function diffDocumentSets(before: DocumentSnapshot[], after: DocumentSnapshot[]): DiffFinding[] {
  const key = (d: DocumentSnapshot) => documentIdentity({ kind: d.kind, jurisdiction: d.jurisdiction, id: d.id, variant: variantKey(d) })
  const old = new Map(before.filter((d) => !isBase(d)).map((d) => [key(d), d]))
  const next = new Map(after.filter((d) => !isBase(d)).map((d) => [key(d), d]))
  const findings: DiffFinding[] = []
  for (const [k, doc] of next) {
    const previous = old.get(k)
    const counterpart = previous ? undefined : sharedCounterpart(doc, before, true)
    if (previous) findings.push(...diffDocument(previous, doc))
    else if (counterpart) findings.push(...jurisdictionVersionFindings(doc, counterpart, true))
    else {
      const document = refOf(doc)
      const impact = classifyWords(doc.id) ?? 'cosmetic'
      findings.push({
        fingerprint: fingerprintOf(impact, k, '/', 'document.added'),
        rule: 'document.added',
        impact,
        severity: severityOf(impact, 'tightened'),
        direction: 'tightened',
        message: `${document.label}: new document (${doc.file})`,
        document,
        location: '/',
      })
    }
  }
  for (const [k, doc] of old) {
    if (next.has(k)) continue
    const counterpart = sharedCounterpart(doc, after, false)
    if (counterpart) {
      findings.push(...jurisdictionVersionFindings(doc, counterpart, false))
      continue
    }
    const document = refOf(doc)
    const impact = classifyWords(doc.id) ?? (doc.kind === 'jurisdiction' ? 'consent-legal' : 'cosmetic')
    findings.push({
      fingerprint: fingerprintOf(impact, k, '/', 'document.removed'),
      rule: 'document.removed',
      impact,
      severity: COMPLIANCE_CLASSES.has(impact) || doc.kind !== 'translations' ? severityOf(impact, 'loosened') : 'note',
      direction: 'loosened',
      message: `${document.label}: document deleted (${doc.file})`,
      document,
      location: '/',
    })
  }
  return findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.document.label.localeCompare(b.document.label) ||
      a.location.localeCompare(b.location) ||
      a.rule.localeCompare(b.rule),
  )
}

/**
 * The one finding for a side that does not parse: an error, never "no semantic changes" and never
 * "document deleted", because nothing can be compared until it parses again.
 */
export function unparseableFinding(file: string, problem: string, previous?: DocumentSnapshot): DiffFinding {
  const document: DocumentRef = previous ? refOf(previous) : { kind: 'unknown', id: file, jurisdiction: '', variant: '', file, label: file }
  const identity = previous ? documentIdentity(document) : `file:${file}`
  const impact = previous ? (classifyWords(previous.id) ?? 'cosmetic') : 'cosmetic'
  return {
    fingerprint: fingerprintOf(impact, identity, '/', 'document.unparseable'),
    rule: 'document.unparseable',
    impact,
    severity: 'error',
    direction: 'neutral',
    message: `${document.label}: the draft does not parse (${problem}); nothing can be compared until it does`,
    document,
    location: '/',
  }
}
