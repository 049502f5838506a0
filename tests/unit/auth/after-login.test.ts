import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileDocument, type DocumentProblem } from '../../../tools/schema-lint/documents/loader'
import { createEngineStores, type StorageLike, type UserData } from '../../../engine/core/stores'
import { runAfterLogin, type AfterLoginRule } from '../../../engine/auth/after-login'
import { SITES } from '../../support/sites'

const SCHEMAS = resolve(import.meta.dirname, '../../../schemas')
const DAY = 86_400_000
const NOW = Date.UTC(2025, 5, 1)

function rulesOf(jurisdiction: string): AfterLoginRule[] {
  const file = `jurisdictions/${jurisdiction}/jurisdiction.json`
  const problems: DocumentProblem[] = []
  const compiled = compileDocument(JSON.parse(readFileSync(resolve(SCHEMAS, file), 'utf8')), file, problems) as { afterLogin: AfterLoginRule[] }
  expect(problems).toEqual([])
  return compiled.afterLogin
}

const memoryStorage = (): StorageLike => {
  const data = new Map<string, string>()
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }
}

/** Heartbeat data like the server's, with overrides. */
function user(overrides: { state?: string; balance?: number; firstDepositDate?: string | null; legal?: boolean; nickname?: string; personalDomain?: string; lastLoginDate?: string | null; declined?: boolean } = {}): UserData {
  return {
    user: { id: '7', account: { lastLoginDate: overrides.lastLoginDate ?? null } },
    punterToken: 'punter-7',
    balanceInfo: { mainBalance: overrides.balance ?? 150, withdrawable: 0 },
    punterInfo: { state: overrides.state ?? 'OPENED', details: { nickname: overrides.nickname ?? 'Lucky', address: { countryCode: 'CW' } } },
    settings: { siteSettings: [{ siteType: 'MOBILE', personalDomain: overrides.personalDomain ?? null }] },
    legalAgreementAccepted: overrides.legal ?? true,
    legalAgreementDeclined: overrides.declined ?? false,
    firstDepositDate: overrides.firstDepositDate === undefined ? '2024-01-01' : overrides.firstDepositDate,
    selfExcludeSettings: { endDate: '2025-07-01T00:00:00.000Z' },
  }
}

function setup(jurisdiction = 'curacao', options: { nicknameEnabled?: boolean; section?: string; flags?: Record<string, unknown>; storage?: StorageLike } = {}) {
  const stores = createEngineStores()
  stores.site.getState().setBootstrap({
    site: { id: jurisdiction, jurisdiction, name: jurisdiction, defaultLocale: 'en', locales: ['en'], currency: 'USD', minimumAge: 18, mainProduct: 'sport', development: true },
    remoteConfig: { NULL_BALANCE_POPUP_TIMEOUT: DAY, STATE_MATRIX: { PERSONALDETAILS: ['OPENED', 'REQUIRED', 'PROCESSING', 'NEED_DOCUMENT'], BETTING: ['OPENED'] } },
    routes: [],
    documentsVersion: 'v',
    version: '1.22.0',
  })
  if (options.section) stores.route.getState().setRoute({ section: options.section })
  if (options.flags) stores.flags.getState().setValues(options.flags)
  const clock = { now: NOW }
  const loggedOut: string[] = []
  const storage = options.storage ?? memoryStorage()
  const run = (data: UserData) => {
    stores.user.getState().setUser(data)
    stores.ui.getState().closeAllPopups()
    return runAfterLogin(rulesOf(jurisdiction), {
      stores,
      now: () => clock.now,
      storage,
      checks: { nicknameEnabled: async () => options.nicknameEnabled ?? true },
      logout: async ({ popup }) => void loggedOut.push(popup),
    })
  }
  return { stores, clock, run, loggedOut, storage }
}

