/**
 * Money as integer minor units (kernel/core/money.ts): a major-unit JSON number is read exactly or
 * refused, never rounded to another amount; every amount up to MAX_MINOR goes to JSON and back
 * unchanged; a currency's minor units are ISO 4217's (checked against the ICU data the JavaScript
 * engine carries, an independent source).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decimalText, MAX_MINOR, MINOR_UNITS, minorUnitsOf, toMajor, toMinor } from '../../../kernel/core/money'

describe('a currency has its ISO 4217 minor units', () => {
  it('the sites\' currencies have two; the yen none; the Kuwaiti dinar three', () => {
    for (const code of ['USD', 'EUR', 'RUB', 'BYN', 'DKK', 'GBP']) expect(minorUnitsOf(code), code).toBe(2)
    expect(minorUnitsOf('JPY')).toBe(0)
    expect(minorUnitsOf('KWD')).toBe(3)
    expect(minorUnitsOf('XYZ')).toBeUndefined()
    expect(minorUnitsOf('constructor')).toBeUndefined()
  })

  it.each(Object.keys(MINOR_UNITS))('%s agrees with the ICU currency data of Intl', (code) => {
    expect(MINOR_UNITS[code]).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits)
  })
})

describe('a major-unit amount is read exactly or refused', () => {
  it('amounts people type are read to the cent', () => {
    expect(toMinor(19.99, 'EUR')).toEqual({ ok: true, minor: 1999 })
    expect(toMinor(0.1, 'EUR')).toEqual({ ok: true, minor: 10 })
    expect(toMinor(2.5, 'EUR')).toEqual({ ok: true, minor: 250 })
    expect(toMinor(1_000_000, 'EUR')).toEqual({ ok: true, minor: 100_000_000 })
    expect(toMinor(100, 'JPY')).toEqual({ ok: true, minor: 100 })
    expect(toMinor(1.234, 'KWD')).toEqual({ ok: true, minor: 1234 })
  })

  it('more decimals than the currency has are refused, never rounded', () => {
    expect(toMinor(2.675, 'EUR')).toEqual({ ok: false, code: 'multipleOf' })
    expect(toMinor(1.005, 'EUR')).toEqual({ ok: false, code: 'multipleOf' })
    expect(toMinor(0.1 + 0.2, 'EUR')).toEqual({ ok: false, code: 'multipleOf' })
    expect(toMinor(1e-7, 'EUR')).toEqual({ ok: false, code: 'multipleOf' })
    expect(toMinor(1.5, 'JPY')).toEqual({ ok: false, code: 'multipleOf' })
  })

  it('too large, not a number, or an unknown currency is refused with its reason', () => {
    expect(toMinor(1e21, 'EUR')).toEqual({ ok: false, code: 'maximum' })
    expect(toMinor(MAX_MINOR / 100 + 0.01, 'EUR')).toEqual({ ok: false, code: 'maximum' })
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '1', null, undefined]) expect(toMinor(bad, 'EUR')).toEqual({ ok: false, code: 'type' })
    expect(toMinor(1, 'XYZ')).toEqual({ ok: false, code: 'currency' })
  })

  it('numbers JavaScript prints with an exponent are read from their digits', () => {
    expect(decimalText(1e21)).toBe('1000000000000000000000')
    expect(decimalText(1.5e-7)).toBe('0.00000015')
    expect(decimalText(-2.5e-7)).toBe('-0.00000025')
    expect(decimalText(123.45)).toBe('123.45')
  })

  const currencies = fc.constantFrom('EUR', 'JPY', 'KWD', 'DKK')

  it('property: every amount up to MAX_MINOR goes to a JSON number and back to the same minor units', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MINOR, max: MAX_MINOR }), currencies, (minor, currency) => {
        const sent = JSON.parse(JSON.stringify({ amount: toMajor(minor, currency) })).amount
        expect(toMinor(sent, currency)).toEqual({ ok: true, minor })
      }),
      { numRuns: 5000 },
    )
  })

  it('property: an amount written with one decimal more than the currency has is refused, whatever its size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 1, max: 9 }), currencies, (whole, last, currency) => {
        const decimals = minorUnitsOf(currency)!
        const text = `${Math.floor(whole / 10 ** decimals)}.${String(whole % 10 ** decimals).padStart(decimals, '0')}${last}`
        fc.pre(text.replace(/\D/g, '').replace(/^0+/, '').length <= 15) // a double keeps 15 significant digits exactly
        expect(toMinor(Number(text), currency)).toEqual({ ok: false, code: 'multipleOf' })
      }),
      { numRuns: 5000 },
    )
  })
})
