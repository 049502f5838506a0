/**
 * The account statuses of spec §4 as data (kernel/punters/account-statuses.ts,
 * docs/adr/0088-account-statuses.md): the spec's whole list, a rule and a text in every locale for
 * each, the states in use mapped onto it, the allowed moves, and the refusal a status gives.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BLOCKED_STATES } from '../../../engine/auth/session'
import { demoPunters } from '../../../server/punters/demo'
import { PUNTER_STATES } from '../../../server/punters/repository'
import { statusRefusal } from '../../../server/regulation/status-rules'
import { ACCOUNT_STATUSES, accountStatusOf, mayMove, STATUS_GROUPS, statusTextKey } from '../../../kernel/punters/account-statuses'

// spec §4 "Account statuses", copied from the spec as the oracle
const SPEC_LIST =
  'antibanOpen, BlockedIDUpload, Closed, Dormant, HooyuProcessing, Inactive, LegalAgreement, NeedAutoVerification, NeedDocument, NeedAddEmail, NotRequired, Opened, PendingVerification, PermanentProtectionMeasure, PermanentSelfExclusion, PlayerProtectionMeasure, Processing, ProhibitionSelfExclude, PunterUpload, Required, Seized, SelfExcluded, Suspended, SuspendedGDPR, TemporaryProtectionMeasure, TemporarySelfExclusion, TimeOutSelfExclusion'
const SPEC_GROUP = 'BlockedIDUpload, Dormant, Inactive, NeedDocument, Opened, PendingVerification, PlayerProtectionMeasure, Required, Seized, SelfExcluded, Suspended'

const I18N = resolve(import.meta.dirname, '..', '..', '..', 'schemas', 'i18n')
/** Every locale that has error texts, and all of its texts. */
const LOCALES = readdirSync(I18N).filter((f) => f.endsWith('-errors.json')).map((f) => f.replace('-errors.json', ''))
const textsOf = (locale: string): Record<string, string> =>
  Object.assign({}, ...readdirSync(I18N).filter((f) => f.startsWith(`${locale}-`) || f === `${locale}.json`).map((f) => JSON.parse(readFileSync(join(I18N, f), 'utf8')).resources ?? {}))

describe('the spec §4 list, whole, as data', () => {
  it('every status the spec names is in the list, with the spec group marked as the back-office set', () => {
    const names = ACCOUNT_STATUSES.map((s) => s.name)
    for (const name of SPEC_LIST.split(', ')) expect(names).toContain(name)
    expect(ACCOUNT_STATUSES.filter((s) => s.backOffice).map((s) => s.name).sort()).toEqual(SPEC_GROUP.split(', ').sort())
  })

  it('the Russian state-identification statuses cover fail, success, processing, phone verify, the portal simple/full, bank-based and rejections', () => {
    const tsupis = ACCOUNT_STATUSES.filter((s) => s.name.startsWith('Tsupis')).map((s) => s.state)
    for (const part of ['FAIL', 'SUCCESS', 'PROCESSING', 'PHONE_VERIFY', 'ESIA_SIMPLE', 'ESIA_FULL', 'BANK', 'REJECTED']) expect(tsupis.some((s) => s.includes(part))).toBe(true)
    expect(tsupis.every((s) => accountStatusOf(s)!.group === 'identification')).toBe(true)
  })

  it('names and states are unique; every status has a group and a whole rule (log in, bet, deposit, withdraw)', () => {
    expect(new Set(ACCOUNT_STATUSES.map((s) => s.name)).size).toBe(ACCOUNT_STATUSES.length)
    expect(new Set(ACCOUNT_STATUSES.map((s) => s.state)).size).toBe(ACCOUNT_STATUSES.length)
    for (const s of ACCOUNT_STATUSES) {
      expect(STATUS_GROUPS).toContain(s.group)
      expect(Object.keys(s.may).sort()).toEqual(['bet', 'deposit', 'login', 'withdraw'])
      expect(Object.values(s.may).every((v) => typeof v === 'boolean')).toBe(true)
      // nothing moves money without a session
      if (!s.may.login) expect(s.may).toEqual({ login: false, bet: false, deposit: false, withdraw: false })
    }
  })

  it(`every status has its text in every locale with error texts (${LOCALES.length}), each locale its own words`, () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(7)
    const english = textsOf('en')
    for (const locale of LOCALES) {
      const texts = textsOf(locale)
      for (const s of ACCOUNT_STATUSES) {
        expect(texts[statusTextKey(s)], `${locale} ${s.state}`).toMatch(/\S/)
        if (locale !== 'en') expect(texts[statusTextKey(s)], `${locale} ${s.state}`).not.toBe(english[statusTextKey(s)])
      }
    }
  })
})

