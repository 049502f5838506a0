/**
 * Issue 19 item 3: the studio previews a draft as a chosen demo punter. The preview carries that
 * punter's state (heartbeat, restrictions) through a read-only preview session: the admin is not
 * logged in as the punter (no punter session is opened, nothing is written on the account), any
 * write with it is refused, only the admin session that asked gets it, it ends with that session,
 * its page's punter socket lives as long as it does, and each preview as a punter is in the audit
 * log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, apiCaller, DEMO_PASSWORD, type Call } from '../../support/api'
import { rawRequest } from '../../support/server'
import { openSocketClient } from '../../support/socket-client'
import { OPERATOR, signIn, type AdminClient, type TestServer, startWithReviewers } from './support'

const MENU = 'menus/left-menu.json'
const VIP = '10000008'
const SPAIN_PUNTER = '20000001'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
let content: string
let gate: Call

beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers())
  gate = apiCaller(`http://127.0.0.1:${server.port}`, addresses(77))
  content = (await operator.get(`/admin/api/document?file=${encodeURIComponent(MENU)}`)).json().payload.published.content
}, 60000)
afterAll(() => server?.dispose())

const siteOf = async (jurisdiction: string) => ((await operator.get('/admin/api/studio/sites')).json().payload as { id: string; jurisdiction: string }[]).find((s) => s.jurisdiction === jurisdiction)!.id
const cookiesOf = (res: { headers: Record<string, unknown> }) => ([] as string[]).concat((res.headers['set-cookie'] as string[]) ?? []).map((c) => c.split(';')[0])

/** A preview as `punter` on `jurisdiction`'s site; its token and the page's preview session. */
async function previewAs(admin: AdminClient, jurisdiction: string, punter?: string) {
  const res = await admin.post('/admin/api/studio/preview', { file: MENU, content, site: await siteOf(jurisdiction), ...(punter ? { punter } : {}) })
  expect(res.status, res.body).toBe(200)
  const token = res.json().payload.token as string
  const cookie = cookiesOf(res)[0]
  const session = await rawRequest(server.port, { method: 'GET', path: `/api/preview/session?preview=${token}`, headers: { cookie } })
  return { token, cookie, session }
}
const punterRow = (account: string) => server.deps.data.db.selectFrom('punters').selectAll().where('account_number', '=', account).executeTakeFirst()
/** Sessions through the query layer: on PostgreSQL they are not in the server's SQLite file. */
const punterSessions = async () => (await server.deps.data.db.selectFrom('auth_sessions').select('id').execute()).length

