/**
 * `npm start` is the production site: a server started without options has no development route
 * (each one answers 404 or 401), tells the engine not to show its warnings badge, and runs no
 * simulator. The demo turns the simulators on explicitly and reads SMS codes in /admin, where
 * every read is audited. Cookies are HttpOnly and SameSite=Strict, and Secure over TLS.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servedRoutes } from '../../server/auth/openapi'
import { modeFromCommandLine, startupNotice } from '../../server/main'
import { OPERATOR, signIn } from './admin/support'
import { adminSignInRaw } from '../support/admin-sign-in'
import { curacaoBody, GATE } from './signup/helpers'
import { rawRequest, startTestServer, type TestServer } from '../support/server'

let production: TestServer
let development: TestServer
let demo: TestServer

beforeAll(async () => {
  ;[production, development, demo] = await Promise.all([startTestServer(), startTestServer({ development: true }), startTestServer({ simulators: true })])
}, 180_000)
afterAll(() => Promise.all([production, development, demo].map((s) => s?.dispose())))

const keys = (server: TestServer) => servedRoutes(server.app).map((r) => `${r.method} ${r.path}`)
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x')
const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const call = (server: TestServer, method: string, path: string, site = 'curacao', body?: unknown) =>
  rawRequest(server.port, { method, path, headers: { 'x-parlay-target': site, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) })

describe('the default server is production', () => {
  it('startServer without a mode runs production with the simulators off', () => {
    expect(production.deps.config).toMatchObject({ development: false, simulators: false })
    expect(development.deps.config).toMatchObject({ development: true, simulators: true })
  })

  it('every route that exists only in development answers 404 or 401 on the default server', async () => {
    const inProduction = new Set(keys(production))
    const developmentOnly = keys(development).filter((key) => !inProduction.has(key))
    expect(developmentOnly).toEqual(expect.arrayContaining(['get /api/dev/outbox', 'get /dev/outbox', 'get /dev/mitid/authorize', 'post /dev/mitid/authorize']))
    for (const key of developmentOnly) {
      const [method, path] = key.split(' ')
      const res = await rawRequest(production.port, { method: method.toUpperCase(), path: concrete(path), ...(method === 'get' ? {} : json({})) })
      expect([404, 401], `${key} → ${res.status}`).toContain(res.status)
    }
  })

  it('the outbox and the MitID simulator answer 404 in production whatever the method or query', async () => {
    for (const [method, path] of [
      ['GET', '/api/dev/outbox?to=%2B59995101001'],
      ['GET', '/dev/outbox'],
      ['POST', '/dev/outbox'],
      ['GET', '/dev/mitid/authorize?state=x'],
      ['POST', '/dev/mitid/authorize'],
    ])
      expect((await rawRequest(production.port, { method, path })).status, `${method} ${path}`).toBe(404)
  })

  it('the OpenAPI document of the default server lists no development route', async () => {
    const paths = Object.keys((await rawRequest(production.port, { path: '/api/openapi.json' })).json().paths)
    expect(paths).toContain('/admin/api/outbox')
    expect(paths.filter((p) => p.startsWith('/dev') || p.startsWith('/api/dev'))).toEqual([])
  })

  it('the site bootstrap served in production says development: false, so the engine shows no warnings badge', async () => {
    const site = (server: TestServer) => call(server, 'GET', '/api/site').then((r) => r.json())
    expect((await site(production)).site.development).toBe(false)
    expect((await site(development)).site.development).toBe(true)
  })

  it('with the simulators off, MitID and the Russian identity service answer 503 and sign-up sends no SMS', async () => {
    const mitId = await call(production, 'GET', `${GATE}/account/mitId/params?askCpr=false`, 'denmark')
    expect(mitId.status).toBe(503)
    expect(mitId.json()).toEqual({ status: 'ERROR', errorCode: 'SERVICE_UNAVAILABLE' })
    const login = await call(production, 'POST', `${GATE}/auth/v2/login`, 'russia', { login: 'russia@demo.parlay.test', password: 'parlay-demo-1' })
    const session = { 'punter-session-hash': login.json().payload.punterHash, 'x-parlay-target': 'russia' }
    const identity = await rawRequest(production.port, { method: 'POST', path: `${GATE}/punter/cps/one/identify-punter/esia/full`, headers: session })
    expect(identity.status).toBe(503)
    expect(identity.json()).toEqual({ status: 'ERROR', errorCode: 'SERVICE_UNAVAILABLE' })
    const signup = await call(production, 'POST', `${GATE}/account/v3/signup/phone/begin`, 'curacao', curacaoBody())
    expect(signup.json()).toMatchObject({ status: 'ERROR', errorCode: 'VERIFICATION_ERROR' })
    const outbox = await production.deps.data.db.selectFrom('signup_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(outbox.n)).toBe(0)
  })
})

describe('the demo: simulators on, codes read in /admin', () => {
  it('the MitID simulator page is served, the public outbox is not', async () => {
    expect((await rawRequest(demo.port, { path: '/dev/mitid/authorize?state=x' })).status).toBe(200)
    expect((await rawRequest(demo.port, { path: '/api/dev/outbox' })).status).toBe(404)
    expect((await rawRequest(demo.port, { path: '/dev/outbox' })).status).toBe(404)
  })

  it('the admin outbox needs an admin session', async () => {
    const res = await rawRequest(demo.port, { path: '/admin/api/outbox' })
    expect(res.status).toBe(401)
    expect(res.json()).toEqual({ status: 'ERROR', errorCode: 'UNAUTHORIZED' })
  })

  it('an admin reads the SMS code of a sign-up, and every read is in the audit log (who and which recipient, never the text)', async () => {
    const body = curacaoBody()
    const begun = await call(demo, 'POST', `${GATE}/account/v3/signup/phone/begin`, 'curacao', body)
    expect(begun.status).toBe(200)
    const admin = await signIn(demo, OPERATOR)
    const read = await admin.get(`/admin/api/outbox?to=${encodeURIComponent(body.phoneNumber)}`)
    expect(read.status).toBe(200)
    const [message] = read.json().payload.messages
    expect(message).toMatchObject({ channel: 'sms', to: body.phoneNumber, jurisdiction: 'curacao' })
    const code = /\b(\d{6})\b/.exec(message.body)?.[1]
    expect(code).toBeDefined()
    await admin.get('/admin/api/outbox')

    const audit = (await admin.get('/admin/api/audit?limit=20')).json().payload as { actor: string; action: string; details: { to: string | null } }[]
    const reads = audit.filter((e) => e.action === 'admin.outbox-read')
    expect(reads).toHaveLength(2)
    expect(reads.every((e) => e.actor === OPERATOR.email)).toBe(true)
    expect(reads.map((e) => e.details.to).sort()).toEqual([body.phoneNumber, null].sort())
    expect(JSON.stringify(audit)).not.toContain(code!)
  })

  it('a bad outbox query is a 400 ValidationError naming the parameter', async () => {
    const admin = await signIn(demo, OPERATOR)
    for (const [query, field] of [
      ['to=', 'to'],
      ['to=%20', 'to'],
      ['limit=5', 'limit'],
      ['to=a&to=b', 'to'],
    ]) {
      const res = await admin.get(`/admin/api/outbox?${query}`)
      expect(res.status, query).toBe(400)
      expect(res.json(), query).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: { field } })
    }
  })
})

describe('cookies', () => {
  const login = (server: TestServer, headers: Record<string, string> = {}) => adminSignInRaw(server.port, OPERATOR, server.deps.now(), headers)
  const cookieOf = (res: { headers: Record<string, string | string[] | undefined> }) => ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? ''

  it('the admin cookie is always HttpOnly and SameSite=Strict, and not Secure over plain HTTP', async () => {
    const cookie = cookieOf(await login(production))
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Strict/)
    expect(cookie).not.toMatch(/; Secure/)
  })

  it('the admin cookie is Secure when the request came over TLS (X-Forwarded-Proto from the trusted loopback proxy), also on sign-out', async () => {
    const res = await login(production, { 'x-forwarded-proto': 'https' })
    const cookie = cookieOf(res)
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Strict/)
    expect(cookie).toMatch(/; Secure/)
    const out = await rawRequest(production.port, {
      method: 'POST',
      path: '/admin/api/logout',
      headers: { cookie: cookie.split(';')[0], 'x-csrf-token': res.json().payload.csrf, 'x-forwarded-proto': 'https' },
    })
    expect(out.status).toBe(200)
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? []).every((c) => /; HttpOnly/.test(c) && /; SameSite=Strict/.test(c) && /; Secure/.test(c))).toBe(true)
  })
})

describe('the command line', () => {
  const scripts = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')).scripts as Record<string, string>
  const argsOf = (script: string) => script.split(/\s+/).slice(2)

  it('npm start is production with the simulators and the demo off, even with NODE_ENV=development', () => {
    expect(modeFromCommandLine(argsOf(scripts.start), {})).toEqual({ development: false, simulators: false, demo: false })
    expect(modeFromCommandLine(argsOf(scripts.start), { NODE_ENV: 'development' })).toEqual({ development: false, simulators: false, demo: false })
  })

  it('PARLAY_SIMULATORS=on npm start turns on the simulators and the demo; npm run dev turns on every extra; --demo or PARLAY_DEMO=on the demo alone', () => {
    expect(modeFromCommandLine(argsOf(scripts.start), { PARLAY_SIMULATORS: 'on' })).toEqual({ development: false, simulators: true, demo: true })
    expect(modeFromCommandLine(argsOf(scripts.dev), {})).toEqual({ development: true, simulators: true, demo: true })
    expect(modeFromCommandLine([...argsOf(scripts.start), '--demo'], {})).toEqual({ development: false, simulators: false, demo: true })
    expect(modeFromCommandLine(argsOf(scripts.start), { PARLAY_DEMO: 'on' })).toEqual({ development: false, simulators: false, demo: true })
  })

  it('npm start says how to turn the simulators on when they are off', () => {
    const notice = startupNotice({ development: false, simulators: false }, 'http://localhost:3000').join('\n')
    expect(notice).toContain('production')
    expect(notice).toContain('PARLAY_SIMULATORS=on npm start')
    expect(notice).toContain('npm run dev')
    expect(startupNotice({ development: false, simulators: true }, 'http://localhost:3000').join('\n')).toContain('/admin')
    expect(notice).toContain('npm run admin:create')
  })
})
