/**
 * Admin accounts and sessions on the query layer (issue 16) hold the same rules on both engines:
 * SQLite (no DATABASE_URL) and a throw-away PostgreSQL (tests/support/postgres.ts). On PostgreSQL also: two instances on one database share
 * sessions, so a sign-in on one is recognised on the other and a sign-out on either ends it (and
 * the previews it made on the other).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_MS } from '../../../server/admin/accounts'
import { engines, type OnEngine, type Pair } from '../../support/postgres'
import { rawRequest } from '../../support/server'
import { OPERATOR, signIn, startTestServer, type TestServer } from './support'

const { havePostgres, each: ENGINES, on: onEngine, pair } = engines()

interface ClockedServer {
  server: TestServer
  clock: { now: number }
  dispose(): Promise<void>
}

async function serverOn(on: OnEngine): Promise<ClockedServer> {
  const clock = { now: Date.parse('2026-11-27T09:00:00Z') }
  const server = await startTestServer({ now: () => clock.now, ...on })
  return { server, clock, dispose: () => server.dispose() }
}

const sessionOf = (server: TestServer, cookie: string) => rawRequest(server.port, { path: '/admin/api/session', headers: { cookie } })

describe.each(ENGINES)('admin sessions on %s', (engine, runs) => {
  let s: ClockedServer
  beforeAll(async () => {
    if (runs) s = await serverOn(await onEngine(engine))
  }, 90_000)
  afterAll(async () => s?.server.dispose())

  it.runIf(runs)('a signed-in admin is recognised until the session is 8 hours old, then answered 401', async () => {
    expect(s.server.deps.data.engine).toBe(engine)
    const operator = await signIn(s.server, OPERATOR)
    expect((await sessionOf(s.server, operator.cookie)).json().payload.user.email).toBe(OPERATOR.email)
    s.clock.now += SESSION_MS - 1
    expect((await sessionOf(s.server, operator.cookie)).status).toBe(200)
    s.clock.now += 1
    expect((await sessionOf(s.server, operator.cookie)).status).toBe(401)
  })

  it.runIf(runs)('the e-mail is matched whatever its case; a wrong password is 401 INVALID_CREDENTIALS', async () => {
    expect((await signIn(s.server, { ...OPERATOR, email: OPERATOR.email.toUpperCase() })).csrf).toBeTruthy()
    const wrong = await rawRequest(s.server.port, { method: 'POST', path: '/admin/api/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: OPERATOR.email, password: 'not-it' }) })
    expect(wrong.status).toBe(401)
    expect(wrong.json()).toEqual({ status: 'ERROR', errorCode: 'INVALID_CREDENTIALS' })
  })

  it.runIf(runs)('signing out ends that session only', async () => {
    const first = await signIn(s.server, OPERATOR)
    const second = await signIn(s.server, OPERATOR)
    expect((await first.post('/admin/api/logout')).status).toBe(200)
    expect((await sessionOf(s.server, first.cookie)).status).toBe(401)
    expect((await sessionOf(s.server, second.cookie)).status).toBe(200)
  })
})

describe.runIf(havePostgres)('admin sessions on PostgreSQL across two instances (issue 16)', () => {
  let a: ClockedServer
  let b: ClockedServer
  let instances: Pair<ClockedServer> | undefined
  beforeAll(async () => {
    instances = await pair('postgres', serverOn)
    ;({ a, b } = instances)
  }, 120_000)
  afterAll(async () => instances?.dispose())

  it('both instances seed the demo admins once; a session opened on one is recognised on the other, and a sign-out on the other ends it', async () => {
    const operator = await signIn(a.server, OPERATOR)
    const fromB = await sessionOf(b.server, operator.cookie)
    expect(fromB.status).toBe(200)
    expect(fromB.json().payload.user.email).toBe(OPERATOR.email)
    const logout = await rawRequest(b.server.port, { method: 'POST', path: '/admin/api/logout', headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrf } })
    expect(logout.status).toBe(200)
    expect((await sessionOf(a.server, operator.cookie)).status).toBe(401)
  }, 60_000)
  it('a preview made on A ends as soon as its admin session is gone from the shared database (a sign-out on another instance): A asks the session store, not its own memory', async () => {
    const operator = await signIn(a.server, OPERATOR)
    const menu = 'menus/left-menu.json'
    const content = (await operator.get(`/admin/api/document?file=${encodeURIComponent(menu)}`)).json().payload.published.content
    const sites = (await operator.get('/admin/api/studio/sites')).json().payload as { id: string; jurisdiction: string }[]
    const made = await operator.post('/admin/api/studio/preview', { file: menu, content, site: sites.find((s) => s.jurisdiction === 'curacao')!.id })
    expect(made.status, made.body).toBe(200)
    const token = made.json().payload.token as string
    const cookie = ([] as string[]).concat((made.headers['set-cookie'] as string[]) ?? [])[0].split(';')[0]
    const previewed = () => rawRequest(a.server.port, { path: `/admin/preview/${token}/documents/menu/left-menu`, headers: { cookie } })
    const previewSession = () => rawRequest(a.server.port, { path: `/api/preview/session?preview=${token}`, headers: { cookie } })
    expect((await previewed()).status).toBe(200)
    expect((await previewSession()).status).toBe(200)
    // the sign-out of an instance in another process: its session row is gone from the shared
    // database (an HTTP logout on B would also reach this process's memory, as both test servers
    // share one process, and so could not tell the two designs apart)
    await b.server.deps.data.db.deleteFrom('admin_sessions').execute()
    expect((await previewed()).json()).toEqual({ status: 'ERROR', errorCode: 'PREVIEW_REFUSED', payload: { reason: 'viewer' } })
    expect((await previewSession()).status).toBe(403)
  }, 60_000)
})
