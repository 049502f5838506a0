/**
 * The visitor's experiment identity and groups in a cookie, so the server can render a screen
 * that reads `experiments.` with the groups the browser's first render uses (issue 10: /join's
 * motivation banner server-rendered, no layout shift). Shared by the browser (the experiment
 * client's binding writes it) and the server (server/experiments/visitor-groups.ts reads it).
 *
 * Value: `1:<id>:<name>.<index>/<name>.<index>…` — the format version, the visitor's id (the
 * device id the experiment client buckets a guest by: `parlay.deviceId` in storage) and, per
 * experiment, the group index the page's stores hold (-1: not in it). Only indices, not the group
 * entries: the server rebuilds the entries (group name, params, inTest) from the experiments
 * config with the same code the client uses (./context.ts `experimentEntry`), and the cookie stays
 * small (about 150 bytes for today's four experiments) and holds no free text.
 *
 * Not a secret and not personal data beyond a random id the page already keeps in storage;
 * functional, so outside the consent choice (docs/adr/0074-experiment-groups-cookie.md).
 * A forged value only changes which variant of the page the forger sees. Bad input is ignored
 * whole, never an error: the server then decides afresh.
 */

export const GROUPS_COOKIE = 'parlay_exp'
const VERSION = '1'
/** A year, like the punter hint: the device id in storage does not expire either. */
export const GROUPS_COOKIE_MAX_AGE_SECONDS = 31_536_000
/** Longest value written or read (a browser keeps 4 KB per cookie; this stays far below). */
export const GROUPS_COOKIE_MAX_LENGTH = 1024
/** At most this many experiments in the cookie; more are left out (the server computes them). */
const MAX_GROUPS = 32

/** The visitor id: what the experiment client's device id looks like (and the server mints). */
const ID = /^[A-Za-z0-9]{8,80}$/
/** Experiment names the cookie can carry; another name is left out (the server computes it). */
const NAME = /^[A-Za-z0-9_-]{1,64}$/
const INDEX = /^(?:-1|\d{1,3})$/

export interface VisitorGroups {
  /** The id the experiment client buckets this browser's guest by (its device id). */
  id: string
  /** Group index per experiment name, as the page's stores hold it (-1: not in the experiment). */
  groups: Record<string, number>
}

export const isVisitorId = (value: unknown): value is string => typeof value === 'string' && ID.test(value)

/** The cookie's value; undefined for an id that is not one. Entries past the bounds are left out. */
export function encodeVisitorGroups(value: VisitorGroups): string | undefined {
  if (!isVisitorId(value.id)) return undefined
  let text = `${VERSION}:${value.id}:`
  let count = 0
  for (const [name, index] of Object.entries(value.groups)) {
    if (count >= MAX_GROUPS || !NAME.test(name) || !Number.isInteger(index) || index < -1 || index > 999) continue
    const part = `${count > 0 ? '/' : ''}${name}.${index}`
    if (text.length + part.length > GROUPS_COOKIE_MAX_LENGTH) break
    text += part
    count++
  }
  return text
}

/** The cookie's value read back; undefined for anything but a well-formed value of this version. */
export function decodeVisitorGroups(text: string | undefined): VisitorGroups | undefined {
  if (!text || text.length > GROUPS_COOKIE_MAX_LENGTH) return undefined
  const [version, id, list, ...rest] = text.split(':')
  if (version !== VERSION || rest.length > 0 || list === undefined || !isVisitorId(id)) return undefined
  const groups: Record<string, number> = Object.create(null) as Record<string, number>
  if (list !== '') {
    const parts = list.split('/')
    if (parts.length > MAX_GROUPS) return undefined
    for (const part of parts) {
      const dot = part.lastIndexOf('.')
      const name = part.slice(0, dot)
      const index = part.slice(dot + 1)
      if (dot < 1 || !NAME.test(name) || !INDEX.test(index)) return undefined
      groups[name] = Number(index)
    }
  }
  return { id, groups: { ...groups } }
}

/** The cookie's value in a Cookie header (the last one wins when a header repeats it). */
export function readVisitorGroups(cookieHeader: string | undefined): VisitorGroups | undefined {
  let found: string | undefined
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== GROUPS_COOKIE) continue
    found = part.slice(eq + 1).trim()
  }
  return decodeVisitorGroups(found)
}

/** A `Set-Cookie` / `document.cookie` string for the value: the whole site, first-party only. */
export function visitorGroupsCookie(value: string, secure = false): string {
  return `${GROUPS_COOKIE}=${value}; Path=/; SameSite=Lax; Max-Age=${GROUPS_COOKIE_MAX_AGE_SECONDS}${secure ? '; Secure' : ''}`
}

/** The group index per experiment in an `experiments` store value (entries without one left out). */
export function groupIndices(experiments: Record<string, unknown>): Record<string, number> {
  const indices: Record<string, number> = {}
  for (const [name, entry] of Object.entries(experiments)) {
    const index = (entry as { index?: unknown } | null)?.index
    if (typeof index === 'number' && Number.isInteger(index)) indices[name] = index
  }
  return indices
}
