/**
 * Identity, documents and nickname over HTTP (issue 13 items 4–5; spec §3 identity verification
 * and document types, §5 nickname rules, §7 identity calls, §8 identification errors): the real
 * server with the simulators on, demo punters logged in by password, an injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setProfileFields } from '../../server/punters/lookups'
import { startTestServer, type TestServer } from '../support/server'
import { GATE, startHarness, type Harness } from './signup/helpers'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
}, 60_000)
afterAll(async () => {
  await h.server.dispose()
})

async function logIn(site: string, login: string): Promise<Record<string, string>> {
  const res = await h.call(site, 'POST', '/auth/v2/login', { login, password: 'parlay-demo-1' })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { 'punter-session-hash': res.body.payload.punterHash as string }
}

const setNickname = (auth: Record<string, string>, nickname: unknown, site = 'curacao') => h.call(site, 'PUT', '/nickname', { nickname }, auth)
/** The punter's nickname, read through the query layer (the punters table may be on PostgreSQL). */
const nicknameOf = async (email: string) => (await h.server.deps.data.db.selectFrom('punters').select('nickname').where('email', '=', email).executeTakeFirstOrThrow()).nickname

/** A form post to a simulator page, redirects not followed: the Location it answers. */
async function simulatorPost(path: string, fields: Record<string, string>): Promise<URL> {
  const res = await fetch(h.server.url + path, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })
  expect(res.status).toBe(303)
  return new URL(res.headers.get('location')!, h.server.url)
}

describe('nickname (spec §5: 3–33 characters starting with a letter; §8 NICKNAME_ALREADY_EXIST)', () => {
  it('the no-nickname punter sets one; it is trimmed, shown in the heartbeat and works as a login', async () => {
    const auth = await logIn('curacao', 'no-nickname@demo.parlay.test')
    expect((await h.call('curacao', 'GET', '/nickname/enabled', undefined, auth)).body.payload).toBe(true)
    const saved = await setNickname(auth, '  Lucky_Ana  ')
    expect([saved.status, saved.body.payload]).toEqual([200, { nickname: 'Lucky_Ana' }])
    const heartbeat = await h.call('curacao', 'GET', '/heartbeat', undefined, auth)
    expect(heartbeat.body.payload.punterInfo.details.nickname).toBe('Lucky_Ana')
    expect((await h.call('curacao', 'POST', '/auth/v2/login', { login: 'Lucky_Ana', password: 'parlay-demo-1' })).status).toBe(200)
  })

  it('refuses fewer than 3 or more than 33 characters and a first character that is not a letter, with the field and rule', async () => {
    const auth = await logIn('curacao', 'legal@demo.parlay.test')
    const code = async (nickname: string) => {
      const res = await setNickname(auth, nickname)
      return `${res.status} ${res.body.errorCode} ${res.body.payload?.field}:${res.body.payload?.code}`
    }
    expect(await code('Ab')).toBe('400 ValidationError nickname:minLength')
    expect(await code('   Ab   ')).toBe('400 ValidationError nickname:minLength')
    expect(await code(`A${'b'.repeat(33)}`)).toBe('400 ValidationError nickname:maxLength')
    expect(await code('7Lucky')).toBe('400 ValidationError nickname:pattern')
    expect(await code('_Lucky')).toBe('400 ValidationError nickname:pattern')
    expect(await code('Lucky star')).toBe('400 ValidationError nickname:pattern')
    expect((await setNickname(auth, `Ж${'ы'.repeat(32)}`)).status).toBe(200) // 33 letters of any script
    expect((await setNickname(auth, 'Abc')).status).toBe(200)
  })

  it("another punter's nickname, in any letter case, is NICKNAME_ALREADY_EXIST (409) and nothing changes", async () => {
    const auth = await logIn('curacao', 'domain@demo.parlay.test')
    const taken = await setNickname(auth, 'highroller')
    expect([taken.status, taken.body.errorCode, taken.body.payload]).toEqual([409, 'NICKNAME_ALREADY_EXIST', { field: 'nickname', code: 'NICKNAME_ALREADY_EXIST' }])
    expect(await nicknameOf('domain@demo.parlay.test')).toBe('PersonalDomain')
    // one's own nickname in another case is a change, not a clash
    expect((await setNickname(auth, 'personaldomain')).body.payload).toEqual({ nickname: 'personaldomain' })
  })

  it('where the jurisdiction document skips the nickname (Curaçao for JP; Russia), enabled is false and setting one is FORBIDDEN', async () => {
    const japan = await logIn('curacao', 'japan@demo.parlay.test')
    expect((await h.call('curacao', 'GET', '/nickname/enabled', undefined, japan)).body.payload).toBe(false)
    expect((await setNickname(japan, 'Tanaka')).status).toBe(403)
    const russia = await logIn('russia', 'russia@demo.parlay.test')
    expect((await h.call('russia', 'GET', '/nickname/enabled', undefined, russia)).body.payload).toBe(false)
    expect([(await setNickname(russia, 'Ivan', 'russia')).status, await nicknameOf('russia@demo.parlay.test')]).toEqual([403, null])
  })

  it('bad input is a 4xx in the envelope: no session, not a string, extra fields, not JSON', async () => {
    const auth = await logIn('curacao', 'vip@demo.parlay.test')
    expect((await setNickname({}, 'Someone')).status).toBe(401)
    for (const body of [{ nickname: 42 }, { nickname: null }, {}, { nickname: 'Valid1', admin: true }, [] as unknown]) {
      const res = await h.call('curacao', 'PUT', '/nickname', body, auth)
      expect([res.status, res.body.status], JSON.stringify(body)).toEqual([400, 'ERROR'])
    }
    const text = await h.call('curacao', 'PUT', '/nickname', 'nickname=x', { ...auth, 'content-type': 'text/plain' })
    expect([text.status, text.body.status]).toEqual([415, 'ERROR'])
    expect(await nicknameOf('vip@demo.parlay.test')).toBe('HighRoller')
  })
})

