/**
 * Which promotions a site shows now, and how a card reads: promotion documents (kind
 * `promotion`, schemas/promotions/) filtered by time, site and audience (spec §6: guests see
 * promotions unless disabled for guests), their texts picked for the asked locale. Pure functions
 * over the published documents, so a version an operator publishes shows on the next request.
 */
import type { DocumentRecord } from '../../tools/schema-lint'

export interface PromotionDocument {
  id: string
  product: string
  startsAt: string
  endsAt: string
  shownToGuests?: boolean
  jurisdictions?: string[]
  prize?: { amount: number; currency: string }
  participationCode?: string
  forRegistration?: boolean
  texts: Record<string, { title: string; body: string; terms?: string }>
}

export interface PromotionCard {
  id: string
  product: string
  title: string
  body: string
  subtitle: string
  terms: string
  startsAt: string
  endsAt: string
  endsText: string
  prize: { amount: number; currency: string } | null
  prizeText: string | null
  shownToGuests: boolean
  forRegistration: boolean
  to: string
}

export interface Audience {
  jurisdiction: string
  loggedIn: boolean
  now: number
}

/** The site's promotions (a jurisdiction's own copy replaces the shared one of the same id). */
export function promotionsOfSite(records: DocumentRecord[], jurisdiction: string): PromotionDocument[] {
  const chosen = new Map<string, DocumentRecord>()
  for (const record of records) {
    if (record.kind !== 'promotion') continue
    if (record.jurisdiction !== '' && record.jurisdiction !== jurisdiction) continue
    const before = chosen.get(record.id)
    if (!before || (before.jurisdiction === '' && record.jurisdiction !== '')) chosen.set(record.id, record)
  }
  return [...chosen.values()]
    .map((r) => r.source as unknown as PromotionDocument)
    .filter((p) => !p.jurisdictions || p.jurisdictions.includes(jurisdiction))
}

export const isLive = (p: PromotionDocument, now: number) => Date.parse(p.startsAt) <= now && now < Date.parse(p.endsAt)

/** Live promotions this audience may see, ending soonest first. */
export function visiblePromotions(records: DocumentRecord[], audience: Audience): PromotionDocument[] {
  return promotionsOfSite(records, audience.jurisdiction)
    .filter((p) => isLive(p, audience.now) && (audience.loggedIn || p.shownToGuests !== false))
    .sort((a, b) => Date.parse(a.endsAt) - Date.parse(b.endsAt) || a.id.localeCompare(b.id))
}

function dateText(locale: string, iso: string): string {
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }
  try {
    return new Intl.DateTimeFormat(locale, options).format(new Date(iso))
  } catch {
    return new Intl.DateTimeFormat('en', options).format(new Date(iso))
  }
}

function moneyText(locale: string, prize: { amount: number; currency: string }): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: prize.currency, maximumFractionDigits: 2 }).format(prize.amount)
  } catch {
    return `${prize.amount} ${prize.currency}`
  }
}

/** A card in the asked locale; the site's default locale, then English, then any when it lacks one. */
export function promotionCard(p: PromotionDocument, locale: string, fallbackLocale: string, words: { until: string; prize: string }): PromotionCard {
  const texts = p.texts[locale] ?? p.texts[fallbackLocale] ?? p.texts.en ?? Object.values(p.texts)[0] ?? { title: p.id, body: '' }
  const shownLocale = p.texts[locale] ? locale : p.texts[fallbackLocale] ? fallbackLocale : 'en'
  const endsText = words.until.replace('{{date}}', dateText(shownLocale, p.endsAt))
  const prizeText = p.prize ? words.prize.replace('{{amount}}', moneyText(shownLocale, p.prize)) : null
  return {
    id: p.id,
    product: p.product,
    title: texts.title,
    body: texts.body,
    subtitle: [texts.body, prizeText, endsText].filter(Boolean).join(' · '),
    terms: texts.terms ?? '',
    startsAt: p.startsAt,
    endsAt: p.endsAt,
    endsText,
    prize: p.prize ?? null,
    prizeText,
    shownToGuests: p.shownToGuests !== false,
    forRegistration: p.forRegistration === true,
    to: `/promotions/${p.id}`,
  }
}