describe('the states in use map onto the list', () => {
  it('every player state of the store and every demo punter has a status (by state or spec name)', () => {
    for (const state of PUNTER_STATES) expect(accountStatusOf(state), state).toBeDefined()
    for (const punter of demoPunters(0)) expect(accountStatusOf(punter.state ?? 'OPENED'), punter.email ?? '').toBeDefined()
    expect(accountStatusOf('TimeOutSelfExclusion')).toBe(accountStatusOf('TIME_OUT_SELF_EXCLUSION'))
  })

  it('the client logs out (no-access popup) exactly the statuses without login that are not refused at login', () => {
    expect([...BLOCKED_STATES].sort()).toEqual(['BLOCKED_ID_UPLOAD', 'CLOSED', 'SEIZED', 'SUSPENDED_GDPR', 'TSUPIS_REJECTED_UNDERAGE'])
  })
})

describe('what a status refuses (server/regulation/status-rules.ts)', () => {
  it('Dormant: deposit and bet refused with INCORRECT_PUNTER_STATE naming the status; withdrawing allowed', () => {
    expect(statusRefusal('DORMANT', 'deposit')).toEqual({ ok: false, httpStatus: 403, code: 'INCORRECT_PUNTER_STATE', payload: { operation: 'deposit', restriction: null, endDate: null, status: 'DORMANT' } })
    expect(statusRefusal('DORMANT', 'bet', 'game')?.payload.operation).toBe('game')
    expect(statusRefusal('DORMANT', 'withdraw')).toBeUndefined()
  })

  it('a self-exclusion status answers CUSTOMER_SELFEXCLUDED; Seized and Closed refuse everything; Opened nothing', () => {
    for (const state of ['TIME_OUT_SELF_EXCLUSION', 'PermanentSelfExclusion', 'PROHIBITION_SELF_EXCLUDE']) expect(statusRefusal(state, 'deposit')?.code).toBe('CUSTOMER_SELFEXCLUDED')
    for (const state of ['SEIZED', 'CLOSED']) for (const action of ['deposit', 'bet', 'withdraw'] as const) expect(statusRefusal(state, action)?.code).toBe('INCORRECT_PUNTER_STATE')
    for (const action of ['deposit', 'bet', 'withdraw'] as const) expect(statusRefusal('OPENED', action)).toBeUndefined()
  })

  it('a status with a restriction leaves deposit and bet to the jurisdiction; a state not in the list is refused (fail closed)', () => {
    expect(statusRefusal('NEED_DOCUMENT', 'bet')).toBeUndefined()
    expect(statusRefusal('NEED_DOCUMENT', 'withdraw')?.code).toBe('INCORRECT_PUNTER_STATE')
    expect(statusRefusal('SOMETHING_NEW', 'deposit')).toMatchObject({ code: 'INCORRECT_PUNTER_STATE', payload: { status: 'SOMETHING_NEW' } })
  })
})

describe('allowed moves between statuses (the ADR)', () => {
  it('a closed account is final; a permanent exclusion or measure only ends in closing', () => {
    for (const to of ['OPENED', 'SUSPENDED', 'SELF_EXCLUDED']) expect(mayMove('CLOSED', to)).toBe(false)
    expect(mayMove('PERMANENT_SELF_EXCLUSION', 'OPENED')).toBe(false)
    expect(mayMove('PERMANENT_SELF_EXCLUSION', 'CLOSED')).toBe(true)
    expect(mayMove('PERMANENT_PROTECTION_MEASURE', 'OPENED')).toBe(false)
  })

  it('an open account may be restricted and a hold lifted; a registration is not re-entered from a hold; unknown states never move', () => {
    for (const to of ['DORMANT', 'SEIZED', 'TIME_OUT_SELF_EXCLUSION', 'PLAYER_PROTECTION_MEASURE', 'REQUIRED', 'CLOSED']) expect(mayMove('OPENED', to), to).toBe(true)
    expect(mayMove('DORMANT', 'OPENED')).toBe(true)
    expect(mayMove('SEIZED', 'PROCESSING')).toBe(false)
    expect(mayMove('TIME_OUT_SELF_EXCLUSION', 'SEIZED')).toBe(false)
    expect(mayMove('OPENED', 'NOPE')).toBe(false)
  })
})
