import { describe, expect, it } from 'vitest'
import { formatDateTime, formatMoney, roundMoney, toStorageDate } from '../../../kernel/core/format'

/** Intl uses narrow/non-breaking spaces in some locales; compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

describe('spec §5 money: 2 decimals, non-numeric is 0, grouping from 10000', () => {
  it.each([
    [1.005, 1.01],
    [2.345, 2.35],
    [-2.345, -2.35],
    ['12.5', 12.5],
    ['abc', 0],
    [null, 0],
    [undefined, 0],
    [Number.NaN, 0],
    [Infinity, 0],
  ])('round(%s) = %s', (input, expected) => expect(roundMoney(input)).toBe(expected))

  it.each([
    ['en', 9999.99, '9999.99'],
    ['en', 10000, '10,000.00'],
    ['en', 1234567.891, '1,234,567.89'],
    ['ru', 9999.5, '9999,50'],
    ['ru', 10000, '10 000,00'],
    ['de', 9999, '9999,00'],
    ['de', 12345.678, '12.345,68'],
  ])('%s: %s → %s', (locale, amount, expected) => expect(plain(formatMoney(amount, locale))).toBe(expected))

  it('decision: the threshold applies to the rounded amount, so 9999.999 shows grouped as 10 000,00', () => {
    expect(plain(formatMoney(9999.999, 'ru'))).toBe('10 000,00')
    expect(plain(formatMoney(9999.994, 'ru'))).toBe('9999,99')
  })

  it('non-numeric amounts show as 0.00', () => expect(formatMoney('n/a', 'en')).toBe('0.00'))

  it('with the currency', () => {
    expect(plain(formatMoney(10000, 'ru', 'RUB'))).toBe('10 000,00 ₽')
    expect(formatMoney(1234.5, 'en', 'EUR')).toBe('€1234.50')
  })

  it('an unknown currency code does not break the page', () => {
    expect(formatMoney(5, 'en', 'not-a-currency')).toBe('5.00')
  })
})

describe('spec §5 dates', () => {
  it("display 'D MMM YYYY HH:mm', storage 'YYYY-MM-DD'", () => {
    expect(formatDateTime('2024-03-05T07:08:00')).toBe('5 Mar 2024 07:08')
    expect(toStorageDate(new Date(2024, 2, 5))).toBe('2024-03-05')
  })
  it('invalid dates show as empty', () => {
    expect(formatDateTime('not a date')).toBe('')
    expect(toStorageDate(undefined)).toBe('')
  })
  it('a date string without a zone is a local date and time; with Z or an offset it is that instant', () => {
    // local: the same day and time in whatever zone the page runs (ECMAScript alone would read a
    // date-only string as UTC midnight: the day before, west of Greenwich)
    expect(toStorageDate('2024-03-05')).toBe('2024-03-05')
    expect(formatDateTime('2024-03-05')).toBe('5 Mar 2024 00:00')
    expect(formatDateTime('2024/03/05 07:08')).toBe('5 Mar 2024 07:08')
    expect(formatDateTime('2024-03-05T07:08:09.123')).toBe('5 Mar 2024 07:08')
    expect(formatDateTime('2024-03-05T07:08:00Z', 'en', 'UTC')).toBe('5 Mar 2024 07:08')
    expect(formatDateTime('2024-03-05T07:08:00+02:00', 'en', 'UTC')).toBe('5 Mar 2024 05:08')
    expect(toStorageDate(Date.UTC(2024, 2, 5, 12))).toBe('2024-03-05')
  })
})

describe("spec §5 display dates in each site locale: 'D MMM YYYY HH:mm' with the locale's month", () => {
  const at = '2026-09-05T07:08:00.000Z'
  it.each([
    ['en', '5 Sep 2026 07:08'],
    ['ru', '5 сент. 2026 07:08'],
    ['be', '5 вер 2026 07:08'],
    ['da', '5 sep. 2026 07:08'],
    ['es', '5 sept 2026 07:08'],
    ['it', '5 set 2026 07:08'],
    ['pt', '5 set. 2026 07:08'],
  ])('%s: %s', (locale, expected) => expect(formatDateTime(at, locale, 'UTC')).toBe(expected))

  it('epoch milliseconds and Dates format alike; an unknown locale falls back to English', () => {
    expect(formatDateTime(Date.parse(at), 'en', 'UTC')).toBe('5 Sep 2026 07:08')
    expect(formatDateTime(new Date(at), 'xx-bogus-locale-!', 'UTC')).toMatch(/^5 Sep 2026 \d\d:08$/)
  })
})
