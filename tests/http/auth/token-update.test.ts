/**
 * Token-update outcomes on a real refresh (spec §3, §4 "Token refresh"; ADR 0068 rotation with reuse
 * detection): the browser's session controller and gateway (engine/auth/session.ts,
 * engine/core/gateway.ts) talk real HTTP to a real server; client and server share one injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuthController } from '../../../engine/auth/session'
import { createGateway } from '../../../engine/core/gateway'
import { createEngineStores, type StorageLike } from '../../../engine/core/stores'
import { openDemoPunter, SITES } from '../../support/sites'
import { DEMO_PASSWORD, startAuthServer, type AuthTestServer } from './support'

let server: AuthTestServer
beforeAll(async () => void (server = await startAuthServer()))
afterAll(async () => server?.dispose())

const memoryStorage = (): StorageLike => {
  const data = new Map<string, string>()
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }
}

/** A page of the default site, logged in as its ordinary demo punter. */
async function loggedInPage() {
  const refreshCalls: string[] = []
  const stores = createEngineStores({ storage: memoryStorage() })
  stores.site.getState().setBootstrap({
    site: { id: SITES[0], jurisdiction: SITES[0], name: 'site', defaultLocale: 'en', locales: ['en'], currency: 'USD', minimumAge: 18, mainProduct: 'sport', development: true },
    remoteConfig: {},
    routes: [],
    documentsVersion: 'v',
    version: '1.22.0',
  })
  const fetchCounting = (url: string, init?: RequestInit) => {
    if (url.endsWith('/token/refresh')) refreshCalls.push(url)
    return fetch(url, init)
  }
  let auth: ReturnType<typeof createAuthController> | undefined
  const gateway = createGateway({ fetch: fetchCounting, baseUrl: server.url, stores, onUnauthorized: (code, sent, path) => auth!.handleUnauthorized(code, sent, path) })
  // the timers stay unarmed: each test asks for its update itself
  const logouts: unknown[] = []
  const onEvent = (event: 'login' | 'logout', detail?: unknown) => void (event === 'logout' && logouts.push(detail))
  auth = createAuthController({ stores, gateway, now: () => server.clock.now, setTimeout: () => ({}), clearTimeout: () => undefined, onEvent })
  const login = await auth.login({ login: openDemoPunter(SITES[0]), password: DEMO_PASSWORD })
  expect(login.ok).toBe(true)
  const popups = () => stores.ui.getState().popups.map((p) => p.id)
  return { stores, auth, gateway, refreshCalls, popups, logouts, session: () => stores.session.getState() }
}

describe('token-update outcomes against the real refresh call', () => {
  it('a valid access token: CURRENT_AT_ACTIVE, and no refresh call is made', async () => {
    const page = await loggedInPage()
    server.clock.now = page.session().expireTokenTime! - 1
    expect(await page.auth.updateTokens()).toEqual({ outcome: 'CURRENT_AT_ACTIVE' })
    expect(page.refreshCalls).toEqual([])
  })

  it('an expired access token and a valid refresh token: UPDATED_TOKENS, both tokens rotated, the heartbeat answers with the new ones', async () => {
    const page = await loggedInPage()
    const before = { ...page.session() }
    server.clock.now = before.expireTokenTime!
    expect((await page.gateway.call('GET', '/mobile-gate/api/v1/heartbeat', undefined, { retryUnauthorized: false })).ok).toBe(false)
    expect(await page.auth.updateTokens()).toEqual({ outcome: 'UPDATED_TOKENS' })
    expect(page.refreshCalls).toHaveLength(1)
    expect(page.session().accessToken).not.toBe(before.accessToken)
    expect(page.session().refreshToken).not.toBe(before.refreshToken)
    expect(page.session().expireTokenTime).toBe(server.clock.now + before.loginTimeout!)
    expect((await page.gateway.call('GET', '/mobile-gate/api/v1/heartbeat')).ok).toBe(true)
  })

  it('a refresh token already used by someone else (reuse): ERROR_RT_UPDATE, and the punter is logged out with RT_EXPIRED', async () => {
    const page = await loggedInPage()
    const stolen = page.session().refreshToken!
    // a copy of the refresh token is spent elsewhere first: the family's next use is a reuse
    expect((await server.call('POST', 'auth/v2/token/refresh', { body: { token: stolen } })).status).toBe(200)
    server.clock.now = page.session().expireTokenTime!
    expect(await page.auth.updateTokens()).toEqual({ outcome: 'ERROR_RT_UPDATE', code: 'INVALID_REFRESH_TOKEN', transient: false })
    expect(page.session()).toMatchObject({ accessToken: null, refreshToken: null, status: 'guest' })
    expect(page.popups()).toEqual(['session-expired'])
    expect(page.logouts).toEqual([{ reason: 'RT_EXPIRED' }])
  })
})
