/**
 * Which paths the site serves (spec §2): screen routes, plus the redirects document's rules (the
 * spec's "(*)" catch-alls, old links such as /casino, /changepassword or *.htm, affiliate links).
 *
 * One pure resolver, shared by the server (the HTML answer's 200/404), the browser shell (where a
 * punter lands) and schema-lint (no loops, no dead targets), so the three can never disagree.
 * A resolution walks the whole chain at once and navigates once, so a punter never bounces
 * between redirects; the walk is bounded, and lint refuses static loops.
 */
import type { FromSchema } from 'json-schema-to-ts'
import type { redirectsSchema } from '../documents/kinds'
import { pathSegments, routeMatches } from './route-match'

export type RedirectsDocument = FromSchema<typeof redirectsSchema>
export type RedirectRule = RedirectsDocument['redirects'][number]

/** The most redirects one resolution may pass through; anything longer lands on the root. */
export const MAX_REDIRECT_HOPS = 8

/** Stored keys a redirect may fill (spec §9 "referer id"), and the storage key each lives under. */
export const REMEMBERED_STORAGE_KEYS = { refererId: 'parlay.refererId' } as const
const REMEMBERED_VALUE = /^[A-Za-z0-9_-]{1,64}$/

const segmentsOf = pathSegments

/** `/casino/` and `/casino?x` are `/casino`; the root stays `/`. */
export function normalisePath(path: string): string {
  const parts = segmentsOf(path)
  return parts.length === 0 ? '/' : `/${parts.join('/')}`
}

interface RuleMatch {
  rule: RedirectRule
  /** What follows `from` (`/abc` for /affiliate-link/abc), or the path without its ending. */
  rest: string
}

function matchRule(rule: RedirectRule, path: string): RuleMatch | null {
  if (rule.from !== undefined) {
    const from = normalisePath(rule.from)
    if (path === from) return { rule, rest: '' }
    if (rule.trailing && from !== '/' && path.startsWith(`${from}/`)) return { rule, rest: path.slice(from.length) }
    return null
  }
  if (rule.ending !== undefined && path.length > rule.ending.length + 1 && path.endsWith(rule.ending))
    return { rule, rest: normalisePath(path.slice(0, -rule.ending.length)) }
  return null
}

/** The rule for a path: an exact `from` beats a catch-all, a longer catch-all beats a shorter
 * one, and an `ending` rule (*.htm) comes last. */
export function findRedirect(path: string, rules: readonly RedirectRule[]): RuleMatch | null {
  const matches = rules.map((rule) => matchRule(rule, path)).filter((m): m is RuleMatch => m !== null)
  const rank = (m: RuleMatch) => (m.rule.from === undefined ? -1 : m.rest === '' ? 10_000 : normalisePath(m.rule.from).length)
  return matches.sort((x, y) => rank(y) - rank(x))[0] ?? null
}

export interface RouteTable {
  /** Screen route patterns (`/casino/lobby`, `/info/:page`). */
  screens: readonly string[]
  redirects: readonly RedirectRule[]
  /** Remote config, for rules whose target is a link kept there (`toRemoteConfig`). */
  remoteConfig?: Record<string, unknown>
}

export type Resolution =
  | { kind: 'screen'; path: string; query: string; remember: Remembered[] }
  | { kind: 'root'; query: string; remember: Remembered[] }
  | { kind: 'external'; url: string; remember: Remembered[] }
  | { kind: 'unknown' }

export interface Remembered {
  key: keyof typeof REMEMBERED_STORAGE_KEYS
  value: string
}

const isScreen = (path: string, table: RouteTable) => table.screens.some((route) => routeMatches(route, path))
const isInternalPath = (value: unknown): value is string => typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !/[\s\\]/.test(value)
const isHttps = (value: unknown): value is string => typeof value === 'string' && /^https:\/\/[^\s]+$/.test(value)

function splitTarget(target: string): { path: string; query: string } {
  const [beforeHash] = target.split('#')
  const at = beforeHash.indexOf('?')
  return at < 0 ? { path: beforeHash, query: '' } : { path: beforeHash.slice(0, at), query: beforeHash.slice(at + 1) }
}

/** Query strings travel with the punter: the target's own parameters, then the visited URL's. */
export function mergeQuery(first: string, second: string): string {
  const merged = new URLSearchParams(first)
  for (const [key, value] of new URLSearchParams(second)) if (!merged.has(key)) merged.append(key, value)
  return merged.toString()
}

function rememberedBy(match: RuleMatch, query: URLSearchParams): Remembered[] {
  return (match.rule.remember ?? []).flatMap((entry) => {
    const fromQuery = entry.query ? query.get(entry.query) : null
    const fromPath = entry.trailingSegment ? segmentsOf(match.rest)[0] : undefined
    const value = fromQuery ?? fromPath
    return value && REMEMBERED_VALUE.test(value) ? [{ key: entry.key, value }] : []
  })
}

/** The deepest screen at or above `path` but below the rule's `from`: /sport/live/event/42 lands
 * on /sport/live/event, the nearest sensible page. */
function nearestScreen(path: string, from: string, table: RouteTable): string | null {
  const parts = segmentsOf(path)
  const floor = segmentsOf(from).length
  for (let length = parts.length; length > floor; length--) {
    const candidate = `/${parts.slice(0, length).join('/')}`
    if (isScreen(candidate, table)) return candidate
  }
  return null
}

