/**
 * schema-lint: every document against its kind's schema (with expressions parsed and type-checked
 * by the loader), then the cross-references no single schema can see: action names and params
 * against the registry, popup ids, routes, menus, flows, and i18n keys in every shipped locale.
 *
 * Findings print as `file:json-pointer: message`, the same shape the server uses when it refuses
 * to start, so an operator learns one format.
 */
import Ajv, { type ValidateFunction } from 'ajv'
import { NODE_KINDS } from '../../kernel/documents/kinds'
import { loadDocuments, type DocumentRecord } from './documents/loader'
import { errorTextFindings } from './rules/error-texts'
import { translationFindings } from './rules/translations'
import { serverOnlyFindings } from './rules/server-only'
import { promotionFindings } from './rules/promotions'
import { gameFindings } from './rules/games'
import { codeChannelFindings } from './rules/code-channels'
import { repeatedHeadingFindings } from './rules/repeated-heading'
import { checkRedirects, servesPath, type RedirectRule } from '../../kernel/core/routes'
import { routeMatches } from '../../kernel/core/route-match'
import { actionDefinitions } from '../../kernel/actions/index'
import type { Finding } from './finding'

export type { Finding } from './finding'

export interface ActionDefinition {
  description?: string
  params: object
}

export interface LintOptions {
  /** name → params schema; defaults to the engine's action catalogue. */
  actions?: Record<string, ActionDefinition>
}

/** Keys whose value is a Text (i18n key or {key, values, count}). */
const TEXT_KEYS = new Set(['text', 'label', 'title', 'body', 'empty', 'badge', 'alt', 'notice', 'subtitle', 'submitLabel'])
/** Subtrees that are data, not document structure. */
const OPAQUE_KEYS = new Set(['schema', 'uiSchema', 'resources', 'config', 'regulatory', 'signup', 'nickname', 'countryCheck'])

const isBinding = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value) && '$' in value

/** Every action (built-ins, each domain's and the form actions) from their one source, the
 * definitions data module: the lint core never loads the browser action runtime. */
function defaultActions(): Record<string, ActionDefinition> {
  return actionDefinitions
}

export async function lintDocuments(root: string, options: LintOptions = {}): Promise<Finding[]> {
  const { records, problems } = loadDocuments(root)
  const findings: Finding[] = problems.map((p) => ({ ...p, severity: 'error', rule: 'schema' }))
  findings.push(...(await lintRecords(records, options)))
  return findings
}

