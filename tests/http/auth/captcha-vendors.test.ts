/**
 * Captcha kinds RECAPTCHA and HCAPTCHA (issue 34 item 5; spec "Captcha kinds"): the site's
 * jurisdiction document picks the kind, the server verifies a widget token by the vendor's
 * siteverify protocol over real HTTP, here against the local double the test server starts with
 * its simulators (server/auth/captcha-double.ts). The double's protocol is checked on its own first,
 * with form posts as the vendors document them. Real server, real SQLite/PostgreSQL, injected clock.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCaptchaDouble, TEST_KEYS, VERIFY_PATHS, type CaptchaDouble, type VendorKind } from '../../../server/auth/captcha-double'
import { THROTTLE } from '../../../server/auth/throttle'
import { curacaoBody } from '../signup/helpers'
import { DEMO_PASSWORD, startAuthServer, type AuthTestServer } from './support'

const form = async (url: string, fields: Record<string, string>) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })
  return { status: res.status, json: (await res.json()) as { success: boolean; challenge_ts?: string; hostname?: string; 'error-codes': string[] } }
}

describe("the verification double speaks the vendors' siteverify protocol", () => {
  let double: CaptchaDouble
  const now = Date.UTC(2025, 5, 1, 12)
  beforeAll(async () => void (double = await startCaptchaDouble({ now: () => now })))
  afterAll(() => double.close())
  const token = async (kind: VendorKind) => (await form(`${double.url}/token`, { sitekey: TEST_KEYS[kind].siteKey, hostname: 'spain.localhost' })).json as unknown as { token: string }

  for (const kind of ['RECAPTCHA', 'HCAPTCHA'] as const) {
    it(`${kind}: a good token with the test secret passes once, with its hostname and issue time; a replay is refused with the vendor's code`, async () => {
      const { token: t } = await token(kind)
      const first = await form(double.url + VERIFY_PATHS[kind], { secret: TEST_KEYS[kind].secret, response: t, remoteip: '10.0.0.1' })
      expect(first).toEqual({ status: 200, json: { success: true, challenge_ts: new Date(now).toISOString(), hostname: 'spain.localhost', 'error-codes': [] } })
      const replay = await form(double.url + VERIFY_PATHS[kind], { secret: TEST_KEYS[kind].secret, response: t, remoteip: '10.0.0.1' })
      expect(replay.json).toEqual({ success: false, 'error-codes': [kind === 'RECAPTCHA' ? 'timeout-or-duplicate' : 'invalid-or-already-seen-response'] })
    })

    it(`${kind}: a wrong secret, a missing secret, a missing or unknown response each answer success:false with the documented error code`, async () => {
      const { token: t } = await token(kind)
      const url = double.url + VERIFY_PATHS[kind]
      expect((await form(url, { secret: 'not-the-secret', response: t })).json).toEqual({ success: false, 'error-codes': ['invalid-input-secret'] })
      expect((await form(url, { response: t })).json).toEqual({ success: false, 'error-codes': ['missing-input-secret'] })
      expect((await form(url, { secret: TEST_KEYS[kind].secret })).json).toEqual({ success: false, 'error-codes': ['missing-input-response'] })
      expect((await form(url, { secret: TEST_KEYS[kind].secret, response: 'forged' })).json).toEqual({ success: false, 'error-codes': ['invalid-input-response'] })
      // the refusals above did not use the token up
      expect((await form(url, { secret: TEST_KEYS[kind].secret, response: t })).json.success).toBe(true)
    })
  }

  it("a token of one vendor is not the other's: an hCaptcha token verified at reCAPTCHA's path is refused", async () => {
    const { token: t } = await token('HCAPTCHA')
    expect((await form(double.url + VERIFY_PATHS.RECAPTCHA, { secret: TEST_KEYS.RECAPTCHA.secret, response: t })).json).toEqual({ success: false, 'error-codes': ['invalid-input-response'] })
  })
})

describe('a site configured for a vendor captcha: login and sign-up accept a good token once and refuse anything else with INVALID_CAPTCHA', () => {
  let server: AuthTestServer
  const jurisdictionFile = () => join(server.documentsDir, 'jurisdictions', 'curacao', 'jurisdiction.json')
  /** Sets Curaçao's captcha kind in the server's documents (the site's config) and reloads them. */
  const useKind = (kind: 'POW' | VendorKind, secrets?: Record<string, string>) => {
    const document = JSON.parse(readFileSync(jurisdictionFile(), 'utf8'))
    document.captcha.kind = kind
    if (secrets) document.captcha.secrets = secrets
    writeFileSync(jurisdictionFile(), JSON.stringify(document, null, 2))
    server.deps.documents.reload()
  }
  const widgetToken = async (kind: VendorKind) => {
    const { json } = await server.call('POST', '/api/dev/captcha/token', { body: { siteKey: TEST_KEYS[kind].siteKey } })
    return (json as { payload: { token: string } }).payload.token
  }
  /** A login that needs a captcha now (captchaAfter wrong passwords). */
  const needingCaptcha = async (login: string) => {
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(login, 'wrong')
    expect((await server.login(login)).json).toEqual({ status: 'ERROR', errorCode: 'CAPTCHA_REQUIRED' })
  }
  beforeAll(async () => void (server = await startAuthServer({ simulators: true })), 60_000)
  afterAll(() => server.dispose())

  it('the served jurisdiction document and the challenge carry the kind and site key, never the secret', async () => {
    useKind('RECAPTCHA')
    const challenge = await server.call('GET', 'auth/captcha/challenge', {})
    expect((challenge.json as { payload: unknown }).payload).toEqual({ type: 'RECAPTCHA', answer: 'token', siteKey: TEST_KEYS.RECAPTCHA.siteKey })
    const served = await server.call('GET', '/api/documents/jurisdiction/curacao', {})
    expect(served.status).toBe(200)
    expect(served.text).toContain(TEST_KEYS.RECAPTCHA.siteKey)
    for (const path of ['/api/documents/jurisdiction/curacao', '/mobile-gate/api/v1/dictionary/settings', '/']) {
      const page = await server.call('GET', path, {})
      expect(page.status).toBe(200)
      expect(page.text).not.toContain(TEST_KEYS.RECAPTCHA.secret)
      expect(page.text).not.toContain(TEST_KEYS.HCAPTCHA.secret)
    }
  })

  for (const [kind, login] of [['RECAPTCHA', 'Opened'], ['HCAPTCHA', 'HighRoller']] as const) {
    it(`${kind} site: login passes with a good widget token; the same token again, a forged one, a proof-of-work solution and the other vendor's token are INVALID_CAPTCHA`, async () => {
      useKind(kind)
      await needingCaptcha(login)
      const other = kind === 'RECAPTCHA' ? 'HCAPTCHA' : 'RECAPTCHA'
      useKind('POW')
      const pow = await server.solvedCaptcha()
      useKind(kind)
      for (const bad of ['forged-token', pow, await widgetToken(other)]) expect((await server.login(login, DEMO_PASSWORD, { captcha: bad })).json).toEqual({ status: 'ERROR', errorCode: 'INVALID_CAPTCHA' })
      const token = await widgetToken(kind)
      const ok = await server.login(login, DEMO_PASSWORD, { captcha: token })
      expect(ok.status).toBe(200)
      expect((ok.json as { status: string }).status).toBe('OK')
      await needingCaptcha(login)
      expect((await server.login(login, DEMO_PASSWORD, { captcha: token })).json).toEqual({ status: 'ERROR', errorCode: 'INVALID_CAPTCHA' })
    })
  }

  it('a site whose secret is wrong refuses even a good token (the vendor answers invalid-input-secret)', async () => {
    useKind('RECAPTCHA', { RECAPTCHA: 'a-wrong-secret', HCAPTCHA: TEST_KEYS.HCAPTCHA.secret })
    await needingCaptcha('Protected')
    expect((await server.login('Protected', DEMO_PASSWORD, { captcha: await widgetToken('RECAPTCHA') })).json).toEqual({ status: 'ERROR', errorCode: 'INVALID_CAPTCHA' })
    useKind('RECAPTCHA', { RECAPTCHA: TEST_KEYS.RECAPTCHA.secret, HCAPTCHA: TEST_KEYS.HCAPTCHA.secret })
  })

  for (const kind of ['RECAPTCHA', 'HCAPTCHA'] as const) {
    it(`${kind} site: a sign-up SMS past the free sends passes with a good token and is refused with the same token again`, async () => {
      useKind(kind)
      const ip = `10.77.${kind === 'RECAPTCHA' ? 1 : 2}.1`
      const begin = (body: unknown) => server.call('POST', 'account/v3/signup/phone/begin', { body, ip })
      for (let i = 0; i < 3; i++) expect((await begin(curacaoBody())).status).toBe(200)
      expect((await begin(curacaoBody())).json).toMatchObject({ errorCode: 'CAPTCHA_REQUIRED' })
      const token = await widgetToken(kind)
      expect((await begin(curacaoBody({ captcha: token }))).status).toBe(200)
      expect((await begin(curacaoBody({ captcha: token }))).json).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_CAPTCHA' })
    })
  }
})