describe('nickname policy has one source: the jurisdiction document', () => {
  it('removing JP from Curaçao skipCountries in the document turns the prompt on for the Japanese punter', async () => {
    const server = await startTestServer({ development: true })
    try {
      const { readFileSync, writeFileSync } = await import('node:fs')
      const file = `${server.documentsDir}/jurisdictions/curacao/jurisdiction.json`
      const doc = JSON.parse(readFileSync(file, 'utf8'))
      expect(doc.nickname.skipCountries).toEqual(['JP', 'KR', 'BY', 'NG'])
      await server.close()
      doc.nickname.skipCountries = ['KR', 'BY', 'NG']
      writeFileSync(file, JSON.stringify(doc, null, 2))
      const edited = await startTestServer({ development: true, documentsDir: server.documentsDir })
      try {
        const call = (path: string, init: RequestInit = {}) => fetch(`${edited.url}${GATE}${path}`, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } }).then((r) => r.json())
        const login = await call('/auth/v2/login', { method: 'POST', body: JSON.stringify({ login: 'japan@demo.parlay.test', password: 'parlay-demo-1' }) })
        const enabled = await call('/nickname/enabled', { headers: { 'punter-session-hash': login.payload.punterHash } })
        expect(enabled.payload).toBe(true)
      } finally {
        await edited.dispose()
      }
    } finally {
      await server.dispose().catch(() => undefined)
    }
  }, 120_000)
})

