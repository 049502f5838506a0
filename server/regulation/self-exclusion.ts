/**
 * Self-exclusion (spec §7 `self-exclude/temporary|permanent|timeout`, §3 selfExcludeSettings).
 *
 * It takes effect at once: the punter's state becomes SELF_EXCLUDED and every session of the punter
 * ends, so no open tab keeps playing. While it runs the login is refused with CUSTOMER_SELFEXCLUDED
 * and the exclusion's settings in the payload (the spec's "self-exclude open-profile info passed
 * through"); the first login after it has ended reopens the account. The punter can lengthen an
 * exclusion but never shorten it: a request that would end earlier than the running one is refused
 * (SELF_EXCLUSION_CANNOT_BE_SHORTENED), and a regulator's exclusion cannot be touched at all.
 * The periods and timeout lengths offered are the jurisdiction's (`regulatory.selfExclusion`).
 */
import { accountStatusOf } from '../../kernel/punters/account-statuses'
import type { DataLayer } from '../db/data-layer'
import type { ServerDeps } from '../deps'
import { revokeAllSessions } from '../auth/sessions'
import { findPunterById, type Punter, type PunterProfile } from '../punters/repository'
import { changePunterProfile } from '../punters/lookups'
import { activeRestrictions } from './restrictions'
import { issueOpenProfileToken } from '../credentials/open-token'

export type SelfExcludeSettings = NonNullable<PunterProfile['selfExclude']>

export interface SelfExclusionPolicy {
  /** ISO 8601 periods offered for a temporary exclusion (P30D, P6M, P1Y …). */
  periods: string[]
  /** Day counts offered for a timeout. */
  timeoutDays: number[]
  permanent: boolean
}

export const DEFAULT_SELF_EXCLUSION: SelfExclusionPolicy = { periods: ['P6M', 'P1Y', 'P2Y', 'P5Y'], timeoutDays: [1, 7, 30], permanent: true }

const numbers = (value: unknown) => (Array.isArray(value) ? value.filter((n): n is number => Number.isInteger(n) && n > 0) : [])

/**
 * The jurisdiction's `regulatory.selfExclusion` as periods: `days`, `months`, `years` (the shapes
 * the regulatory lint checks: Italy 30/60/90 days, Curaçao 1/3/5 years …), `timeoutDays` (or
 * Denmark's `temporaryHours`), and `permanent` (also `indefinite`, `final`). Defaults when absent.
 */
export function selfExclusionPolicy(jurisdiction: { regulatory?: Record<string, unknown> } | undefined): SelfExclusionPolicy {
  const given = jurisdiction?.regulatory?.selfExclusion as Record<string, unknown> | undefined
  if (!given || typeof given !== 'object') return DEFAULT_SELF_EXCLUSION
  const periods = [...numbers(given.days).map((n) => `P${n}D`), ...numbers(given.months).map((n) => `P${n}M`), ...numbers(given.years).map((n) => `P${n}Y`)]
  const hours = typeof given.temporaryHours === 'number' && given.temporaryHours >= 24 ? [Math.floor(given.temporaryHours / 24)] : []
  const timeoutDays = numbers(given.timeoutDays).length > 0 ? numbers(given.timeoutDays) : hours
  return {
    periods: periods.length > 0 ? periods : DEFAULT_SELF_EXCLUSION.periods,
    timeoutDays: timeoutDays.length > 0 ? timeoutDays : DEFAULT_SELF_EXCLUSION.timeoutDays,
    permanent: given.permanent === true || given.indefinite === true || given.final === true,
  }
}

const DAY = 86_400_000

/** The end of an ISO 8601 period of whole days, months or years (P30D, P6M, P1Y) from `now`. */
export function periodEnd(period: string, now: number): number | undefined {
  const match = /^P(\d{1,3})([DMY])$/.exec(period)
  if (!match) return undefined
  const count = Number(match[1])
  if (match[2] === 'D') return now + count * DAY
  const date = new Date(now)
  date.setUTCMonth(date.getUTCMonth() + (match[2] === 'Y' ? 12 * count : count))
  return date.getTime()
}

export type SelfExclusionRequest = { kind: 'temporary'; period: string } | { kind: 'permanent' } | { kind: 'timeout'; daysCount: number }

export type SelfExclusionOutcome = { ok: true; settings: SelfExcludeSettings } | { ok: false; httpStatus: number; code: string; payload?: unknown }

function requestedSettings(request: SelfExclusionRequest, policy: SelfExclusionPolicy, now: number): SelfExclusionOutcome {
  const notOffered = (field: string, allowed: unknown[]): SelfExclusionOutcome => ({ ok: false, httpStatus: 400, code: 'SELF_EXCLUSION_NOT_OFFERED', payload: { field, allowed } })
  if (request.kind === 'permanent') {
    if (!policy.permanent) return notOffered('permanent', [])
    return { ok: true, settings: { endDate: null, permanent: true, selfExcludedByRegulator: false, timeout: null } }
  }
  if (request.kind === 'timeout') {
    if (!policy.timeoutDays.includes(request.daysCount)) return notOffered('daysCount', policy.timeoutDays)
    return { ok: true, settings: { endDate: new Date(now + request.daysCount * DAY).toISOString(), permanent: false, selfExcludedByRegulator: false, timeout: request.daysCount } }
  }
  const end = policy.periods.includes(request.period) ? periodEnd(request.period, now) : undefined
  if (end === undefined) return notOffered('period', policy.periods)
  return { ok: true, settings: { endDate: new Date(end).toISOString(), permanent: false, selfExcludedByRegulator: false, timeout: null } }
}

