import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAuthServer, DEMO_PASSWORD, type AuthTestServer } from './support'

let server: AuthTestServer
beforeAll(async () => {
  server = await startAuthServer()
})
afterAll(async () => server?.dispose())

const noStack = (text: string) => {
  expect(text).not.toMatch(/\bat .+:\d+:\d+/)
  expect(text).not.toMatch(/node_modules|Error:/)
}

describe('bad input gets a 4xx with an error code: never a 500, never a stack trace', () => {
  it.each([
    ['a number as login', { login: 12345678, password: 'x' }],
    ['a boolean password', { login: 'Opened', password: true }],
    ['a string rememberMe', { login: 'Opened', password: 'x', rememberMe: 'yes' }],
    ['a missing password', { login: 'Opened' }],
    ['an empty login', { login: '', password: 'x' }],
    ['an unknown field', { login: 'Opened', password: 'x', isAdmin: true }],
    ['a nested object', { login: { $ne: null }, password: 'x' }],
    ['a 10 kB login', { login: 'a'.repeat(10_000), password: 'x' }],
  ])('login with %s → 400 ValidationError', async (_name, body) => {
    const res = await server.call('POST', 'auth/v2/login', { body })
    expect(res.status).toBe(400)
    expect(res.json.errorCode).toBe('ValidationError')
    noStack(res.text)
  })

  it.each([
    ['malformed JSON', 'application/json', '{"login": "Opened", ', 400, 'MALFORMED_JSON'],
    ['a JSON array', 'application/json', '["Opened"]', 400, 'ValidationError'],
    ['JSON null', 'application/json', 'null', 400, 'MALFORMED_JSON'],
    ['a form body', 'application/x-www-form-urlencoded', 'login=Opened&password=x', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['plain text', 'text/plain', 'login=Opened', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an oversized body', 'application/json', JSON.stringify({ login: 'Opened', password: 'x'.repeat(100_000) }), 413, 'PAYLOAD_TOO_LARGE'],
  ])('login with %s → %s %s', async (_name, type, raw, status, code) => {
    const res = await server.call('POST', 'auth/v2/login', { raw, headers: { 'content-type': type } })
    expect(res.status).toBe(status)
    expect(res.json.errorCode).toBe(code)
    noStack(res.text)
  })

  it('a body without a content type is refused with 415', async () => {
    const res = await server.call('POST', 'auth/v2/login', { raw: '{"login":"Opened","password":"x"}' })
    expect(res.status).toBe(415)
  })

  it.each([
    ['refresh with a number', 'POST', 'auth/v2/token/refresh', { token: 1 }],
    ['refresh with extra fields', 'POST', 'auth/v2/token/refresh', { token: 'a', punterId: 1 }],
    ['legal agreement with a string', 'POST', 'punter/legal-aggreement', { accepted: 'yes' }],
    ['settings with a wrong type', 'PUT', 'punter/settings', { oddsType: 7 }],
    ['empty settings', 'PUT', 'punter/settings', {}],
  ])('%s → 4xx with a code', async (_name, method, path, body) => {
    const s = (await server.login('Opened', DEMO_PASSWORD)).json.payload
    const res = await server.call(method, path, { body, headers: { 'punter-session-hash': s.punterHash } })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(res.json.errorCode).toEqual(expect.any(String))
    noStack(res.text)
  })

  it('logout by token needs a text/plain body', async () => {
    const res = await server.call('POST', 'auth/token/logout', { body: { token: 'x' } })
    expect(res.status).toBe(415)
  })

  it('an unknown gateway path is a 404 in the envelope', async () => {
    const res = await server.call('GET', 'auth/v9/nothing')
    expect(res.status).toBe(404)
    expect(res.json.errorCode).toBe('NOT_FOUND')
  })
})

describe('passwords, tokens and captcha answers never appear in the logs (every decision does)', () => {
  it('a login, a failure, a refresh and a logout leave no secret in any log line', async () => {
    const password = DEMO_PASSWORD
    const wrong = 'Sup3r-Secret-Wrong-Pa55'
    server.logLines.length = 0
    await server.login('Opened', wrong)
    const ok = (await server.login('Opened', password)).json.payload
    const next = (await server.call('POST', 'auth/v2/token/refresh', { body: { token: ok.refreshToken } })).json.payload
    await server.call('POST', 'auth/v2/token/refresh', { body: { token: ok.refreshToken } })
    await server.call('POST', 'auth/token/logout', { raw: next.refreshToken, headers: { 'content-type': 'text/plain' } })
    const log = server.logLines.join('\n')
    for (const secret of [password, wrong, ok.accessToken, ok.refreshToken, ok.punterHash, next.accessToken, next.refreshToken]) expect(log).not.toContain(secret)
    // the reuse above revoked the family, so this logout ends nothing and is logged as such
    for (const event of ['auth.login.failed', 'auth.login.succeeded', 'auth.refresh.rotated', 'auth.refresh.refused', 'auth.logout.ignored']) expect(log).toContain(event)
  })
})