export async function lintRecords(records: DocumentRecord[], options: LintOptions = {}): Promise<Finding[]> {
  const findings: Finding[] = []
  const actions = options.actions ?? defaultActions()
  const ajv = new Ajv({ allErrors: false, strict: false })
  const paramValidators = new Map<string, ValidateFunction>()

  const ids = (kind: string) => new Set(records.filter((r) => r.kind === kind).map((r) => r.id))
  const popups = ids('popup')
  const menus = ids('menu')
  const flows = ids('flow')
  const routes = records.filter((r) => r.kind === 'screen').map((r) => String(r.source.route))
  const redirectsOf = (record: DocumentRecord) => (record.source.redirects ?? []) as RedirectRule[]
  const redirects = records.filter((r) => r.kind === 'redirects').flatMap(redirectsOf)
  const translations = new Map<string, Set<string>>()
  for (const record of records.filter((r) => r.kind === 'translations')) {
    const locale = (record.source.locale as string | undefined) ?? record.id
    const keys = translations.get(locale) ?? new Set<string>()
    for (const key of Object.keys(record.source.resources as object)) keys.add(key)
    translations.set(locale, keys)
  }

  const add = (record: DocumentRecord, pointer: string, rule: string, message: string, severity: 'error' | 'warning' = 'error') =>
    findings.push({ file: record.file, pointer, message, rule, severity })

  const checkKey = (record: DocumentRecord, pointer: string, key: string) => {
    for (const [locale, keys] of translations) {
      if (keys.has(key) || keys.has(`${key}_other`)) continue
      add(record, pointer, 'i18n', `text key ${JSON.stringify(key)} is missing in locale ${locale}`)
    }
  }

  const checkRoute = (record: DocumentRecord, pointer: string, to: unknown) => {
    if (typeof to !== 'string' || to.startsWith('https://')) return
    // The root is the shell's own route: it redirects to the last visited product's lobby.
    if (to.split(/[?#]/)[0] === '/') return
    // a redirect (the spec's catch-alls, old links) serves a path as well as a screen does
    if (!routes.some((route) => routeMatches(route, to)) && !servesPath(to, { screens: routes, redirects }))
      add(record, pointer, 'route', `no screen serves the route ${JSON.stringify(to)}`)
  }

  const checkAction = (record: DocumentRecord, pointer: string, invocation: Record<string, unknown>) => {
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
    let validate = paramValidators.get(name)
    if (!validate) {
      validate = ajv.compile({ ...schema, required: [] })
      paramValidators.set(name, validate)
    }
    if (!validate(literal)) {
      const error = validate.errors?.[0]
      const where = error?.instancePath ?? ''
      const detail =
        error?.keyword === 'additionalProperties' ? `unknown parameter ${JSON.stringify(error.params.additionalProperty)}` : error?.message
      add(record, `${pointer}/with${where}`, 'action', `${name}: ${detail}`)
    }
    if (name === 'popup.open' && typeof params.id === 'string' && !popups.has(params.id))
      add(record, `${pointer}/with/id`, 'popup', `no popup document has the id ${JSON.stringify(params.id)}`)
    if (name === 'nav.go') checkRoute(record, `${pointer}/with/to`, params.to)
    if (name === 'notify' && typeof params.message === 'string') checkKey(record, `${pointer}/with/message`, params.message)
  }

  const visit = (record: DocumentRecord, value: unknown, pointer: string, key: string | null) => {
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
    if (typeof object.type === 'string' && !('do' in object) && pointer.match(/\/(body|children|items|template)(\/|$)/)) {
      if (!(NODE_KINDS as readonly string[]).includes(object.type))
        add(record, `${pointer}/type`, 'node', `unknown node kind ${JSON.stringify(object.type)}: clients skip it`, 'warning')
      if (object.type === 'menu' && typeof object.menu === 'string' && !menus.has(object.menu))
        add(record, `${pointer}/menu`, 'menu', `no menu document has the id ${JSON.stringify(object.menu)}`)
      if (object.type === 'form' && typeof object.flow === 'string' && !flows.has(object.flow))
        add(record, `${pointer}/flow`, 'flow', `no flow document has the id ${JSON.stringify(object.flow)}`)
      if ((object.type === 'link' || object.type === 'card') && typeof object.to === 'string') checkRoute(record, `${pointer}/to`, object.to)
    }
    if (record.kind === 'jurisdiction' && key === 'afterLogin') return
    for (const [k, v] of Object.entries(object)) {
      if (OPAQUE_KEYS.has(k)) continue
      visit(record, v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, k)
    }
  }

  for (const record of records) {
    if (record.kind === 'translations' || record.kind === 'remote-config') continue
    if (record.kind === 'promotion') continue // its texts are inline copy, not i18n keys (rules/promotions.ts)
    visit(record, record.source, '', null)
    if (record.kind === 'menu' || record.kind === 'footer')
      (record.source.items as Record<string, unknown>[]).forEach((item, i) => {
        if (typeof item.to === 'string') checkRoute(record, `/items/${i}/to`, item.to)
      })
    if (record.kind === 'redirects')
      for (const problem of checkRedirects({ screens: routes, redirects: redirectsOf(record) }))
        add(record, `/redirects/${problem.index}/${problem.field}`, 'redirect', problem.message, problem.severity)
    if (record.kind === 'header') {
      const header = record.source as { items?: { to?: unknown }[]; profile?: { links?: { to?: unknown }[] } }
      ;(header.items ?? []).forEach((item, i) => checkRoute(record, `/items/${i}/to`, item.to))
      ;(header.profile?.links ?? []).forEach((link, i) => checkRoute(record, `/profile/links/${i}/to`, link.to))
    }
    if (record.kind === 'jurisdiction')
      ((record.source.afterLogin ?? []) as { popup: string }[]).forEach((rule, i) => {
        if (!popups.has(rule.popup)) add(record, `/afterLogin/${i}/popup`, 'popup', `no popup document has the id ${JSON.stringify(rule.popup)}`)
      })
  }

  // Every shipped locale has the same keys (a key in one locale only is a missing translation).
  const locales = [...translations.keys()]
  const all = new Set(locales.flatMap((l) => [...translations.get(l)!]))
  const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')
  for (const locale of locales) {
    const keys = translations.get(locale)!
    const bases = new Set([...keys].map(base))
    for (const key of all) {
      if (keys.has(key) || bases.has(base(key))) continue
      const record = records.find((r) => r.kind === 'translations' && ((r.source.locale as string | undefined) ?? r.id) !== locale && key in (r.source.resources as object))
      if (record) add(record, `/resources/${key}`, 'i18n', `key ${JSON.stringify(key)} has no ${locale} translation`)
    }
  }
  // declared locales, code and error-catalogue keys, plural forms, placeholders (rules/translations.ts)
  findings.push(...translationFindings(records))
  findings.push(...errorTextFindings(records))
  findings.push(...serverOnlyFindings(records))
  findings.push(...promotionFindings(records))
  findings.push(...gameFindings(records))
  findings.push(...codeChannelFindings(records), ...repeatedHeadingFindings(records))
  return findings
}
