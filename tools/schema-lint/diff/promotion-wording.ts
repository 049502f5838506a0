/**
 * How the semantic diff says a promotion change (issue 15 item 5): in the words an operator and a
 * compliance officer use — "prize changed from 50 to 500 EUR", "ends earlier: 2026-12-01 →
 * 2026-11-28", "now only for logged-in punters", "no longer on the Spain site" — instead of JSON
 * paths. A change it has no words for falls back to the generic wording of differ.ts.
 */
import type { Direction, ImpactClass } from './classify'

export interface PromotionMeaning {
  rule: string
  message: string
  direction: Direction
  impact: ImpactClass
}

const day = (v: unknown) => (typeof v === 'string' ? v.replace(/T00:00(:00)?Z$/, '').replace(/T(\d\d:\d\d)(:00)?Z$/, ' $1 UTC') : String(v))
const titleCase = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s)
const money = 'money-bonus' as const

function moved(what: 'starts' | 'ends', before: unknown, after: unknown): PromotionMeaning {
  const earlier = Date.parse(String(after)) < Date.parse(String(before))
  const message = `${what} ${earlier ? 'earlier' : 'later'}: ${day(before)} → ${day(after)}`
  // Ending earlier or starting later gives punters less time: a warning either way (money and bonus).
  return { rule: `promotion.${what}.${earlier ? 'earlier' : 'later'}`, message, direction: 'neutral', impact: money }
}

/** The words for one change of a promotion document, or undefined for the generic wording. */
export function promotionMeaning(keys: string[], op: string, before: unknown, after: unknown, source: Record<string, unknown>): PromotionMeaning | undefined {
  const [top, second, third] = keys
  const currency = String((source.prize as { currency?: string } | undefined)?.currency ?? '')
  if (top === 'startsAt' || top === 'endsAt') {
    if (op === 'changed') return moved(top === 'startsAt' ? 'starts' : 'ends', before, after)
  }
  if (top === 'prize') {
    if (second === 'amount' && op === 'changed') {
      const more = Number(after) > Number(before)
      return { rule: `promotion.prize.${more ? 'raised' : 'lowered'}`, message: `prize changed from ${before} to ${after} ${currency}`.trim(), direction: 'neutral', impact: money }
    }
    if (second === 'currency' && op === 'changed') return { rule: 'promotion.prize.currency', message: `prize currency ${before} → ${after}`, direction: 'neutral', impact: money }
    if (second === undefined && op === 'added') {
      const prize = after as { amount: number; currency: string }
      return { rule: 'promotion.prize.added', message: `now has a prize of ${prize.amount} ${prize.currency}`, direction: 'neutral', impact: money }
    }
    if (second === undefined && op === 'removed') return { rule: 'promotion.prize.removed', message: 'no longer has a prize', direction: 'neutral', impact: money }
  }
  if (top === 'shownToGuests') {
    const guests = after !== false
    return { rule: 'visibility.guests.changed', message: guests ? 'now shown to guests' : 'now only for logged-in punters', direction: guests ? 'loosened' : 'tightened', impact: money }
  }
  if (top === 'jurisdictions') {
    if (second === undefined) return { rule: `promotion.sites.${op}`, message: op === 'removed' ? 'now on every site' : op === 'added' ? `now only on the ${(after as string[]).map(titleCase).join(', ')} sites` : 'sites changed', direction: op === 'removed' ? 'loosened' : 'tightened', impact: money }
    return op === 'added'
      ? { rule: 'promotion.site.added', message: `now on the ${titleCase(second)} site`, direction: 'loosened', impact: money }
      : { rule: 'promotion.site.removed', message: `no longer on the ${titleCase(second)} site`, direction: 'tightened', impact: money }
  }
  if (top === 'product' && op === 'changed') return { rule: 'promotion.product.changed', message: `moves from the ${before} promotions to the ${after} promotions`, direction: 'neutral', impact: money }
  if (top === 'participationCode') {
    const message = op === 'added' ? `promo code ${after} added` : op === 'removed' ? `promo code ${before} removed` : `promo code ${before} → ${after}`
    return { rule: `promotion.code.${op}`, message, direction: 'neutral', impact: money }
  }
  if (top === 'forRegistration') {
    return { rule: 'promotion.registration.changed', message: after ? 'now offered to guests at sign-up' : 'no longer offered at sign-up', direction: 'neutral', impact: money }
  }
  if (top === 'texts' && second) {
    if (third === undefined) return { rule: `text.${op}`, message: op === 'added' ? `${second} texts added` : op === 'removed' ? `${second} texts removed` : `${second} texts changed`, direction: 'neutral', impact: 'copy' }
    const message = op === 'changed' ? `${second} ${third} "${before}" → "${after}"` : op === 'added' ? `${second} ${third} added: "${after}"` : `${second} ${third} removed`
    return { rule: `text.${op}`, message, direction: 'neutral', impact: 'copy' }
  }
  return undefined
}
