/**
 * The NONCE challenge (spec §3 "challenge types RQ_POW, NONCE with answer kinds token, pow";
 * docs/adr/0087-nonce-challenge.md): a site whose jurisdiction document says `captcha.kind: NONCE`
 * answers the challenge call with a single-use nonce for one purpose, valid NONCE_TTL_MS; login and
 * the sign-up SMS accept it once, for its own purpose, before it expires. Real server, real
 * SQLite (and PostgreSQL in the `postgres` project), injected clock.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchAndSolveCaptcha } from '../../../engine/auth/captcha'
import { createGateway } from '../../../engine/core/gateway'
import { NONCE_TTL_MS } from '../../../server/auth/captcha-nonce'
import { THROTTLE } from '../../../server/auth/throttle'
import { curacaoBody } from '../signup/helpers'
import { DEMO_PASSWORD, startAuthServer, type AuthTestServer } from './support'

let server: AuthTestServer
const INVALID = { status: 'ERROR', errorCode: 'INVALID_CAPTCHA' }

/** Sets the default site's captcha kind in the server's documents (the site's config) and reloads them. */
function useKind(kind: 'POW' | 'NONCE') {
  const file = join(server.documentsDir, 'jurisdictions', 'curacao', 'jurisdiction.json')
  const document = JSON.parse(readFileSync(file, 'utf8'))
  document.captcha.kind = kind
  writeFileSync(file, JSON.stringify(document, null, 2))
  server.deps.documents.reload()
}

const nonceFor = async (purpose?: string) => {
  const res = await server.call('GET', `auth/captcha/challenge${purpose ? `?purpose=${purpose}` : ''}`)
  expect(res.status).toBe(200)
  return (res.json as { payload: { nonce: string } }).payload.nonce
}

/** A login that needs a captcha now (captchaAfter wrong passwords). */
async function needingCaptcha(login: string) {
  for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(login, 'wrong')
  expect((await server.login(login)).json).toEqual({ status: 'ERROR', errorCode: 'CAPTCHA_REQUIRED' })
}

beforeAll(async () => {
  server = await startAuthServer({ simulators: true })
  useKind('NONCE')
}, 60_000)
afterAll(() => server?.dispose())

