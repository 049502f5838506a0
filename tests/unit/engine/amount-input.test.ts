/**
 * Typed amounts (issue 28 item 6): a table of typed strings × every locale the sites serve → minor
 * units or the refusal. The strings are written with the locale's marks as Intl's formatToParts
 * gives them (the oracle: not the parser's own reading), and a property checks that every amount
 * Intl itself formats in a locale, grouped or not, reads back as exactly that amount.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { amountErrorText, currencyDecimals, formatTypedAmount, parseMoneyInput, parseTypedAmount } from '../../../kernel/core/amount-input'

const SCHEMAS = join(import.meta.dirname, '../../../schemas')
const jurisdictionLocales = readdirSync(join(SCHEMAS, 'jurisdictions')).flatMap(
  (id) => (JSON.parse(readFileSync(join(SCHEMAS, 'jurisdictions', id, 'jurisdiction.json'), 'utf8')) as { locales: string[] }).locales,
)
const translationLocales = readdirSync(join(SCHEMAS, 'i18n')).map((file) => file.replace(/[-.].*$/, ''))
const LOCALES = [...new Set([...jurisdictionLocales, ...translationLocales])].sort()

/** The oracle: the locale's marks as Intl formats a grouped number with decimals. */
function intlMarks(locale: string): { D: string; G: string } {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5)
  return { D: parts.find((p) => p.type === 'decimal')!.value, G: parts.find((p) => p.type === 'group')!.value }
}
const isSpace = (mark: string) => /^\s$/u.test(mark)

it('the sites serve these locales, and every one of them but English writes decimals with a comma', () => {
  expect(LOCALES).toEqual(['be', 'da', 'en', 'es', 'it', 'pt', 'ru'])
  for (const locale of LOCALES) expect(intlMarks(locale).D, locale).toBe(locale === 'en' ? '.' : ',')
})

/** `{D}` and `{G}` are the locale's decimal and grouping marks (from Intl); `{O}` the other of . and , */
const TABLE: [typed: string, expected: number | string][] = [
  ['2{D}5', 250],
  ['2{D}50', 250],
  ['2', 200],
  ['0{D}01', 1],
  ['{D}5', 50],
  ['2{D}', 200],
  ['  7{D}25 ', 725],
  ['1{G}000', 100_000],
  ['12{G}345{D}6', 1_234_560],
  ['1{G}234{G}567{D}89', 123_456_789],
  ['1 000{D}5', 100_050], // a space groups thousands in every locale
  ['1{G}00', 'GROUPING'], // never 1.00, never 100
  ['1{G}0000', 'GROUPING'],
  ['0{G}500', 'GROUPING'], // never 500
  ['1{G}{D}5', 'GROUPING'],
  ['2{D}505', 'TOO_MANY_DECIMALS'], // refused, not rounded
  ['0{D}001', 'TOO_MANY_DECIMALS'],
  ['1{D}2{D}3', 'SEPARATORS_MIXED'],
  ['1{D}000{G}5', 'SEPARATORS_MIXED'], // a grouping mark after the decimals
  ['', 'EMPTY'],
  ['   ', 'EMPTY'],
  ['-2{D}5', 'NEGATIVE'],
  ['−2', 'NEGATIVE'],
  ['2{D}5€', 'NOT_A_NUMBER'],
  ['abc', 'NOT_A_NUMBER'],
  ['{D}', 'NOT_A_NUMBER'],
  ['1e3', 'NOT_A_NUMBER'],
  ['9999999999999', 'TOO_LARGE'],
  ['999999999999{D}99', 99_999_999_999_999],
]

