/**
 * Money policy of a site, read from its jurisdiction document (never from code): the deposit
 * payment sources (spec §3 shared config "deposit payment sources", per currency) and the player
 * protection limits (spec §3 "player protection limits (defaults, maximum, deposit, lost)") with
 * the waiting time before a raised limit applies (`regulatory.depositLimits`).
 *
 * Behind a punter's session the request is bound to the punter's own site (server/http/site.ts
 * `bindPunterSite`), so these are the account's jurisdiction's rules, whatever the host.
 */
import type { Request } from 'express'
import { limitToMinor } from '../../kernel/core/money'
import type { ServerDeps } from '../deps'
import { jurisdictionOf } from '../dictionary'

export const LIMIT_PERIODS = ['daily', 'weekly', 'monthly'] as const
export type LimitPeriod = (typeof LIMIT_PERIODS)[number]

/** Rolling windows the limits count over (decision: rolling, not calendar periods). */
export const PERIOD_MS: Record<LimitPeriod, number> = { daily: 86_400_000, weekly: 7 * 86_400_000, monthly: 30 * 86_400_000 }

export interface PaymentSource {
  id: string
  /** i18n key of the method's name. */
  name: string
  icon?: string
  currencies: string[]
  /** Major units of the punter's currency. */
  minimum: number
  maximum: number
  threeDSecure: boolean
}

export interface DepositLimitPolicy {
  periods: LimitPeriod[]
  /** A raised (or removed) limit applies this many hours after the punter asks. */
  increaseTakesEffectAfterHours: number
  /** The punter's currency, which the amounts below are in. */
  currency: string
  /** Limits a new punter starts with (minor units), per period. */
  defaults: Partial<Record<LimitPeriod, number>>
  /** The highest limit a punter may set (minor units); with a maximum, "no limit" means the maximum. */
  maximum: Partial<Record<LimitPeriod, number>>
}

/** A document's per-period amounts (major units) in minor units of `currency`. */
const minorAmounts = (value: unknown, currency: string): Partial<Record<LimitPeriod, number>> => {
  const out: Partial<Record<LimitPeriod, number>> = {}
  if (value && typeof value === 'object')
    for (const period of LIMIT_PERIODS) {
      const n = (value as Record<string, unknown>)[period]
      if (typeof n === 'number' && Number.isFinite(n) && n >= 0) out[period] = limitToMinor(n, currency)
    }
  return out
}

/** Every payment source of the request's site (all currencies). */
export function paymentSources(deps: Pick<ServerDeps, 'documents'>, req: Request): PaymentSource[] {
  const doc = jurisdictionOf(deps, req) as unknown as { payments?: { sources?: PaymentSource[] } }
  return Array.isArray(doc?.payments?.sources) ? doc.payments.sources : []
}

/** The sources a punter paying in `currency` may use. */
export function sourcesFor(deps: Pick<ServerDeps, 'documents'>, req: Request, currency: string): PaymentSource[] {
  return paymentSources(deps, req).filter((source) => source.currencies.includes(currency))
}

/** Where a kind of limit keeps its rules in the jurisdiction document (`regulatory.<section>`). */
export type LimitSection = 'depositLimits' | 'lossLimits'

/** The limit rules of the request's (the punter's own) jurisdiction for one kind of limit, amounts in minor units of `currency`. */
function limitPolicy(doc: { regulatory?: Record<string, unknown> } | undefined, section: LimitSection, currency: string): DepositLimitPolicy {
  const regulatory = (doc?.regulatory ?? {}) as { depositLimits?: Record<string, unknown>; limits?: { increaseWaitingHours?: unknown } } & Record<string, unknown>
  // Curaçao states its waiting time once, for every limit, in `regulatory.limits`; a loss limit waits as long as a deposit limit unless its section says otherwise
  const raw: Record<string, unknown> = { increaseTakesEffectAfterHours: regulatory.limits?.increaseWaitingHours, ...(regulatory.depositLimits?.increaseTakesEffectAfterHours === undefined ? {} : { increaseTakesEffectAfterHours: regulatory.depositLimits.increaseTakesEffectAfterHours }), ...((regulatory[section] as Record<string, unknown> | undefined) ?? {}) }
  const periods = Array.isArray(raw.periods) ? (raw.periods as string[]).filter((p): p is LimitPeriod => (LIMIT_PERIODS as readonly string[]).includes(p)) : [...LIMIT_PERIODS]
  const hours = typeof raw.increaseTakesEffectAfterHours === 'number' && raw.increaseTakesEffectAfterHours >= 0 ? raw.increaseTakesEffectAfterHours : 24
  return { periods, increaseTakesEffectAfterHours: hours, currency, defaults: minorAmounts(raw.defaults, currency), maximum: minorAmounts(raw.maximum, currency) }
}

/** The deposit limit rules of the request's (the punter's own) jurisdiction, amounts in minor units of `currency`. */
export function depositLimitPolicy(deps: Pick<ServerDeps, 'documents'>, req: Request, currency: string): DepositLimitPolicy {
  return limitPolicy(jurisdictionOf(deps, req) as never, 'depositLimits', currency)
}

/** The loss limit rules (`regulatory.lossLimits`), or null where the jurisdiction offers none. */
export function lossLimitPolicy(deps: Pick<ServerDeps, 'documents'>, req: Request, currency: string): DepositLimitPolicy | null {
  const doc = jurisdictionOf(deps, req) as unknown as { regulatory?: { lossLimits?: { offered?: unknown } } }
  if (!doc?.regulatory?.lossLimits || doc.regulatory.lossLimits.offered === false) return null
  return limitPolicy(doc as never, 'lossLimits', currency)
}
