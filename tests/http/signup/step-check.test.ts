/**
 * Every sign-up field is checked at its own step (issue 31 item 5: age and DNI errors appeared only
 * after the last step). `POST account/signup/check-step` runs the final submit's checks on one
 * step's fields: the minimum age of the site's jurisdiction document (computed here from the
 * injected clock and the document's own number, not from the server's rule), Spain's DNI/NIE check
 * letter (known good and bad numbers), the phone; nothing is stored and fields of other steps are
 * not reported. Bad input gets a 4xx with a code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countryId, curacaoPhone, HARNESS_START_MS, startHarness, type Harness } from './helpers'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

const check = (site: string, variant: string, step: string, data: Record<string, unknown>) => h.call(site, 'POST', '/account/signup/check-step', { variant, step, data })
const fieldCodes = (res: { body: any }) => (Array.isArray(res.body.payload) ? res.body.payload.map((e: { field: string; code: string }) => `${e.field}:${e.code}`) : [])

/** The jurisdiction document's minimum age, as the site serves it. */
const minimumAgeOf = (jurisdiction: string) =>
  (h.server.deps.documents.resolve('jurisdiction', jurisdiction, { jurisdiction, locale: 'en', platform: 'web' })?.source as { minimumAge: number }).minimumAge

/** The birth date of someone who turns `years` old `dayShift` days from the clock's UTC day. */
function bornYearsAgo(years: number, dayShift = 0): string {
  const today = new Date(h.clock.now)
  const date = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + dayShift))
  return date.toISOString().slice(0, 10)
}

const personal = (birthDay: string, documentNumber = '12345678Z') => ({ firstName: 'Lucía', lastName: 'García', birthDay, documentNumber })

describe('the step check: a step’s fields checked as the final submit checks them', () => {
  it('Spain, personal step: one day under the minimum age is refused there; on the birthday it passes', async () => {
    const age = minimumAgeOf('spain')
    expect(age).toBe(18)
    const young = await check('spain', 'spain', 'personal', personal(bornYearsAgo(age, 1)))
    expect(young.status).toBe(400)
    expect(fieldCodes(young)).toEqual(['birthDay:minimumAge'])
    const birthday = await check('spain', 'spain', 'personal', personal(bornYearsAgo(age)))
    expect([birthday.status, birthday.body.payload]).toEqual([200, { valid: true }])
  })

  it('the minimum age is the jurisdiction document’s: 20 years old passes in Curaçao, not in Belarus (21)', async () => {
    expect(minimumAgeOf('belarus')).toBe(21)
    const twenty = bornYearsAgo(20)
    const by = await check('belarus', 'belarus', 'personal', { firstName: 'Алесь', lastName: 'Каліноўскі', birthDay: twenty, secretQuestion: 'MotherName', secretAnswer: 'Ганна' })
    expect(fieldCodes(by)).toEqual(['birthDay:minimumAge'])
    const cw = await check('curacao', 'phone', 'personal', { firstName: 'Ana', lastName: 'Martina', birthDay: twenty })
    expect(cw.status).toBe(200)
  })

  it('Spain, personal step: a DNI or NIE with a wrong check letter is refused there; right ones pass', async () => {
    // 12345678 mod 23 = 14 → Z; NIE X1234567 → 01234567 mod 23 = 19 → L (the Ministry's table)
    expect(fieldCodes(await check('spain', 'spain', 'personal', personal(bornYearsAgo(30), '12345678A')))).toEqual(['documentNumber:checksum'])
    expect(fieldCodes(await check('spain', 'spain', 'personal', personal(bornYearsAgo(30), 'X1234567T')))).toEqual(['documentNumber:checksum'])
    expect((await check('spain', 'spain', 'personal', personal(bornYearsAgo(30), '12345678Z'))).status).toBe(200)
    expect((await check('spain', 'spain', 'personal', personal(bornYearsAgo(30), 'X1234567L'))).status).toBe(200)
  })

  it('Curaçao, account step: a number that is not a phone is refused there; a good one passes', async () => {
    const account = (phoneNumber: string) => ({ phoneNumber, password: 'correct horse battery', countryId: countryId('CW') })
    const bad = await check('curacao', 'phone', 'account', account('+5999123'))
    expect([bad.status, bad.body.errorCode]).toEqual([400, 'INCORRECT_PHONE_NUMBER'])
    expect(fieldCodes(bad)).toEqual(['phoneNumber:INCORRECT_PHONE_NUMBER'])
    expect((await check('curacao', 'phone', 'account', account(curacaoPhone()))).status).toBe(200)
  })

  it('only the step’s own fields are reported: a bad birth date of the next step does not fail the account step', async () => {
    const res = await check('curacao', 'phone', 'account', { phoneNumber: curacaoPhone(), password: 'correct horse battery', countryId: countryId('CW'), birthDay: bornYearsAgo(3) })
    expect(res.status).toBe(200)
  })

  it('the step’s schema first: a missing required field is the schema’s error, reported once', async () => {
    const res = await check('spain', 'spain', 'personal', { firstName: 'Lucía', lastName: 'García', birthDay: bornYearsAgo(30) })
    expect(fieldCodes(res)).toEqual(['documentNumber:required'])
  })

  it('nothing is stored, whatever is checked', async () => {
    const count = async () => (await h.server.deps.data.db.selectFrom('punters').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n
    const before = Number(await count())
    await check('spain', 'spain', 'account', { email: 'step@example.es', password: 'correct horse battery', countryId: countryId('ES') })
    await check('spain', 'spain', 'personal', personal(bornYearsAgo(30)))
    expect(Number(await count())).toBe(before)
  })

  it('bad input: an unknown step, a variant of another site, an extra field, a non-object body get 4xx codes', async () => {
    const unknownStep = await check('spain', 'spain', 'payment', {})
    expect([unknownStep.status, fieldCodes(unknownStep)]).toEqual([400, ['step:enum']])
    expect((await check('curacao', 'spain', 'personal', personal(bornYearsAgo(30)))).body.errorCode).toBe('FORBIDDEN')
    const extra = await h.call('spain', 'POST', '/account/signup/check-step', { variant: 'spain', step: 'personal', data: {}, sneaky: 1 })
    expect([extra.status, extra.body.errorCode]).toEqual([400, 'ValidationError'])
    const notObject = await h.call('spain', 'POST', '/account/signup/check-step', '[1,2]')
    expect(notObject.status).toBe(400)
  })
})
