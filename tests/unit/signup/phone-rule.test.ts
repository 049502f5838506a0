/**
 * One phone rule (issue 17, spec §5 "Phone numbers per country"): the browser's sign-up form, the
 * login classification and the server's sign-up validator all ask kernel/core/phone-rule.ts, so a
 * number of every jurisdiction's country is classified identically at each call site.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyPhoneLogin, normalisePhone } from '../../../kernel/auth/login-classification'
import { phoneCountry } from '../../../kernel/core/phone-rule'
import { addFieldRuleErrors } from '../../../engine/renderers/form/field-rules'
import { loadPhoneRule } from '../../../engine/renderers/form/phone-loader'
import { phoneRule } from '../../../server/signup/rules'

const JURISDICTIONS = join(__dirname, '../../../schemas/jurisdictions')
const jurisdictionCountries = readdirSync(JURISDICTIONS).map((dir) => (JSON.parse(readFileSync(join(JURISDICTIONS, dir, 'jurisdiction.json'), 'utf8')) as { country: string }).country)

/** National numbers (dial code removed) per country: valid ones, then invalid ones. */
const NUMBERS: Record<string, { valid: string[]; invalid: string[] }> = {
  RU: { valid: ['9161234567', '4951234567'], invalid: ['1161234567', '916123456', '91612345678'] },
  BY: { valid: ['291234567', '172345678'], invalid: ['991234567', '29123456', '2912345678'] },
  ES: { valid: ['612345678', '912345678'], invalid: ['012345678', '61234567', '6123456789'] },
  IT: { valid: ['3471234567', '0612345678'], invalid: ['1234567890', '2471234567'] },
  DK: { valid: ['20123456', '32123456'], invalid: ['01234567', '2012345', '201234567'] },
  CW: { valid: ['95181234'], invalid: ['9518123', '15181234', '951812345'] },
  GG: { valid: ['7781123456', '1481256789'], invalid: ['778112345', '0781123456', '2781123456'] },
  NG: { valid: ['8031234567', '7012345678', '9051234567'], invalid: ['803123', '8031'] },
}

const rows = Object.entries(NUMBERS).flatMap(([country, { valid, invalid }]) => [
  ...valid.map((national) => ({ country, national, valid: true })),
  ...invalid.map((national) => ({ country, national, valid: false })),
])

/** The browser form's check of one phone field (rjsf error object stand-in). */
function formAccepts(value: string, country: string): boolean {
  const messages: string[] = []
  const errors = { phone: { addError: (message: string) => messages.push(message) } }
  addFieldRuleErrors({ schema: {}, uiSchema: { phone: { 'ui:widget': 'phone' } }, fields: ['phone'], data: { phone: value }, today: '2026-01-01', phoneCountry: country, tr: (key) => key }, errors)
  return messages.length === 0
}

describe('one phone rule for form, login and server', () => {
  it("the table has numbers for every jurisdiction document's country", () => {
    expect(jurisdictionCountries.length).toBeGreaterThan(0)
    for (const country of jurisdictionCountries) expect(Object.keys(NUMBERS), country).toContain(country)
  })

  it('the form skips its phone check until the lazy rule has arrived, then checks', async () => {
    expect(formAccepts('+7116', 'RU')).toBe(true)
    await loadPhoneRule()
    expect(formAccepts('+7116', 'RU')).toBe(false)
  })

  it.each(rows)('$country $national is valid=$valid in the form, at login and in the server validator alike', async ({ country, national, valid }) => {
    await loadPhoneRule()
    const dial = phoneCountry(country)!.dial
    const e164 = `+${dial}${national}`
    expect(formAccepts(e164, country), 'form').toBe(valid)
    expect(phoneRule(e164, country).errors.length === 0, 'server, international').toBe(valid)
    expect(phoneRule(national, country).errors.length === 0, 'server, national digits').toBe(valid)
    expect(normalisePhone(e164) === e164, 'login normalisation').toBe(valid)
    expect(classifyPhoneLogin(e164, country).kind === 'phone_number', 'login classification').toBe(valid)
  })

  it("with a known country the server refuses another country's dial code", () => {
    expect(phoneRule('+375291234567', 'RU').errors).toEqual([{ field: 'phoneNumber', code: 'INCORRECT_PHONE_NUMBER' }])
    expect(phoneRule('+79161234567', 'RU').phone?.e164).toBe('+79161234567')
  })
})