describe.each(LOCALES)('typed amounts in %s (EUR, 2 decimals)', (locale) => {
  const { D, G } = intlMarks(locale)
  it.each(TABLE)('%s', (template, expected) => {
    const typed = template.replaceAll('{D}', D).replaceAll('{G}', G)
    const read = parseMoneyInput(typed, locale, 'EUR')
    expect(read).toEqual(typeof expected === 'number' ? { ok: true, minor: expected } : { ok: false, error: expected })
  })

  it('the other of . and , is the decimal mark only where grouping is a space (ru, be), and never beside the decimal mark', () => {
    const other = D === ',' ? '.' : ','
    const single = parseMoneyInput(`2${other}5`, locale, 'EUR')
    if (isSpace(G)) {
      expect(single).toEqual({ ok: true, minor: 250 })
      expect(parseMoneyInput(`1${other}000`, locale, 'EUR')).toEqual({ ok: false, error: 'TOO_MANY_DECIMALS' }) // never 1.00, never 1000
      expect(parseMoneyInput(`1${other}000${D}5`, locale, 'EUR')).toEqual({ ok: false, error: 'SEPARATORS_MIXED' })
    } else {
      // here the other mark is the grouping mark: 2.5 in es is no group of three
      expect(other).toBe(G)
      expect(single).toEqual({ ok: false, error: 'GROUPING' })
    }
  })

  it('every amount Intl formats in this locale (grouped or not, 0–2 decimals) reads back as exactly that amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), fc.boolean(), (minor, grouping) => {
        const text = new Intl.NumberFormat(locale, { useGrouping: grouping, minimumFractionDigits: 0, maximumFractionDigits: 2 }).format(minor / 100)
        expect(parseMoneyInput(text, locale, 'EUR'), text).toEqual({ ok: true, minor })
      }),
      { numRuns: 400 },
    )
  })

  it('an amount written back for typing reads as the same amount', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_999 }), (minor) => {
      expect(parseTypedAmount(formatTypedAmount(minor, locale, 2), locale, 2)).toEqual({ ok: true, minor })
    }))
  })
})

describe('the cases of issue 28', () => {
  it.each(['es', 'it'])('%s: 2,5 is two and a half, not 25', (locale) => expect(parseMoneyInput('2,5', locale, 'EUR')).toEqual({ ok: true, minor: 250 }))
  it.each(['es', 'it', 'da', 'pt'])('%s: 1.000 is one thousand, never 1.00', (locale) => expect(parseMoneyInput('1.000', locale, 'EUR')).toEqual({ ok: true, minor: 100_000 }))
  it.each(['es', 'it', 'da', 'pt'])('%s: 1,000.5 is refused as mixed marks', (locale) => expect(parseMoneyInput('1,000.5', locale, 'EUR')).toEqual({ ok: false, error: 'SEPARATORS_MIXED' }))
  it('en: 2,5 is refused (a comma groups thousands there), 2.5 is two and a half, 1,000.5 is a thousand and a half', () => {
    expect(parseMoneyInput('2,5', 'en', 'USD')).toEqual({ ok: false, error: 'GROUPING' })
    expect(parseMoneyInput('2.5', 'en', 'USD')).toEqual({ ok: true, minor: 250 })
    expect(parseMoneyInput('1,000.5', 'en', 'USD')).toEqual({ ok: true, minor: 100_050 })
  })
})

describe("the currency's own minor units", () => {
  it('Intl gives the digits: EUR, USD, RUB, DKK, BYN and GBP have 2, JPY none; unknown codes count as 2', () => {
    expect(['EUR', 'USD', 'RUB', 'DKK', 'BYN', 'GBP'].map(currencyDecimals)).toEqual([2, 2, 2, 2, 2, 2])
    expect(currencyDecimals('JPY')).toBe(0)
    expect(currencyDecimals(undefined)).toBe(2)
  })
  it('a currency without decimals refuses any', () => {
    expect(parseMoneyInput('250', 'en', 'JPY')).toEqual({ ok: true, minor: 250 })
    expect(parseMoneyInput('2.5', 'en', 'JPY')).toEqual({ ok: false, error: 'TOO_MANY_DECIMALS' })
  })
})

it("a refusal's text names the locale's decimal mark and an example written with it", () => {
  expect(amountErrorText('GROUPING', 'es', 2)).toEqual({ key: 'amount.error.GROUPING', values: { decimal: ',', example: '2,50', decimals: 2 } })
  expect(amountErrorText('GROUPING', 'en', 2).values.example).toBe('2.50')
})
