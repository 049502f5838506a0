/**
 * How each site writes money (docs/money-rules.md "Currency display"): the jurisdiction document's
 * `currencyDisplay` chooses, per currency, between the locale's own sign and the plain (narrow)
 * one. The oracle is a table written by hand of what a punter of each site reads in each of its
 * locales — Nigeria's naira as ₦, every other site exactly as before (Spain 1234,56 €, Russia
 * 15 000,00 ₽, Denmark in English DKK …). A site added to the kinds must be added to the table.
 */
import { describe, expect, it } from 'vitest'
import { formatMoney, type CurrencyDisplays } from '../../../kernel/core/format'
import { SITES, siteDocument } from '../../support/sites'

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

/** site → locale → [1234.56, 15000] as the site writes them. */
const EXPECTED: Record<string, Record<string, [string, string]>> = {
  curacao: { en: ['$1234.56', '$15,000.00'], ru: ['1234,56 $', '15 000,00 $'], es: ['1234,56 US$', '15.000,00 US$'], pt: ['US$ 1234,56', 'US$ 15.000,00'] },
  spain: { es: ['1234,56 €', '15.000,00 €'], en: ['€1234.56', '€15,000.00'] },
  italy: { it: ['1234,56 €', '15.000,00 €'], en: ['€1234.56', '€15,000.00'] },
  russia: { ru: ['1234,56 ₽', '15 000,00 ₽'], en: ['RUB 1234.56', 'RUB 15,000.00'] },
  belarus: { ru: ['1234,56 BYN', '15 000,00 BYN'], be: ['1234,56 Br', '15 000,00 Br'], en: ['BYN 1234.56', 'BYN 15,000.00'] },
  denmark: { da: ['1234,56 kr.', '15.000,00 kr.'], en: ['DKK 1234.56', 'DKK 15,000.00'] },
  alderney: { en: ['£1234.56', '£15,000.00'] },
  nigeria: { en: ['₦1234.56', '₦15,000.00'] },
}

describe('each site writes its currency as its jurisdiction document says', () => {
  it('the table names every declared site and each of its locales', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...SITES].sort())
    for (const site of SITES) expect(Object.keys(EXPECTED[site]).sort(), site).toEqual([...siteDocument(site).locales].sort())
  })

  it.each(SITES.flatMap((site) => siteDocument(site).locales.map((locale) => [site, locale] as const)))('%s in %s', (site, locale) => {
    const doc = siteDocument(site)
    const displays = doc.currencyDisplay as CurrencyDisplays | undefined
    const shown = [1234.56, 15000].map((amount) => plain(formatMoney(amount, locale, doc.currency, displays)))
    expect(shown).toEqual(EXPECTED[site][locale])
  })

  it('Nigeria’s header balance reads ₦50,000.00, not NGN 50,000.00; the display is per currency, so another currency on that site keeps its own sign', () => {
    const displays = siteDocument('nigeria').currencyDisplay as CurrencyDisplays
    expect(plain(formatMoney(50000, 'en', 'NGN', displays))).toBe('₦50,000.00')
    expect(plain(formatMoney(50000, 'en', 'NGN'))).toBe('NGN 50,000.00')
    expect(plain(formatMoney(50000, 'en', 'USD', displays))).toBe('$50,000.00')
    expect(plain(formatMoney(50000, 'en', 'DKK', displays))).toBe('DKK 50,000.00')
  })
})
