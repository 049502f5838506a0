/**
 * Test fixtures: one server per worker (ephemeral port, temp data dir, temp copy of `schemas/` as
 * its documents dir), `baseURL` pointing at it, and `editDocument` to change a document file for
 * one test (restored afterwards; the server reloads documents when a file changes).
 */
import { test as base, expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from '../../server/main'
import { totpCode } from '../support/totp'
import { childrenCpuMs, measuring, ownCpuMs, record } from './measure'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export interface ParlayServer {
  url: string
  documentsDir: string
}

type EditDocument = (file: string, change: (doc: Record<string, unknown>) => void) => Promise<void>

/** One server per spec file: a file that changes server state (the admin flow publishes documents)
 * never leaks into another file's tests. Within a file, tests share it (edits are restored). A file
 * that changes nothing another file reads (no login that moves money or limits, no publishing, no
 * clock) says `test.use({ serverScope: 'worker' })` and gets the worker's one shared server instead:
 * a server start less per such file (docs/testing.md, "How long it takes"). */
interface ServerPool {
  forFile(file: string, scope: ServerScope): Promise<ParlayServer>
}

type ServerScope = 'file' | 'worker'
type Running = Promise<ParlayServer & { close(): Promise<void> }>

async function startFor(): Running {
  const work = mkdtempSync(join(tmpdir(), 'parlay-e2e-'))
  const documentsDir = join(work, 'schemas')
  // PARLAY_E2E_SCHEMAS runs the suite against another documents set (default: the repository's)
  cpSync(process.env.PARLAY_E2E_SCHEMAS ?? join(ROOT, 'schemas'), documentsDir, { recursive: true })
  const distDir = process.env.PARLAY_E2E_DIST ?? join(ROOT, 'dist')
  const started = { wall: Date.now(), cpu: ownCpuMs() }
  const running = await startServer({ port: 0, dataDir: join(work, 'data'), documentsDir, distDir, development: true, quiet: true })
  record({ event: 'server-start', wallMs: Date.now() - started.wall, cpuMs: Math.round(ownCpuMs() - started.cpu) })
  return {
    url: running.url,
    documentsDir,
    async close() {
      await running.close()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

export const test = base.extend<{ editDocument: EditDocument; server: ParlayServer; serverScope: ServerScope; measure: void }, { serverPool: ServerPool }>({
  serverScope: ['file', { option: true }],
  // PARLAY_E2E_TIMINGS=<file>: each test's wall time and CPU (tests/e2e/measure.ts)
  measure: [
    async ({}, use, testInfo) => {
      if (!measuring) return use()
      const before = { wall: Date.now(), own: ownCpuMs(), browser: childrenCpuMs() }
      await use()
      record({ event: 'test', file: testInfo.file.replace(/^.*\/tests\/e2e\//, ''), title: testInfo.title, worker: testInfo.workerIndex, status: testInfo.status, wallMs: Date.now() - before.wall, workerCpuMs: Math.round(ownCpuMs() - before.own), browserCpuMs: childrenCpuMs() - before.browser })
    },
    { auto: true },
  ],
  serverPool: [
    async ({}, use) => {
      // held in an object: TypeScript does not see the callbacks' assignments to plain variables
      const servers: { current?: { file: string; server: Running }; shared?: Running } = {}
      const closeCurrent = async () => {
        if (servers.current) await (await servers.current.server).close()
        servers.current = undefined
      }
      await use({
        async forFile(file, scope) {
          if (servers.current && servers.current.file !== file) await closeCurrent()
          if (scope === 'worker') return (servers.shared ??= startFor())
          servers.current ??= { file, server: startFor() }
          return servers.current.server
        },
      })
      await closeCurrent()
      if (servers.shared) await (await servers.shared).close()
    },
    { scope: 'worker' },
  ],
  server: async ({ serverPool, serverScope }, use, testInfo) => {
    await use(await serverPool.forFile(testInfo.file, serverScope))
  },
  baseURL: async ({ server }, use) => use(server.url),
  editDocument: async ({ server, request }, use) => {
    const originals = new Map<string, string>()
    await use(async (file, change) => {
      const path = join(server.documentsDir, file)
      const text = readFileSync(path, 'utf8')
      if (!originals.has(path)) originals.set(path, text)
      const before = (await (await request.get(`${server.url}/api/site/version`)).json()) as { documentsVersion: string }
      const doc = JSON.parse(text) as Record<string, unknown>
      change(doc)
      writeFileSync(path, JSON.stringify(doc, null, 2))
      // wait until the server has reloaded its documents (it watches the folder)
      await expect
        .poll(async () => ((await (await request.get(`${server.url}/api/site/version`)).json()) as { documentsVersion: string }).documentsVersion, { timeout: 30_000 })
        .not.toBe(before.documentsVersion)
    })
    if (originals.size === 0) return
    const version = async () => ((await (await request.get(`${server.url}/api/site/version`)).json()) as { documentsVersion: string }).documentsVersion
    const edited = await version()
    for (const [path, text] of originals) writeFileSync(path, text)
    await expect.poll(version, { timeout: 30_000 }).not.toBe(edited)
  },
})

export { expect }

// ---------------------------------------------------------------------------------------------
// Logging a demo punter in. Both demo passwords are the README's.

export const DEMO_PASSWORD = 'parlay-demo-1'
const headerItem = (page: Page, name: string) => page.locator(`header.app-header [data-header-item="${name}"]`)

/** Logs in the way a punter does: the header's Log in button, the login popup, its form. Use it
 * where the login itself (or what runs after it) is what the test checks. */
export async function logInThroughPopup(page: Page, login: string, path = '/sport/live/popular', password = DEMO_PASSWORD): Promise<void> {
  await page.goto(path)
  await headerItem(page, 'login').click()
  const dialog = page.locator('[data-popup-id="login"]')
  await dialog.getByLabel('E-mail, account number or nickname').fill(login)
  await dialog.getByLabel('Password').fill(password)
  await dialog.getByTestId('form-submit').click()
  await expect(headerItem(page, 'profile')).toBeVisible()
}

/** Logs in over HTTP (the spec's login call) and opens `path` with that session stored, as a page
 * reload after a login would: faster than the popup where the login is not what the test checks.
 * The page restores the session itself (heartbeat, settings); after-login rules do not run. */
export async function logInByApi(page: Page, login: string, path = '/sport/live/popular', password = DEMO_PASSWORD): Promise<void> {
  // a site path (http://spain.localhost:…/x) logs in on that site; a bare path on the baseURL
  const at = (to: string) => (/^https?:/.test(path) ? new URL(to, path).href : to)
  // storage is written from a plain resource of the origin, so no page of the site is running yet;
  // the call goes from that page too, so a site host (spain.localhost) resolves as in Chromium
  await page.goto(at('/favicon.ico'))
  type LoginAnswer = { status: string; payload?: { accessToken: string; refreshToken: string; creationTime: number; loginTimeout: number; expireTokenTime?: number; punterHash?: string } }
  const body = await page.evaluate(async (credentials) => {
    const response = await fetch('/mobile-gate/api/v1/auth/v2/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
    return (await response.json()) as LoginAnswer
  }, { login, password })
  if (body.status !== 'OK' || !body.payload) throw new Error(`login of ${login} failed: ${JSON.stringify(body)}`)
  const { accessToken, refreshToken, creationTime, loginTimeout, punterHash } = body.payload
  // as the page's own login stores it: refreshed early by the sites' OFFSET_TO_EXPIRE_TOKEN (−30 s)
  const session = { accessToken, refreshToken, creationTime, loginTimeout, expireTokenTime: creationTime + loginTimeout - 30_000, rememberMe: false, isLoginByAuthToken: false }
  await page.evaluate(([stored, hash]) => {
    localStorage.setItem('session', JSON.stringify(stored))
    localStorage.setItem('sessionHash', JSON.stringify(hash))
  }, [session, punterHash ?? null] as const)
  await page.goto(path)
  await expect(headerItem(page, 'profile')).toBeVisible()
}

/** A demo admin: e-mail, password and the published TOTP secret of server/admin/DEMO_ADMINS.md. */
export interface StaffLogin {
  email: string
  password: string
  totpSecret: string
}

/**
 * An admin's sign-in through the API, both steps (password, then the TOTP code computed from the
 * secret as an authenticator app does), for tests whose subject is not the sign-in: the request
 * context keeps the session cookie for its browser context. Answers the second step's response.
 */
export async function adminLogInByApi(request: APIRequestContext, who: StaffLogin): Promise<APIResponse> {
  const first = await request.post('/admin/api/login', { data: { email: who.email, password: who.password } })
  expect(first.status()).toBe(200)
  const challenge = ((await first.json()) as { payload: { challenge: string } }).payload.challenge
  const second = await request.post('/admin/api/login/second-factor', { data: { challenge, code: totpCode(who.totpSecret) } })
  expect(second.status()).toBe(200)
  return second
}

/** The sign-in page, both steps typed: e-mail and password, then the code the authenticator shows;
 * signed in, operators and compliance land in the studio, support in the services views. */
export async function adminLogInByPage(page: Page, who: StaffLogin): Promise<void> {
  await page.goto('/admin')
  await page.getByTestId('admin-email').fill(who.email)
  await page.getByTestId('admin-password').fill(who.password)
  await page.getByTestId('admin-login').click()
  await page.getByTestId('admin-code').fill(totpCode(who.totpSecret))
  await page.getByTestId('admin-code-submit').click()
  await expect(page.getByTestId(/^(admin|studio)-who$/)).toBeVisible()
}