describe("Curaçao sign-up's nickname field follows the same policy", () => {
  it('dictionary/settings serves skipCountries also as the country ids the forms hold, and the served flow carries the compiled field condition', async () => {
    const settings = await h.call('curacao', 'GET', '/dictionary/settings')
    expect(settings.body.payload.nickname).toMatchObject({ enabled: true, skipCountries: ['JP', 'KR', 'BY', 'NG'], skipCountryIds: [1016, 1118, 225, 1407] })
    expect((await h.call('spain', 'GET', '/dictionary/settings')).body.payload.nickname).toEqual({ enabled: false, skipCountryIds: [] })
    const flow = await h.call('curacao', 'GET', '/api/documents/flow/signup-phone')
    const step = (flow.body.document ?? flow.body).steps.find((s: { schema: { properties: Record<string, unknown> } }) => 'nickname' in s.schema.properties)
    expect(step.uiSchema.nickname['ui:when']).toMatchObject({ cel: expect.stringContaining('skipCountryIds') })
  })
})

describe('document upload (spec §3 identity document types)', () => {
  const upload = async (auth: Record<string, string>, parts: { documentType?: string; bytes?: Uint8Array; name?: string; type?: string }) => {
    const form = new FormData()
    if (parts.documentType !== undefined) form.set('documentType', parts.documentType)
    if (parts.bytes) form.set('document', new Blob([parts.bytes as unknown as BlobPart], { type: parts.type ?? 'application/octet-stream' }), parts.name ?? 'doc.bin')
    const res = await fetch(`${h.server.url}${GATE}/punter/documents/upload`, { method: 'POST', body: form, headers: { 'x-parlay-target': 'curacao', ...auth } })
    return { status: res.status, body: await res.json() }
  }
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46])
  const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n')

  it('each of the six document types is accepted as a JPEG or PDF and the heartbeat says UPLOADED', async () => {
    const auth = await logIn('curacao', 'need-document@demo.parlay.test')
    expect((await h.call('curacao', 'GET', '/heartbeat', undefined, auth)).body.payload.documentsUploadState).toBe('REQUIRED')
    for (const [i, documentType] of ['ID_CARD', 'DRIVING_LICENSE', 'PASSPORT', 'AT_PERSONAL_ID_CARD', 'BT_PERSONAL_ID_CARD', 'FIREARMS_LICENSE'].entries()) {
      const res = await upload(auth, { documentType, bytes: i % 2 ? pdf : jpeg, type: i % 2 ? 'application/pdf' : 'image/jpeg' })
      expect([res.status, res.body.payload?.documentsUploadState], documentType).toEqual([200, 'UPLOADED'])
    }
    const heartbeat = (await h.call('curacao', 'GET', '/heartbeat', undefined, auth)).body.payload
    expect([heartbeat.documentsUploadState, heartbeat.needUploadDocuments]).toEqual(['UPLOADED', false])
  })

  it('refuses an unknown document type, a missing file, a GIF named .jpg (415) and 5 MB + 1 byte (413)', async () => {
    const auth = await logIn('curacao', 'opened@demo.parlay.test')
    const badType = await upload(auth, { documentType: 'LIBRARY_CARD', bytes: jpeg })
    expect([badType.status, badType.body.errorCode, badType.body.payload]).toEqual([400, 'ValidationError', { field: 'documentType', code: 'enum' }])
    const noFile = await upload(auth, { documentType: 'PASSPORT' })
    expect([noFile.status, noFile.body.payload]).toEqual([400, { field: 'document', code: 'required' }])
    const gif = await upload(auth, { documentType: 'PASSPORT', bytes: new TextEncoder().encode('GIF89a....'), name: 'passport.jpg', type: 'image/jpeg' })
    expect([gif.status, gif.body.errorCode]).toEqual([415, 'UNSUPPORTED_FILE_TYPE'])
    const big = new Uint8Array(5 * 1024 * 1024 + 1)
    big.set(jpeg)
    const tooBig = await upload(auth, { documentType: 'PASSPORT', bytes: big, type: 'image/jpeg' })
    expect([tooBig.status, tooBig.body.errorCode]).toEqual([413, 'FILE_TOO_LARGE'])
    expect((await h.call('curacao', 'GET', '/heartbeat', undefined, auth)).body.payload.documentsUploadState).toBe('NONE')
  })
})

