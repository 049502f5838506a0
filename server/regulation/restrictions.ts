/**
 * Restrictions (spec §4 "Active restrictions", §6 "Restricted punter"): what a punter may no longer
 * do, and why. A punter can hold several restrictions at once (a regulator's exclusion and their own
 * timeout, a suspension and a protection measure); they are listed in ONE fixed priority order and
 * the first decides what the punter sees. Which operations (deposit, bet, game) each restriction
 * takes away is policy: it lives in the jurisdiction document (`regulatory.restrictions`), so an
 * operator changes it through review, not a release. A restriction the document does not mention
 * takes everything away (fail closed).
 *
 * Other parts call `assertAllowed` before a deposit, a bet or a game launch; after the restrictions
 * it applies the account status's own rule (./status-rules.ts).
 */
import type { Request } from 'express'
import type { DataLayer } from '../db/data-layer'
import type { ServerDeps } from '../deps'
import { siteContext } from '../http/site'
import { findPunterById, type Punter } from '../punters/repository'
import { statusRefusal, type StatusRefusal } from './status-rules'

/** The restriction types, in priority order: the first active one decides what the punter sees. */
export const RESTRICTION_PRIORITY = [
  'SELF_EXCLUSION_REGULATOR',
  'SELF_EXCLUSION_PERMANENT',
  'PROTECTION_MEASURE_PERMANENT',
  'SELF_EXCLUSION_END_DATED',
  'SELF_EXCLUSION_TIMEOUT',
  'PROTECTION_MEASURE_END_DATED',
  'SUSPENDED',
  'BLOCKED_ID_UPLOAD',
  'NEED_DOCUMENT',
] as const
export type RestrictionType = (typeof RESTRICTION_PRIORITY)[number]

export const OPERATIONS = ['deposit', 'bet', 'game'] as const
export type Operation = (typeof OPERATIONS)[number]

export interface Restriction {
  type: RestrictionType
  /** ISO time the restriction ends; null: until lifted (permanent, regulator, back office). */
  endDate: string | null
}

/** Self-exclusion restrictions answer CUSTOMER_SELFEXCLUDED (spec §8); the others INCORRECT_PUNTER_STATE. */
export const SELF_EXCLUSION_TYPES: readonly RestrictionType[] = ['SELF_EXCLUSION_REGULATOR', 'SELF_EXCLUSION_PERMANENT', 'SELF_EXCLUSION_END_DATED', 'SELF_EXCLUSION_TIMEOUT']

export interface ProtectionMeasure {
  endDate: string | null
}

const activeUntil = (endDate: string | null | undefined, now: number) => endDate === null || endDate === undefined || Date.parse(endDate) > now

/** The punter's own or the regulator's exclusion, if still running. */
function selfExclusion(punter: Punter, now: number): Restriction | undefined {
  const settings = punter.profile.selfExclude
  if (!settings) return punter.state === 'SELF_EXCLUDED' ? { type: 'SELF_EXCLUSION_PERMANENT', endDate: null } : undefined
  const endDate = settings.permanent ? null : settings.endDate
  if (!settings.permanent && !settings.selfExcludedByRegulator && !settings.endDate) return undefined
  if (!activeUntil(endDate, now)) return undefined
  if (settings.selfExcludedByRegulator) return { type: 'SELF_EXCLUSION_REGULATOR', endDate }
  if (settings.permanent) return { type: 'SELF_EXCLUSION_PERMANENT', endDate: null }
  return { type: settings.timeout !== null && settings.timeout !== undefined ? 'SELF_EXCLUSION_TIMEOUT' : 'SELF_EXCLUSION_END_DATED', endDate }
}

function protectionMeasure(punter: Punter, now: number): Restriction | undefined {
  const measure = (punter.profile as { protectionMeasure?: ProtectionMeasure }).protectionMeasure
  if (punter.state !== 'PLAYER_PROTECTION_MEASURE' && !measure) return undefined
  const endDate = measure?.endDate ?? null
  if (!activeUntil(endDate, now)) return undefined
  return { type: endDate === null ? 'PROTECTION_MEASURE_PERMANENT' : 'PROTECTION_MEASURE_END_DATED', endDate }
}

const STATE_RESTRICTIONS: Record<string, RestrictionType> = { SUSPENDED: 'SUSPENDED', BLOCKED_ID_UPLOAD: 'BLOCKED_ID_UPLOAD', NEED_DOCUMENT: 'NEED_DOCUMENT' }