describe('previewing as a demo punter', () => {
  it('lists the demo punters a preview can show, with what each one shows', async () => {
    const punters = (await operator.get('/admin/api/studio/punters')).json().payload as { accountNumber: string; jurisdiction: string; shows: string }[]
    expect(punters.find((p) => p.accountNumber === VIP)).toMatchObject({ jurisdiction: 'curacao', shows: expect.stringMatching(/VIP/) })
    expect(punters.find((p) => p.accountNumber === SPAIN_PUNTER)).toMatchObject({ jurisdiction: 'spain' })
  })

  it("the preview page gets a session that answers the VIP's heartbeat (balance, VIP flag), without opening a punter session or writing on the account", async () => {
    const before = { row: await punterRow(VIP), sessions: await punterSessions() }
    const { session } = await previewAs(operator, 'curacao', VIP)
    expect(session.status, session.body).toBe(200)
    const { sessionHash, accessToken } = session.json().payload.session
    const heartbeat = await gate('GET', 'heartbeat', { hash: sessionHash, site: await siteOf('curacao'), headers: { authorization: `Bearer ${accessToken}` } })
    expect(heartbeat.status, heartbeat.text).toBe(200)
    expect(JSON.stringify(heartbeat.json.payload)).toContain('HighRoller')
    expect(heartbeat.json.payload.balanceInfo ?? heartbeat.json.payload).toBeTruthy()
    expect(JSON.stringify(heartbeat.json.payload)).toMatch(/25000|2500000/)
    expect({ row: await punterRow(VIP), sessions: await punterSessions() }).toEqual(before)
  })

  it('refuses every write made with the preview session (403 PREVIEW_READ_ONLY): settings, logout, a bet', async () => {
    const { session } = await previewAs(operator, 'curacao', VIP)
    const { sessionHash } = session.json().payload.session
    const before = await punterRow(VIP)
    for (const [method, path, body] of [
      ['PUT', 'punter/settings', { locale: 'es' }],
      ['POST', 'auth/logout', {}],
      ['POST', '/api/bets', { selections: [] }],
    ] as const) {
      const res = await gate(method, path, { hash: sessionHash, body })
      expect([res.status, res.json?.errorCode], `${method} ${path}`).toEqual([403, 'PREVIEW_READ_ONLY'])
    }
    expect(await punterRow(VIP)).toEqual(before)
  })

  it('a guest preview has no session; a punter of another site, an unknown or malformed account number is a 400', async () => {
    expect((await previewAs(operator, 'curacao')).session.json().payload.session).toBeNull()
    for (const [jurisdiction, punter] of [['spain', VIP], ['curacao', '99999999'], ['curacao', 'abc']])
      expect((await operator.post('/admin/api/studio/preview', { file: MENU, content, site: await siteOf(jurisdiction), punter })).status).toBe(400)
  })

  it("only the admin session that asked gets the preview session, and it ends when that session logs out", async () => {
    const { token, session } = await previewAs(compliance, 'spain', SPAIN_PUNTER)
    const { sessionHash } = session.json().payload.session
    expect((await rawRequest(server.port, { method: 'GET', path: `/api/preview/session?preview=${token}` })).json()).toMatchObject({ status: 'ERROR', errorCode: 'PREVIEW_REFUSED' })
    expect((await rawRequest(server.port, { method: 'GET', path: `/api/preview/session?preview=${token}`, headers: { cookie: operator.cookie } })).status).toBe(403)
    expect((await gate('GET', 'heartbeat', { hash: sessionHash, site: await siteOf('spain') })).status).toBe(200)
    await compliance.post('/admin/api/logout')
    expect((await gate('GET', 'heartbeat', { hash: sessionHash, site: await siteOf('spain') })).status).toBe(401)
  })

  it("the preview page's punter socket outlives the socket server's session sweep while the preview lives, and is ended with accountLogout when the admin signs out", async () => {
    // An admin session of its own: signing it out must not end the other tests' previews.
    const admin = await signIn(server, OPERATOR)
    const { session } = await previewAs(admin, 'curacao', VIP)
    const { sessionHash, accessToken } = session.json().payload.session
    const preview = await openSocketClient(server.port, '/sockets/v2/punter?channel=web')
    preview.send({ type: 'AUTH', punterHash: sessionHash, accessToken })
    expect((await preview.next((f) => f.type === 'AUTH' || f.type === 'ERROR')).type).toBe('AUTH')
    // A witness: a real punter session whose socket authenticated after the preview's. Its logout
    // is seen by the next sweep, which checks every open socket's session, the preview's with it.
    const login = await gate('POST', 'auth/v2/login', { body: { login: 'opened@demo.parlay.test', password: DEMO_PASSWORD } })
    expect(login.json?.status, login.text).toBe('OK')
    const witness = await openSocketClient(server.port, '/sockets/v2/punter?channel=web')
    witness.send({ type: 'AUTH', punterHash: login.json.payload.punterHash, accessToken: login.json.payload.accessToken })
    await witness.next((f) => f.type === 'AUTH')
    expect((await gate('POST', 'auth/logout', { hash: login.json.payload.punterHash })).status).toBe(200)
    expect((await witness.next((f) => f.type === 'accountLogout')).payload).toEqual({ reason: 'SOCKET' })
    // That sweep's verdicts were all in before it ended the witness: anything it sent the preview
    // came first (a closed socket answers no ping: its close ends the wait instead).
    await Promise.race([preview.roundTrip(), preview.closed])
    expect(preview.frames.filter((f) => f.type === 'accountLogout')).toEqual([])
    expect(preview.socket.readyState).toBe(preview.socket.OPEN)

    await admin.post('/admin/api/logout')
    expect((await preview.next((f) => f.type === 'accountLogout')).payload).toEqual({ reason: 'SOCKET' })
    expect(await preview.closed).toBe(4001)
  })

  it('each preview as a punter is audited: who, which punter, which site and document', async () => {
    await previewAs(operator, 'curacao', VIP)
    const log = (await operator.get('/admin/api/audit?limit=50')).json().payload as { action: string; actor: string; subject: string; details: Record<string, unknown> }[]
    expect(log.find((e) => e.action === 'studio.preview-as-punter')).toMatchObject({ actor: OPERATOR.email, subject: MENU, details: { punter: VIP, nickname: 'HighRoller', site: await siteOf('curacao') } })
  })
})