describe('Russian identification (spec §3 identity verification, §7 identity service)', () => {
  it('agreement data names what goes to the identification service; only on the Russian site', async () => {
    const auth = await logIn('russia', 'russia@demo.parlay.test')
    const agreement = await h.call('russia', 'GET', '/punter/cps/agreement-data', undefined, auth)
    expect(agreement.body.payload).toMatchObject({ processor: 'TSUPIS', purpose: 'identification', personalData: expect.arrayContaining(['passportNumber', 'birthDay']) })
    const curacao = await logIn('curacao', 'opened@demo.parlay.test')
    expect((await h.call('curacao', 'GET', '/punter/cps/agreement-data', undefined, curacao)).status).toBe(403)
    expect((await h.call('russia', 'GET', '/punter/cps/agreement-data')).status).toBe(401)
  })

  it('ESIA: full identification gives a link to the portal; approving there binds at level full, once per state', async () => {
    const auth = await logIn('russia', 'russia@demo.parlay.test')
    const started = await h.call('russia', 'POST', '/punter/cps/one/identify-punter/esia/full', undefined, auth)
    expect(started.body.payload.cupisOneInfo).toMatchObject({ result: 'data_requested', method: 'ESIA_Full' })
    const link = new URL(started.body.payload.identificationLink, h.server.url)
    expect(link.pathname).toBe('/dev/identity/esia')
    const page = await fetch(link)
    expect([page.status, (await page.text()).includes('data-testid="esia-approve"')]).toEqual([200, true])
    const state = link.searchParams.get('state')!
    const back = await simulatorPost('/dev/identity/esia', { state, decision: 'approve' })
    expect(back.pathname + back.search).toBe('/account/tsupis/identity?esia=approved')
    const info = await h.call('russia', 'GET', '/punter/cps/one/info', undefined, auth)
    expect(info.body.payload.cupisOneInfo).toMatchObject({ result: 'bind', level: 'full', identified: true })
    const replay = await simulatorPost('/dev/identity/esia', { state, decision: 'approve' })
    expect(replay.search).toBe('?esia=unknown')
  })

  it('ESIA refused on the portal: the identification fails with ExternalError', async () => {
    const auth = await logIn('russia', 'russia@demo.parlay.test')
    // a punter not identified yet (the demo punter starts at simple_success)
    const russian = await h.server.deps.data.db.selectFrom('punters').select('id').where('email', '=', 'russia@demo.parlay.test').executeTakeFirstOrThrow()
    await setProfileFields(h.server.deps.data, russian.id, h.clock.now, { identity: undefined }, { identity_state: 'none' })
    const started = await h.call('russia', 'POST', '/punter/cps/one/identify-punter/esia/full', undefined, auth)
    const state = new URL(started.body.payload.identificationLink, h.server.url).searchParams.get('state')!
    expect((await simulatorPost('/dev/identity/esia', { state, decision: 'refuse' })).search).toBe('?esia=refused')
    const info = await h.call('russia', 'GET', '/punter/cps/one/info', undefined, auth)
    expect(info.body.payload).toMatchObject({ baseResult: { status: 'ERROR', errorCode: 'ExternalError' }, cupisOneInfo: { result: 'fail', identified: false } })
  })

  it('passport data that breaks the rules is a ValidationError naming the field; an under-age birth date locks with reason age', async () => {
    const auth = await logIn('russia', 'russia@demo.parlay.test')
    const passport = { lastName: 'Петров', firstName: 'Пётр', birthDay: '1980-03-04', passportSeries: '4510', passportNumber: '654321', passportIssueDate: '2005-01-01' }
    for (const [patch, field] of [[{ passportSeries: '45' }, 'passportSeries'], [{ passportNumber: 'abcdef' }, 'passportNumber'], [{ birthDay: '1980-13-40' }, 'birthDay'], [{ inn: '1' }, 'inn']] as const) {
      const res = await h.call('russia', 'POST', '/punter/cps/one/identify-punter/simplified', { ...passport, ...patch }, auth)
      expect([res.status, res.body.errorCode, res.body.payload?.field]).toEqual([400, 'ValidationError', field])
    }
    const young = new Date(h.clock.now - 16 * 365.25 * 86_400_000).toISOString().slice(0, 10)
    const locked = await h.call('russia', 'POST', '/punter/cps/one/identify-punter/simplified', { ...passport, birthDay: young }, auth)
    expect(locked.body.payload.cupisOneInfo).toMatchObject({ result: 'fail', clientStatus: 'locked', error: 'IncorrectBirthDate', lockReason: 'age' })
  })
})

