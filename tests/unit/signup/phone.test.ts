/**
 * Phone validation (spec §3 table, §5 rule) by the one phone rule (kernel/core/phone-rule.ts),
 * property-based against libphonenumber-js: the rule never refuses a number libphonenumber calls
 * valid, and never accepts a length libphonenumber calls impossible. Other sign-up rules below.
 */
import fc from 'fast-check'
import { getCountries, getExampleNumber, isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/min'
import examples from 'libphonenumber-js/mobile/examples'
import { describe, expect, it } from 'vitest'
import { isValidNational, parsePhone, phoneCountries, phoneCountry } from '../../../kernel/core/phone-rule'
import { answerContainsBirthday, ageOn, isNameLike, passwordErrors } from '../../../server/signup/rules'

const countries = getCountries().filter((c) => getExampleNumber(c, examples))

describe('phone table', () => {
  it('has about 230 countries, each with a dial code, lengths and a display mask', () => {
    const table = phoneCountries()
    expect(table.length).toBeGreaterThan(220)
    for (const row of table) {
      expect(row.dial).toMatch(/^\d{1,3}$/)
      expect(row.lengths.length).toBeGreaterThan(0)
      expect(row.mask).toMatch(/#/)
    }
  })

  it('property: every number libphonenumber calls valid passes our rule (mutated example numbers)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...countries), fc.nat(), fc.integer({ min: 1, max: 4 }), (country: CountryCode, seed, tail) => {
        const example = getExampleNumber(country, examples)!
        const national = String(example.nationalNumber)
        const suffix = String(seed).padStart(tail, '0').slice(-tail)
        const candidate = national.slice(0, national.length - tail) + suffix
        if (!isValidPhoneNumber(candidate, country)) return true
        return isValidNational(candidate, phoneCountry(country)!)
      }),
      { numRuns: 1000 },
    )
  })

  it("property: a number our rule accepts has one of the country's possible lengths in libphonenumber's metadata", () => {
    fc.assert(
      fc.property(fc.constantFrom(...countries), fc.stringMatching(/^[1-9][0-9]{3,14}$/), (country: CountryCode, digits) => {
        const row = phoneCountry(country)!
        if (!isValidNational(digits, row)) return true
        // a +44 number valid anywhere under the dial code passes for GG too: check its own region's plan
        return row.lengths.includes(digits.length) || phoneCountries().some((other) => other.dial === row.dial && other.lengths.includes(digits.length))
      }),
      { numRuns: 1000 },
    )
  })

  it('without a known country a number of 7 digits or fewer is refused; a longer one matches some country', () => {
    expect(parsePhone('+1234567')).toBeUndefined()
    expect(parsePhone('+79123456789')?.e164).toBe('+79123456789')
    expect(parsePhone('9123456789', 'RU')?.e164).toBe('+79123456789')
    expect(parsePhone('+375291234567', 'RU')).toBeUndefined()
  })

  it('bad input is refused, never thrown', () => {
    for (const bad of [undefined, 42, '', '+', 'abc', '+7'.repeat(30), '+0000000000000000000']) expect(parsePhone(bad as unknown)).toBeUndefined()
  })
})

describe('other sign-up rules', () => {
  it('name-like fields: letters of any script, digits, single spaces', () => {
    for (const ok of ['Ana', 'Иван Петров', '山田 太郎', 'José María', 'Zoë', 'محمد', 'Nguyễn Văn', 'John 3']) expect(isNameLike(ok), ok).toBe(true)
    for (const bad of ['', ' Ana', 'Ana ', 'Ana  Maria', 'O’Brien', 'a<b>', 'Ana\tB']) expect(isNameLike(bad), bad).toBe(false)
    fc.assert(fc.property(fc.string(), (s) => !isNameLike(s) || !/ {2}|^ | $/.test(s)))
  })

  it('the secret answer must not contain the birthday in any usual spelling', () => {
    for (const answer of ['1990-05-12', '12.05.1990', 'x19900512y', '12/05/90', '05121990']) expect(answerContainsBirthday(answer, '1990-05-12'), answer).toBe(true)
    for (const answer of ['Rex', '1990', 'May 1990']) expect(answerContainsBirthday(answer, '1990-05-12'), answer).toBe(false)
  })

  it('age in full years; passwords 8..128 with no composition rules', () => {
    expect(ageOn('2004-06-15', Date.UTC(2025, 5, 15))).toBe(21)
    expect(ageOn('2004-06-16', Date.UTC(2025, 5, 15))).toBe(20)
    expect(ageOn('2001-02-29', Date.UTC(2025, 5, 15))).toBeUndefined()
    expect(passwordErrors('abcdefgh')).toEqual([])
    expect(passwordErrors('a'.repeat(64))).toEqual([])
    expect(passwordErrors('abcdefg')).toEqual([{ field: 'password', code: 'minLength', limit: 8 }])
  })
})