/** Every active restriction of the punter, in priority order (first = what the punter sees). */
export function activeRestrictions(punter: Punter, now: number): Restriction[] {
  const found = [selfExclusion(punter, now), protectionMeasure(punter, now)].filter((r): r is Restriction => r !== undefined)
  const byState = STATE_RESTRICTIONS[punter.state]
  if (byState) found.push({ type: byState, endDate: null })
  return found.sort((a, b) => RESTRICTION_PRIORITY.indexOf(a.type) - RESTRICTION_PRIORITY.indexOf(b.type))
}

/** The part of a jurisdiction document this file reads. */
export interface RestrictionPolicy {
  regulatory?: { restrictions?: Partial<Record<string, readonly string[]>> } & Record<string, unknown>
}

/** Operations a restriction takes away in this jurisdiction; all of them when the document is silent. */
export function blockedOperations(jurisdiction: RestrictionPolicy | undefined, type: RestrictionType): Operation[] {
  const listed = jurisdiction?.regulatory?.restrictions?.[type]
  if (!Array.isArray(listed)) return [...OPERATIONS]
  return OPERATIONS.filter((operation) => listed.includes(operation))
}

export interface RestrictionView extends Restriction {
  blocks: Operation[]
}

/** Active restrictions with what each takes away (heartbeat, restrictions call). */
export function restrictionsView(punter: Punter, jurisdiction: RestrictionPolicy | undefined, now: number): RestrictionView[] {
  return activeRestrictions(punter, now).map((r) => ({ ...r, blocks: blockedOperations(jurisdiction, r.type) }))
}

export type Refusal = { ok: false; httpStatus: 403; code: 'CUSTOMER_SELFEXCLUDED' | 'INCORRECT_PUNTER_STATE' | 'LOGIN_NOT_FOUND'; payload: { operation: Operation; restriction: RestrictionType | null; endDate: string | null } }
export type Allowance = { ok: true } | Refusal | StatusRefusal

/**
 * May this punter make a deposit, place a bet or launch a game? `{ok: true}`, or the refusal to
 * send as is: `sendError(res, r.httpStatus, r.code, r.payload)` — the payload names the restriction
 * that decided (the highest-priority one that takes this operation away) so the page says why.
 * `jurisdiction` is the site's jurisdiction document (see `jurisdictionFor`).
 */
export async function assertAllowed(data: DataLayer, punterId: number, jurisdiction: RestrictionPolicy | undefined, operation: Operation, now: number = Date.now()): Promise<Allowance> {
  const punter = await findPunterById(data, punterId)
  if (!punter) return { ok: false, httpStatus: 403, code: 'LOGIN_NOT_FOUND', payload: { operation, restriction: null, endDate: null } }
  const deciding = activeRestrictions(punter, now).find((r) => blockedOperations(jurisdiction, r.type).includes(operation))
  // no restriction closes it: the account status's own rule (a dormant or seized account, …)
  if (!deciding) return statusRefusal(punter.state, operation === 'deposit' ? 'deposit' : 'bet', operation) ?? { ok: true }
  const code = SELF_EXCLUSION_TYPES.includes(deciding.type) ? 'CUSTOMER_SELFEXCLUDED' : 'INCORRECT_PUNTER_STATE'
  return { ok: false, httpStatus: 403, code, payload: { operation, restriction: deciding.type, endDate: deciding.endDate } }
}

/** The jurisdiction document of the request's site (what `assertAllowed` reads): behind a punter's
 * session, the punter's own (server/http/site.ts `bindPunterSite`). */
export function jurisdictionFor(deps: Pick<ServerDeps, 'documents'>, req: Request): RestrictionPolicy | undefined {
  const context = siteContext(req, deps)
  return deps.documents.resolve('jurisdiction', context.site.id, context)?.source as RestrictionPolicy | undefined
}

/** `assertAllowed` for a request: its site's jurisdiction and the server's clock. */
export function assertAllowedFor(deps: Pick<ServerDeps, 'data' | 'documents' | 'now'>, req: Request, punterId: number, operation: Operation): Promise<Allowance> {
  return assertAllowed(deps.data, punterId, jurisdictionFor(deps, req), operation, deps.now())
}