describe('auto-verification (spec §7 verification/start-punter-auto-verification; states STARTED…UNKNOWN)', () => {
  it('start gives a link and STARTED; the service answers CONFIRMED and a second start says CONFIRMED without a link', async () => {
    const auth = await logIn('curacao', 'protection@demo.parlay.test')
    const started = await h.call('curacao', 'POST', '/verification/start-punter-auto-verification', undefined, auth)
    expect(started.body.payload.autoVerificationState).toBe('STARTED')
    const link = new URL(started.body.payload.link, h.server.url)
    expect(link.pathname).toBe('/dev/identity/auto-verification')
    const back = await simulatorPost('/dev/identity/auto-verification', { state: link.searchParams.get('state')!, outcome: 'CONFIRMED' })
    expect(back.pathname + back.search).toBe('/account/id-confirmation?autoVerification=CONFIRMED')
    const again = await h.call('curacao', 'POST', '/verification/start-punter-auto-verification', undefined, auth)
    expect(again.body.payload).toEqual({ link: null, autoVerificationState: 'CONFIRMED' })
  })

  it('UNCONFIRMED and CLOSED come back as such; an unknown state or answer comes back UNKNOWN', async () => {
    const auth = await logIn('curacao', 'suspended@demo.parlay.test')
    const state = async () => new URL((await h.call('curacao', 'POST', '/verification/start-punter-auto-verification', undefined, auth)).body.payload.link, h.server.url).searchParams.get('state')!
    expect((await simulatorPost('/dev/identity/auto-verification', { state: await state(), outcome: 'UNCONFIRMED' })).search).toBe('?autoVerification=UNCONFIRMED')
    expect((await simulatorPost('/dev/identity/auto-verification', { state: await state(), outcome: 'CLOSED' })).search).toBe('?autoVerification=CLOSED')
    expect((await simulatorPost('/dev/identity/auto-verification', { state: 'made-up', outcome: 'CONFIRMED' })).search).toBe('?autoVerification=UNKNOWN')
    expect((await simulatorPost('/dev/identity/auto-verification', { state: await state(), outcome: 'HACKED' })).search).toBe('?autoVerification=UNKNOWN')
    expect((await h.call('curacao', 'POST', '/verification/start-punter-auto-verification')).status).toBe(401)
  })
})

describe('production without simulators', () => {
  it('auto-verification and the portal pages are not there: 503 SERVICE_UNAVAILABLE and 404', async () => {
    const server = await startTestServer()
    try {
      const login = await (await fetch(`${server.url}${GATE}/auth/v2/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }) })).json()
      const start = await fetch(`${server.url}${GATE}/verification/start-punter-auto-verification`, { method: 'POST', headers: { 'punter-session-hash': login.payload.punterHash } })
      expect([start.status, (await start.json()).errorCode]).toEqual([503, 'SERVICE_UNAVAILABLE'])
      expect((await fetch(`${server.url}/dev/identity/esia?state=x`)).status).toBe(404)
    } finally {
      await server.dispose()
    }
  }, 120_000)
})