/** A `follow` target (the trailing path or a query parameter), used only if the site serves it. */
function followed(match: RuleMatch, query: URLSearchParams, table: RouteTable, hops: number): string | null {
  const follow = match.rule.follow
  if (!follow) return null
  const candidates = [follow.query ? query.get(follow.query) : null, follow.trailing ? match.rest : null]
  for (const candidate of candidates) {
    if (!isInternalPath(candidate) || candidate === '') continue
    const { path } = splitTarget(candidate)
    const resolution = resolveFrom(normalisePath(path), new URLSearchParams(), table, hops + 1, [])
    if (resolution.kind !== 'unknown') return candidate
  }
  return null
}

function targetOf(match: RuleMatch, path: string, query: URLSearchParams, table: RouteTable, hops: number): string {
  const rule = match.rule
  const next = followed(match, query, table, hops)
  if (next) return next
  if (rule.trailing && rule.from !== undefined && match.rest !== '') {
    const nearest = nearestScreen(path, rule.from, table)
    if (nearest) return nearest
  }
  const configured = rule.toRemoteConfig ? table.remoteConfig?.[rule.toRemoteConfig] : undefined
  if (isHttps(configured) || isInternalPath(configured)) return configured
  return rule.to
}

function resolveFrom(path: string, query: URLSearchParams, table: RouteTable, hops: number, remember: Remembered[]): Resolution {
  const queryText = query.toString()
  if (path === '/') return { kind: 'root', query: queryText, remember }
  if (isScreen(path, table)) return { kind: 'screen', path, query: queryText, remember }
  const match = findRedirect(path, table.redirects)
  if (!match) return { kind: 'unknown' }
  const collected = [...remember, ...rememberedBy(match, query)]
  if (hops >= MAX_REDIRECT_HOPS) return { kind: 'root', query: queryText, remember: collected }
  const target = targetOf(match, path, query, table, hops)
  const keep = match.rule.keepQuery !== false ? queryText : ''
  if (isHttps(target)) {
    const [base, own = ''] = target.split('?')
    const merged = mergeQuery(own, keep)
    return { kind: 'external', url: merged ? `${base}?${merged}` : base, remember: collected }
  }
  const next = splitTarget(target)
  const nextQuery = new URLSearchParams(mergeQuery(next.query, keep))
  const resolution = resolveFrom(normalisePath(next.path), nextQuery, table, hops + 1, collected)
  // a dead target (lint refuses it) still never leaves the punter on a 404: the root it is
  return resolution.kind === 'unknown' ? { kind: 'root', query: nextQuery.toString(), remember: collected } : resolution
}

/** Where a prefix-free path (with its query string) leads: a screen, the root, an external link,
 * or nowhere (404). */
export function resolvePath(pathWithQuery: string, table: RouteTable): Resolution {
  const { path, query } = splitTarget(pathWithQuery)
  return resolveFrom(normalisePath(path), new URLSearchParams(query), table, 0, [])
}

/** Does the site serve this prefix-free path (a screen, the root, or a redirect)? */
export function servesPath(path: string, table: RouteTable): boolean {
  return resolvePath(path, table).kind !== 'unknown'
}

export interface RedirectProblem {
  index: number
  field: 'to' | 'from' | 'ending'
  message: string
  severity: 'error' | 'warning'
}

/** What lint refuses: a rule whose chain comes back to itself, or whose target no screen serves. */
export function checkRedirects(table: RouteTable): RedirectProblem[] {
  const problems: RedirectProblem[] = []
  table.redirects.forEach((rule, index) => {
    if (rule.from !== undefined && !rule.trailing && isScreen(normalisePath(rule.from), table))
      problems.push({ index, field: 'from', message: `never used: a screen serves ${JSON.stringify(rule.from)}`, severity: 'warning' })
    const chain: string[] = [rule.from ?? `*${rule.ending}`]
    const seen = new Set<RedirectRule>([rule])
    let target = rule.to
    for (;;) {
      if (isHttps(target)) return
      const path = normalisePath(splitTarget(target).path)
      chain.push(path)
      if (path === '/' || isScreen(path, table)) return
      const next = findRedirect(path, table.redirects)
      if (!next) {
        problems.push({ index, field: 'to', message: `no screen serves the redirect target ${JSON.stringify(path)} (${chain.join(' → ')})`, severity: 'error' })
        return
      }
      if (seen.has(next.rule)) {
        problems.push({ index, field: 'to', message: `redirect loop: ${chain.join(' → ')}`, severity: 'error' })
        return
      }
      seen.add(next.rule)
      target = next.rule.to
    }
  })
  return problems
}

/** What a screen data source loads to when the server answered 404: with the source's `notFound`
 * flag the page is the 404 page (spec §8 "a failed page data load with 404 and notFound shows the
 * 404 page"); without it the source is empty (null), as for any failed load. */
export const DATA_NOT_FOUND: unique symbol = Symbol('parlay.data-not-found')

/** A screen's data URL with its placeholders filled: `{locale}`, `{query.id}`, `{params.page}`
 * (URL-encoded; empty when missing), so one document serves every event or locale. */
export function fillDataUrl(url: string, values: { locale: string; query: Record<string, string>; params: Record<string, string> }): string {
  return url.replace(/\{(locale|query\.[A-Za-z0-9_]+|params\.[A-Za-z0-9_]+)\}/g, (_whole, name: string) => {
    if (name === 'locale') return encodeURIComponent(values.locale)
    const [scope, key] = name.split('.') as ['query' | 'params', string]
    const source = values[scope]
    return Object.prototype.hasOwnProperty.call(source, key) ? encodeURIComponent(source[key]) : ''
  })
}