describe('after-login rules from the jurisdiction document (spec §4 after login, §5)', () => {
  it('an ordinary punter sees nothing', async () => {
    expect((await setup().run(user())).opened).toEqual([])
  })

  it.each([
    ['SELF_EXCLUDED', 'self-exclude'],
    ['PLAYER_PROTECTION_MEASURE', 'player-protection-measure'],
    ['SUSPENDED', 'user-suspended'],
    ['NEED_DOCUMENT', 'user-needs-document'],
  ])('state %s opens %s', async (state, popup) => {
    const { run, stores } = setup()
    expect((await run(user({ state }))).opened).toEqual([popup])
    expect(stores.ui.getState().popups.map((p) => p.id)).toEqual([popup])
  })

  it('the self-exclude popup gets the end date as a param', async () => {
    const { run, stores } = setup()
    await run(user({ state: 'SELF_EXCLUDED' }))
    expect(stores.ui.getState().popups[0].params).toEqual({ endDate: '2025-07-01T00:00:00.000Z' })
  })

  it.each([
    ['CLOSED', 'account-closed'],
    ['BLOCKED_ID_UPLOAD', 'logged-out-blocked-user'],
  ])('state %s logs out showing %s and stops', async (state, popup) => {
    const { run, loggedOut } = setup()
    const outcome = await run(user({ state, balance: 0, firstDepositDate: null }))
    expect(outcome).toEqual({ opened: [popup], loggedOut: true })
    expect(loggedOut).toEqual([popup])
  })

  it('null balance without a deposit: null-balance, then the welcome offer; null-balance again only after NULL_BALANCE_POPUP_TIMEOUT, the welcome offer once', async () => {
    const { run, clock } = setup()
    const zero = user({ balance: 0, firstDepositDate: null })
    expect((await run(zero)).opened).toEqual(['null-balance', 'welcome-bonus'])
    clock.now += DAY - 1
    expect((await run(zero)).opened).toEqual([])
    clock.now += 1
    expect((await run(zero)).opened).toEqual(['null-balance'])
  })

  it('zero balance after a deposit shows neither', async () => {
    expect((await setup().run(user({ balance: 0 }))).opened).toEqual([])
  })

  it('legal agreement: shown while not accepted, not after a decline', async () => {
    const { run } = setup()
    expect((await run(user({ legal: false }))).opened).toEqual(['legal-agreement'])
    expect((await run(user({ legal: false, declined: true }))).opened).toEqual([])
  })

  it('personal domain: once per punter on this browser, with the domain as a param', async () => {
    const { run, stores } = setup()
    expect((await run(user({ personalDomain: 'lucky.example' }))).opened).toEqual(['personal-domain'])
    expect(stores.ui.getState().popups[0].params).toEqual({ domain: 'lucky.example' })
    expect((await run(user({ personalDomain: 'lucky.example' }))).opened).toEqual([])
  })

  it('last login date: Spain and Italy, not Curaçao', async () => {
    const last = user({ lastLoginDate: '2025-05-30T10:00:00.000Z' })
    expect((await setup('spain').run(last)).opened).toEqual(['last-login-date'])
    expect((await setup('italy').run(last)).opened).toEqual(['last-login-date'])
    expect((await setup('curacao').run(last)).opened).toEqual([])
  })

  it('nickname prompt: empty nickname, state in PERSONALDETAILS, hiding flag off, and the server says enabled', async () => {
    expect((await setup().run(user({ nickname: '' }))).opened).toEqual(['nickname-required'])
    expect((await setup('curacao', { nicknameEnabled: false }).run(user({ nickname: '' }))).opened).toEqual([])
    expect((await setup('curacao', { flags: { hideNicknameFill: true } }).run(user({ nickname: '' }))).opened).toEqual([])
    expect((await setup().run(user({ nickname: '', state: 'SUSPENDED' }))).opened).toEqual(['user-suspended'])
  })

  it.each(['spain', 'russia', 'italy'])('no nickname prompt in %s', async (jurisdiction) => {
    expect((await setup(jurisdiction).run(user({ nickname: '' }))).opened).not.toContain('nickname-required')
  })

  it('reality check: casino products, flag on, active punter with the agreement accepted', async () => {
    expect((await setup('curacao', { section: 'casino', flags: { realityCheck: true } }).run(user())).opened).toEqual(['reality-check-required'])
    expect((await setup('curacao', { section: 'sport', flags: { realityCheck: true } }).run(user())).opened).toEqual([])
    expect((await setup('curacao', { section: 'live-casino' }).run(user())).opened).toEqual([])
  })

  // issue 31: "Later" was followed by the same prompt on every casino page load
  it.each(SITES)(
    '%s: the reality-check prompt asks at most once per the shortest interval the jurisdiction offers, then again',
    async (jurisdiction) => {
      const doc = JSON.parse(readFileSync(resolve(SCHEMAS, `jurisdictions/${jurisdiction}/jurisdiction.json`), 'utf8')) as { regulatory: { realityCheck: { timeoutsMinutes: number[] } } }
      const interval = Math.min(...doc.regulatory.realityCheck.timeoutsMinutes) * 60_000
      const { run, clock } = setup(jurisdiction, { section: 'casino', flags: { realityCheck: true } })
      const asked = async () => (await run(user())).opened.includes('reality-check-required')
      expect(await asked()).toBe(true)
      for (const later of [1_000, interval / 2, interval - 1_000]) {
        clock.now = NOW + later
        expect(await asked(), `${later} ms later`).toBe(false)
      }
      clock.now = NOW + interval
      expect(await asked()).toBe(true)
      clock.now = NOW + interval + 60_000
      expect(await asked()).toBe(false)
    },
  )
})
