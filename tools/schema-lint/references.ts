/**
 * schema-lint's cross-references (run by tools/schema-lint/lint.ts): i18n keys in every shipped
 * locale, routes some screen or redirect serves, action names and literal params against the
 * action catalogue, popup/menu/flow ids, and the walk over a document that finds them. Each check
 * is made by a named factory over the record index; createReferenceChecks puts them together.
 */
import Ajv, { type ValidateFunction } from 'ajv'
import { NODE_KINDS } from '../../kernel/documents/kinds'
import { servesPath } from '../../kernel/core/routes'
import { routeMatches } from '../../kernel/core/route-match'
import type { DocumentRecord } from './documents/loader'
import type { RecordIndex } from './record-index'

export interface ActionDefinition {
  description?: string
  params: object
}

export type AddFinding = (record: DocumentRecord, pointer: string, rule: string, message: string, severity?: 'error' | 'warning') => void

type CheckKey = (record: DocumentRecord, pointer: string, key: string) => void
type CheckRoute = (record: DocumentRecord, pointer: string, to: unknown) => void
type CheckAction = (record: DocumentRecord, pointer: string, invocation: Record<string, unknown>) => void
type Visit = (record: DocumentRecord, value: unknown, pointer: string, key: string | null) => void

export interface ReferenceChecks {
  checkKey: CheckKey
  checkRoute: CheckRoute
  checkAction: CheckAction
  /** Walks a document's value: texts, actions and nodes wherever they sit. */
  visit: Visit
}

/** Keys whose value is a Text (i18n key or {key, values, count}). */
const TEXT_KEYS = new Set(['text', 'label', 'title', 'body', 'empty', 'badge', 'alt', 'notice', 'subtitle', 'submitLabel'])
/** Subtrees that are data, not document structure. */
const OPAQUE_KEYS = new Set(['schema', 'uiSchema', 'resources', 'config', 'regulatory', 'signup', 'nickname', 'countryCheck'])

const isBinding = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value) && '$' in value

/** A text key must be in every shipped locale (a plural key counts by its `_other` form). */
export function keyCheck(translations: RecordIndex['translations'], add: AddFinding): CheckKey {
  return (record, pointer, key) => {
    for (const [locale, keys] of translations) {
      if (keys.has(key) || keys.has(`${key}_other`)) continue
      add(record, pointer, 'i18n', `text key ${JSON.stringify(key)} is missing in locale ${locale}`)
    }
  }
}

