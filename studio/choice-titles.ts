/**
 * Names for the choices of a generated form. rjsf labels each branch of an `anyOf`/`oneOf` by its
 * `title` and falls back to "Option 1", "Option 2"… — and the kind schemas (emitted from zod) give
 * their branches no titles, so an operator choosing between a text key and a text with values, or
 * between two actions, saw only numbers. This gives every untitled branch a title derived from the
 * branch itself, before the schema reaches rjsf: a constant's value (an action's name), the
 * referenced definition's title or name, the branch's own description, else what kind of value it
 * takes. Titles are annotations: validation, completion and the stored documents are unchanged.
 * Names within one choice stay distinct ("Text", "Text (2)"), so no two options read the same.
 */

type Json = Record<string, unknown>

const MAX_TITLE = 60

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value)

/** `actionBinding` → "Action binding", `text_ref` → "Text ref". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** The first clause of a description, short enough for a drop-down. */
function clause(description: string): string {
  const first = description.split(/(?<=[.:;])\s|[:;(]/)[0].replace(/[.\s]+$/, '').trim()
  return first.length <= MAX_TITLE ? first : `${first.slice(0, MAX_TITLE - 1).trimEnd()}…`
}

const TYPE_TITLES: Record<string, string> = {
  string: 'Text',
  number: 'Number',
  integer: 'Whole number',
  boolean: 'Yes / no',
  array: 'List',
  null: 'None',
  object: 'Group of fields',
}

function typeTitle(branch: Json): string | undefined {
  if (Array.isArray(branch.enum)) return clause(branch.enum.map(String).join(', '))
  const type = branch.type
  if (Array.isArray(type)) return type.length === 3 && ['string', 'number', 'boolean'].every((t) => type.includes(t)) ? 'Plain value' : type.map((t) => TYPE_TITLES[String(t)] ?? String(t)).join(' or ')
  if (type === 'object') {
    const required = Array.isArray(branch.required) ? branch.required.map(String) : []
    if (required.length === 1 && required[0] === '$') return 'Computed value'
    return required.length > 0 ? `Fields: ${required.join(', ')}` : TYPE_TITLES.object
  }
  return typeof type === 'string' ? TYPE_TITLES[type] : undefined
}

/** The constant an object branch is told apart by (`{"type": {"const": "link"}}`), if it has one. */
function discriminator(branch: Json): string | undefined {
  if (!isObject(branch.properties)) return undefined
  for (const property of Object.values(branch.properties)) {
    if (!isObject(property)) continue
    if ('const' in property) return String(property.const)
    if (Array.isArray(property.enum) && property.enum.length === 1) return String(property.enum[0])
  }
  return undefined
}

/** `#/$defs/actionBinding` inside `root`. */
function resolve(root: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined
  let node: unknown = root
  for (const part of ref.slice(2).split('/')) node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  return isObject(node) ? node : undefined
}

/** The title one branch of a choice gets (its own title when it has one). */
export function choiceTitle(branch: unknown, root: Json): string {
  if (!isObject(branch)) return 'Value'
  if (typeof branch.title === 'string' && branch.title) return branch.title
  if ('const' in branch) return String(branch.const)
  if (typeof branch.$ref === 'string') {
    const target = resolve(root, branch.$ref)
    if (target && typeof target.title === 'string' && target.title) return target.title
    return humanize(branch.$ref.split('/').pop() ?? 'Value')
  }
  const tag = discriminator(branch)
  if (tag) return tag
  if (typeof branch.description === 'string' && branch.description) return clause(branch.description)
  return typeTitle(branch) ?? 'Value'
}

function titledChoice(branches: unknown[], root: Json): unknown[] {
  const used = new Map<string, number>()
  return branches.map((branch) => {
    if (!isObject(branch)) return branch
    const base = choiceTitle(branch, root)
    const seen = (used.get(base) ?? 0) + 1
    used.set(base, seen)
    const title = seen === 1 ? base : `${base} (${seen})`
    return branch.title === title ? branch : { ...branch, title }
  })
}

/** A copy of `schema` where every `anyOf`/`oneOf` branch, at any depth, has a title. */
export function withChoiceTitles<T>(schema: T): T {
  if (!isObject(schema)) return schema
  const root = schema
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit)
    if (!isObject(node)) return node
    const next: Json = {}
    for (const [key, value] of Object.entries(node)) {
      // `const` and `enum` hold values, not schemas; `properties` maps names to schemas
      if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples') next[key] = value
      else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) next[key] = titledChoice(value.map(visit), root)
      else next[key] = visit(value)
    }
    return next
  }
  return visit(schema) as T
}