describe('a NONCE site: the challenge is a nonce for one purpose, answered with kind token', () => {
  it('the challenge names its type, answer kind, purpose and expiry (now + the TTL), and is never cached', async () => {
    const res = await server.call('GET', 'auth/captcha/challenge?purpose=signup-sms')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.json.payload).toEqual({ type: 'NONCE', answer: 'token', nonce: expect.stringMatching(/^[\w-]{24}\.\d+\.[\w-]{43}$/), purpose: 'signup-sms', expiresAt: server.clock.now + NONCE_TTL_MS })
    expect((await server.call('GET', 'auth/captcha/challenge')).json.payload.purpose).toBe('login')
  })

  it('an unknown purpose or an extra parameter is a 400 validation error', async () => {
    for (const query of ['?purpose=withdraw', '?purpose=login&x=1']) {
      const res = await server.call('GET', `auth/captcha/challenge${query}`)
      expect(res.status).toBe(400)
      expect(res.json.errorCode).toBe('ValidationError')
    }
  })

  it('a nonce is accepted once: the second use is INVALID_CAPTCHA, a fresh nonce passes', async () => {
    await needingCaptcha('Opened')
    const nonce = await nonceFor('login')
    // the nonce is used up by this attempt, even though the password is wrong
    expect((await server.login('Opened', 'wrong', { captcha: nonce })).json).toEqual({ status: 'ERROR', errorCode: 'INCORRECT_PASSWORD' })
    expect((await server.login('Opened', DEMO_PASSWORD, { captcha: nonce })).json).toEqual(INVALID)
    const fresh = await server.login('Opened', DEMO_PASSWORD, { captcha: await nonceFor('login') })
    expect(fresh.status).toBe(200)
    expect(fresh.json.status).toBe('OK')
  })

  it('a nonce is good until its expiry: one millisecond before it passes, at it INVALID_CAPTCHA', async () => {
    await needingCaptcha('HighRoller')
    const late = await nonceFor('login')
    const inTime = await nonceFor('login')
    server.clock.now += NONCE_TTL_MS
    try {
      expect((await server.login('HighRoller', DEMO_PASSWORD, { captcha: late })).json).toEqual(INVALID)
      server.clock.now -= 1
      expect((await server.login('HighRoller', DEMO_PASSWORD, { captcha: inTime })).status).toBe(200)
    } finally {
      server.clock.now -= NONCE_TTL_MS - 1
    }
  })

  it('a nonce issued for the sign-up SMS is refused at login, and a login nonce at the sign-up SMS', async () => {
    await needingCaptcha('Protected')
    expect((await server.login('Protected', DEMO_PASSWORD, { captcha: await nonceFor('signup-sms') })).json).toEqual(INVALID)
    const ip = '10.78.1.1'
    const begin = (body: unknown) => server.call('POST', 'account/v3/signup/phone/begin', { body, ip })
    for (let i = 0; i < 3; i++) expect((await begin(curacaoBody())).status).toBe(200)
    expect((await begin(curacaoBody())).json).toMatchObject({ errorCode: 'CAPTCHA_REQUIRED' })
    expect((await begin(curacaoBody({ captcha: await nonceFor('login') }))).json).toMatchObject(INVALID)
    const forSms = await nonceFor('signup-sms')
    expect((await begin(curacaoBody({ captcha: forSms }))).status).toBe(200)
    expect((await begin(curacaoBody({ captcha: forSms }))).json).toMatchObject(INVALID)
  })

  it("the browser's captcha answer (engine/auth/captcha.ts) on a NONCE site is the nonce for the call it asks for", async () => {
    const gateway = createGateway({ fetch, baseUrl: server.url })
    await needingCaptcha('Closed')
    const forSms = await fetchAndSolveCaptcha(gateway, undefined, 'signup-sms')
    expect(forSms.ok).toBe(true)
    expect((await server.login('Closed', DEMO_PASSWORD, { captcha: forSms.ok && forSms.value })).json).toEqual(INVALID)
    const forLogin = await fetchAndSolveCaptcha(gateway)
    expect((await server.login('Closed', DEMO_PASSWORD, { captcha: forLogin.ok && forLogin.value })).json).toMatchObject({ status: 'OK' })
  })

  it('a forged nonce (another expiry, a changed mac, a made-up one) is INVALID_CAPTCHA and uses nothing up', async () => {
    await needingCaptcha('vip@demo.parlay.test')
    const nonce = await nonceFor('login')
    const [id, expires, mac] = nonce.split('.')
    const forged = [`${id}.${Number(expires) + 3_600_000}.${mac}`, `${id}.${expires}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, `${'x'.repeat(24)}.${expires}.${mac}`, 'nonce', `${nonce}.x`]
    for (const bad of forged) expect((await server.login('vip@demo.parlay.test', DEMO_PASSWORD, { captcha: bad })).json).toEqual(INVALID)
    expect((await server.login('vip@demo.parlay.test', DEMO_PASSWORD, { captcha: nonce })).json).toMatchObject({ status: 'OK' })
  })

  it('a proof-of-work site ignores nonces: a nonce from when the site used NONCE is INVALID_CAPTCHA there', async () => {
    const nonce = await nonceFor('login')
    useKind('POW')
    try {
      await needingCaptcha('Suspended')
      expect((await server.login('Suspended', DEMO_PASSWORD, { captcha: nonce })).json).toEqual(INVALID)
      expect((await server.login('Suspended', DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })).status).toBe(200)
    } finally {
      useKind('NONCE')
    }
  })
})
