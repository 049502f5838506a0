/**
 * Withdrawal policy, read from the PUNTER's own jurisdiction document (the one they registered in,
 * never the request's host or header: issue 28 item 1), `payments.withdrawal`: which deposit
 * sources pay out and their minimum and maximum, above which amount the identity must be verified
 * first, and how many times a deposit must be staked before it may be withdrawn. No jurisdiction id
 * appears in code.
 */
import type { ServerDeps } from '../deps'
import type { PaymentSource } from './policy'

/** A deposit source that also pays out, with the payout's own minimum and maximum (major units). */
export type PayoutSource = Omit<PaymentSource, 'threeDSecure'>

export interface WithdrawalPolicy {
  sources: PayoutSource[]
  /** A withdrawal above this (major units) needs a verified identity; null: none does. */
  identityCheckAbove: number | null
  /** Each deposit must be staked this many times before it may be withdrawn (0: none). */
  depositPlaythrough: number
}

interface PaymentsPart {
  payments?: { sources?: PaymentSource[]; withdrawal?: { sources?: { id: string; minimum: number; maximum: number }[]; identityCheckAbove?: number; depositPlaythrough?: number } }
}

/** The jurisdiction document a punter registered in (its default locale and the web platform pick among variants). */
export function punterJurisdiction(deps: Pick<ServerDeps, 'documents'>, jurisdiction: string): PaymentsPart | undefined {
  const site = deps.documents.sites().find((s) => s.jurisdiction === jurisdiction)
  const record = deps.documents.resolve('jurisdiction', site?.id ?? jurisdiction, { jurisdiction, locale: site?.defaultLocale ?? 'en', platform: 'web' })
  return record?.source as PaymentsPart | undefined
}

const finite = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback)

/** The punter's jurisdiction's withdrawal rules; with none written down, nothing pays out. */
export function withdrawalPolicy(deps: Pick<ServerDeps, 'documents'>, punter: { jurisdiction: string; currency: string }): WithdrawalPolicy {
  const payments = punterJurisdiction(deps, punter.jurisdiction)?.payments
  const deposits = Array.isArray(payments?.sources) ? payments.sources : []
  const rules = payments?.withdrawal
  const sources = (Array.isArray(rules?.sources) ? rules.sources : []).flatMap((rule): PayoutSource[] => {
    const source = deposits.find((s) => s.id === rule.id)
    if (!source || !source.currencies.includes(punter.currency)) return []
    return [{ id: source.id, name: source.name, ...(source.icon ? { icon: source.icon } : {}), currencies: source.currencies, minimum: rule.minimum, maximum: rule.maximum }]
  })
  const above = rules?.identityCheckAbove
  return { sources, identityCheckAbove: typeof above === 'number' && above >= 0 ? above : null, depositPlaythrough: finite(rules?.depositPlaythrough, 0) }
}