/** Would `next` end before the exclusion already running? (Permanent and regulator never end.) */
function shortens(punter: Punter, next: SelfExcludeSettings, now: number): boolean {
  const running = activeRestrictions(punter, now).find((r) => r.type.startsWith('SELF_EXCLUSION_'))
  if (!running) return false
  if (running.type === 'SELF_EXCLUSION_REGULATOR') return true
  if (running.endDate === null) return !next.permanent
  if (next.permanent || next.endDate === null) return false
  return Date.parse(next.endDate) < Date.parse(running.endDate)
}

/**
 * Excludes the punter (all sessions end at once), or says why not.
 *
 * The exclusion is written first, checked against the row as it is inside the write (two requests
 * on two instances cannot together shorten a running exclusion); the sessions end after it. A
 * failure between the two leaves the exclusion in force (the login refuses it) and answers 503:
 * the punter's retry, a lengthening of the same exclusion, ends the sessions.
 */
export async function selfExclude(deps: Pick<ServerDeps, 'db' | 'data' | 'log' | 'now'>, punterId: number, request: SelfExclusionRequest, policy: SelfExclusionPolicy): Promise<SelfExclusionOutcome> {
  const now = deps.now()
  const punter = await findPunterById(deps.data, punterId)
  if (!punter) return { ok: false, httpStatus: 401, code: 'UNAUTHORIZED' }
  const wanted = requestedSettings(request, policy, now)
  if (!wanted.ok) return wanted
  const refused: { running?: SelfExcludeSettings | null } = {}
  const saved = await changePunterProfile(deps.data, punterId, now, ({ profile, state }) => {
    if (shortens({ ...punter, profile, state }, wanted.settings, now)) {
      refused.running = profile.selfExclude ?? null
      return undefined
    }
    return { profile: { ...profile, selfExclude: wanted.settings }, columns: { state: 'SELF_EXCLUDED' } }
  })
  if ('running' in refused) {
    deps.log.info('regulation.self-exclusion.refused', { punterId, kind: request.kind, outcome: 'SELF_EXCLUSION_CANNOT_BE_SHORTENED' })
    return { ok: false, httpStatus: 409, code: 'SELF_EXCLUSION_CANNOT_BE_SHORTENED', payload: { selfExcludeSettings: refused.running } }
  }
  if (!saved) return { ok: false, httpStatus: 401, code: 'UNAUTHORIZED' }
  const ended = await revokeAllSessions(deps.data, punterId, 'self-excluded', now)
  deps.log.info('regulation.self-exclusion.started', { punterId, kind: request.kind, endDate: wanted.settings.endDate, sessions: ended })
  return wanted
}

/**
 * At login (after the right password): the refusal while an exclusion runs, with its settings
 * passed through. An exclusion that has ended does not reopen the account by itself: the login is
 * refused once more with `canOpen: true` and a single-use open-profile token (spec §8 "self-exclude
 * open-profile info passed through"), and the punter reopens it with `POST /punter/open-profile`
 * — a positive act of the punter, as regulators ask after a self-exclusion (docs/adr/0046-responsible-gambling.md).
 */
export async function selfExclusionAtLogin(
  data: DataLayer,
  punter: Punter,
  now: number,
): Promise<{ code: 'CUSTOMER_SELFEXCLUDED'; payload: { selfExcludeSettings: SelfExcludeSettings; canOpen?: true; openToken?: string } } | undefined> {
  const settings = punter.profile.selfExclude ?? { endDate: null, permanent: true, selfExcludedByRegulator: false, timeout: null }
  const running = activeRestrictions(punter, now).find((r) => r.type.startsWith('SELF_EXCLUSION_'))
  if (running) return { code: 'CUSTOMER_SELFEXCLUDED', payload: { selfExcludeSettings: settings } }
  // every self-exclusion status (kernel/punters/account-statuses.ts); without its dates, or
  // permanent, there is nothing the punter can reopen
  if (accountStatusOf(punter.state)?.group !== 'self-exclusion') return undefined
  if (!punter.profile.selfExclude || punter.state === 'PERMANENT_SELF_EXCLUSION') return { code: 'CUSTOMER_SELFEXCLUDED', payload: { selfExcludeSettings: settings } }
  return { code: 'CUSTOMER_SELFEXCLUDED', payload: { selfExcludeSettings: settings, canOpen: true, openToken: await issueOpenProfileToken(data, punter.id, now) } }
}