/** An in-site link must be served by a screen or a redirect; external links and the root are not checked. */
export function routeCheck({ routes, redirects }: Pick<RecordIndex, 'routes' | 'redirects'>, add: AddFinding): CheckRoute {
  return (record, pointer, to) => {
    if (typeof to !== 'string' || to.startsWith('https://')) return
    // The root is the shell's own route: it redirects to the last visited product's lobby.
    if (to.split(/[?#]/)[0] === '/') return
    // a redirect (the spec's catch-alls, old links) serves a path as well as a screen does
    if (!routes.some((route) => routeMatches(route, to)) && !servesPath(to, { screens: routes, redirects }))
      add(record, pointer, 'route', `no screen serves the route ${JSON.stringify(to)}`)
  }
}

/** An action must be in the catalogue, its literal params must meet its schema, and the ids, routes and keys it names must exist. */
export function actionCheck(actions: Record<string, ActionDefinition>, popups: Set<string>, add: AddFinding, checkRoute: CheckRoute, checkKey: CheckKey): CheckAction {
  const ajv = new Ajv({ allErrors: false, strict: false })
  const paramValidators = new Map<string, ValidateFunction>()
  const validatorOf = (name: string, schema: object) => {
    let validate = paramValidators.get(name)
    if (!validate) {
      validate = ajv.compile({ ...schema, required: [] })
      paramValidators.set(name, validate)
    }
    return validate
  }
  return (record, pointer, invocation) => {
    const name = String(invocation.do)
    // Own keys only: an action named "constructor" is unknown, not Object's constructor.
    const definition = Object.hasOwn(actions, name) ? actions[name] : undefined
    if (!definition) {
      if (Object.keys(actions).length > 0) add(record, `${pointer}/do`, 'action', `unknown action ${JSON.stringify(name)}`)
      return
    }
    const params = (invocation.with ?? {}) as Record<string, unknown>
    // Bindings are checked by type at load time; here only literal values meet the schema.
    const literal = Object.fromEntries(Object.entries(params).filter(([, v]) => !isBinding(v)))
    const schema = definition.params as { required?: string[]; properties?: Record<string, unknown> }
    for (const required of schema.required ?? [])
      if (!(required in params)) add(record, `${pointer}/with`, 'action', `${name} needs the parameter ${JSON.stringify(required)}`)
    const validate = validatorOf(name, schema)
    if (!validate(literal)) {
      const error = validate.errors?.[0]
      const where = error?.instancePath ?? ''
      const detail = error?.keyword === 'additionalProperties' ? `unknown parameter ${JSON.stringify(error.params.additionalProperty)}` : error?.message
      add(record, `${pointer}/with${where}`, 'action', `${name}: ${detail}`)
    }
    if (name === 'popup.open' && typeof params.id === 'string' && !popups.has(params.id))
      add(record, `${pointer}/with/id`, 'popup', `no popup document has the id ${JSON.stringify(params.id)}`)
    if (name === 'nav.go') checkRoute(record, `${pointer}/with/to`, params.to)
    if (name === 'notify' && typeof params.message === 'string') checkKey(record, `${pointer}/with/message`, params.message)
  }
}

/** A node under body/children/items/template: its kind must be known (a warning: clients skip it), its menu, flow and link must exist. */
function checkNode(index: Pick<RecordIndex, 'menus' | 'flows'>, add: AddFinding, checkRoute: CheckRoute, record: DocumentRecord, pointer: string, node: Record<string, unknown>) {
  if (!(NODE_KINDS as readonly string[]).includes(node.type as string))
    add(record, `${pointer}/type`, 'node', `unknown node kind ${JSON.stringify(node.type)}: clients skip it`, 'warning')
  if (node.type === 'menu' && typeof node.menu === 'string' && !index.menus.has(node.menu))
    add(record, `${pointer}/menu`, 'menu', `no menu document has the id ${JSON.stringify(node.menu)}`)
  if (node.type === 'form' && typeof node.flow === 'string' && !index.flows.has(node.flow))
    add(record, `${pointer}/flow`, 'flow', `no flow document has the id ${JSON.stringify(node.flow)}`)
  if ((node.type === 'link' || node.type === 'card') && typeof node.to === 'string') checkRoute(record, `${pointer}/to`, node.to)
}

/** The walk over a document: texts by their key, actions by `do`, nodes by `type` where a node sits; data subtrees and bindings are skipped. */
export function documentWalk(index: Pick<RecordIndex, 'menus' | 'flows'>, add: AddFinding, { checkKey, checkRoute, checkAction }: Omit<ReferenceChecks, 'visit'>): Visit {
  const visit: Visit = (record, value, pointer, key) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(record, item, `${pointer}/${i}`, key))
      return
    }
    if (value === null || typeof value !== 'object') {
      if (key !== null && TEXT_KEYS.has(key) && typeof value === 'string') checkKey(record, pointer, value)
      return
    }
    const object = value as Record<string, unknown>
    if (isBinding(object)) return
    if (key !== null && TEXT_KEYS.has(key) && typeof object.key === 'string') {
      checkKey(record, `${pointer}/key`, object.key)
      return
    }
    if (typeof object.do === 'string') checkAction(record, pointer, object)
    if (typeof object.type === 'string' && !('do' in object) && pointer.match(/\/(body|children|items|template)(\/|$)/)) checkNode(index, add, checkRoute, record, pointer, object)
    if (record.kind === 'jurisdiction' && key === 'afterLogin') return
    for (const [k, v] of Object.entries(object)) {
      if (OPAQUE_KEYS.has(k)) continue
      visit(record, v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, k)
    }
  }
  return visit
}

export function createReferenceChecks(index: RecordIndex, actions: Record<string, ActionDefinition>, add: AddFinding): ReferenceChecks {
  const checkKey = keyCheck(index.translations, add)
  const checkRoute = routeCheck(index, add)
  const checkAction = actionCheck(actions, index.popups, add, checkRoute, checkKey)
  return { checkKey, checkRoute, checkAction, visit: documentWalk(index, add, { checkKey, checkRoute, checkAction }) }
}
