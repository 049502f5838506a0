/**
 * What the browser benches after the first load share (issue 33): the built site served by the
 * production server in development mode (the dev feed controls and the demo punters), bare React
 * pages built and served beside it the way first-load.ts serves its own, Chromium through
 * playwright-core with first-load's flags, a phone-sized page with CPU throttling, and Event
 * Timing read the way INP reads it. Asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core'
import { buildBareReact, buildParlay, CHROME_FLAGS } from './first-load'
import { startInstance, stop, type Instance } from './scale'

const ROOT = resolve(import.meta.dirname, '..')
export const CPU_SLOWDOWN = 4
export const GATE = '/mobile-gate/api/v1'
export const PUNTER = { login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }

export interface BenchSite {
  base: string
  /** The client build (the bare pages' files are in it too). */
  dist: string
  browser: Browser
  close: () => Promise<void>
}

/** Builds Parlay and the named bare pages (each served at `/<name>/index.html`), starts the server
 * and Chromium. */
export async function startBenchSite(bare: Record<string, string>, env: Record<string, string> = {}): Promise<BenchSite> {
  const work = mkdtempSync(join(tmpdir(), 'parlay-bench-browser-'))
  const dist = join(work, 'dist')
  let server: Instance | undefined
  let browser: Browser | undefined
  try {
    process.stdout.write('  building the site and the bare pages…\n')
    await buildParlay(dist)
    for (const [name, source] of Object.entries(bare)) await buildBareReact(dist, source, name)
    server = await startInstance(work, { PARLAY_DOCUMENTS_DIR: join(ROOT, 'schemas'), PARLAY_DEVELOPMENT: 'on', ...env })
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) })
  } catch (error) {
    await browser?.close()
    if (server) await stop([server.child])
    rmSync(work, { recursive: true, force: true })
    throw error
  }
  const running = server
  const chrome = browser
  // Chromium resolves *.localhost to 127.0.0.1: localhost is the default site (Curaçao)
  const base = running.base.replace('127.0.0.1', 'localhost')
  return {
    base,
    dist,
    browser: chrome,
    close: async () => {
      await chrome.close()
      await stop([running.child])
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/** Collects every Event Timing entry of an interaction (INP's observer: type 'event',
 * durationThreshold 16, buffered) into `window.__parlayEvents`. */
function observeEvents() {
  const events: { id: number; name: string; start: number; duration: number }[] = []
  ;(window as unknown as { __parlayEvents: typeof events }).__parlayEvents = events
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) if (e.interactionId) events.push({ id: e.interactionId, name: e.name, start: e.startTime, duration: e.duration })
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit)
}

/** A phone-sized page (360×740) with the CPU slowed `CPU_SLOWDOWN` times and the Event Timing
 * observer installed before any script of the page. */
export async function phonePage(site: BenchSite, options: { cookies?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await site.browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, serviceWorkers: 'block' })
  if (options.cookies !== false) await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: site.base }])
  await context.addInitScript(observeEvents)
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  return { context, page, cdp }
}

/** Logs the demo punter in the way tests/e2e/fixtures.ts logInByApi does (tokens in storage). */
export async function logIn(page: Page, base: string, login = PUNTER.login): Promise<{ authorization: string; 'punter-session-hash': string }> {
  await page.goto(`${base}/favicon.ico`)
  const payload = await page.evaluate(async (credentials) => {
    const response = await fetch('/mobile-gate/api/v1/auth/v2/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
    const body = (await response.json()) as { payload?: { accessToken: string; refreshToken: string; creationTime: number; loginTimeout: number; punterHash?: string } }
    if (!body.payload) throw new Error(`login failed: ${JSON.stringify(body)}`)
    const { accessToken, refreshToken, creationTime, loginTimeout, punterHash } = body.payload
    const session = { accessToken, refreshToken, creationTime, loginTimeout, expireTokenTime: creationTime + loginTimeout - 30_000, rememberMe: false, isLoginByAuthToken: false }
    localStorage.setItem('session', JSON.stringify(session))
    localStorage.setItem('sessionHash', JSON.stringify(punterHash ?? null))
    return { accessToken, punterHash: punterHash ?? '' }
  }, { login, password: PUNTER.password })
  return { authorization: `Bearer ${payload.accessToken}`, 'punter-session-hash': payload.punterHash }
}

/**
 * The latency of the interaction(s) `act` causes, as INP counts one: the longest Event Timing
 * entry of each interaction since `act` began, the longest of those. An interaction faster than
 * the observer's 16 ms threshold reports no entry: it counts as 16 (an upper bound).
 */
export async function interactionLatency(page: Page, act: () => Promise<void>): Promise<number> {
  const since = await page.evaluate(() => performance.now())
  await act()
  return page.evaluate(async (since) => {
    const events = (window as unknown as { __parlayEvents: { id: number; start: number; duration: number }[] }).__parlayEvents
    // (no named helpers in here: tsx would wrap them in a `__name` call the page does not have)
    for (let waited = 0; waited < 600 && !events.some((e) => e.start >= since); waited += 50) await new Promise((done) => setTimeout(done, 50))
    // entries are reported after the frame that follows the handlers has painted
    await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 30)))
    const longest = events.filter((e) => e.start >= since).reduce((max, e) => Math.max(max, e.duration), 0)
    return Math.max(16, longest)
  }, since)
}

/** Median, p75 and worst of a list of latencies (nearest-rank percentiles). */
export function spread(values: number[]): { n: number; medianMs: number; p75Ms: number; worstMs: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0
  return { n: sorted.length, medianMs: rank(0.5), p75Ms: rank(0.75), worstMs: sorted[sorted.length - 1] ?? 0 }
}

/** The machine's one-minute load average now (the figures beside it were measured under it). */
export const loadAverage = (): number => Math.round(loadavg()[0]! * 10) / 10
