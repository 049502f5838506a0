/**
 * First load on a phone (issue 10): what a browser gets must not drift. Scripts go out compressed
 * and hashed files immutable; the page carries its boot data, so the first render asks no API for
 * the site; no route fetches a chunk before its first render that it does not use; with the
 * server down a reload shows the last good screen and a never-visited screen the offline page.
 * Own servers (not the shared fixture): the offline tests stop theirs.
 */
import { expect, test, type Page, type Response } from '@playwright/test'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer, type RunningServer } from '../../server/main'
import { createVisitorGroups } from '../../server/experiments/visitor-groups'
import { GROUPS_COOKIE } from '../../kernel/experiments/groups-cookie'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const FIRST_RENDER_MARK = 'parlay:first-render'

async function ownServer(): Promise<{ running: RunningServer; documentsDir: string; stop(): Promise<void> }> {
  const work = mkdtempSync(join(tmpdir(), 'parlay-firstload-'))
  const documentsDir = join(work, 'schemas')
  cpSync(process.env.PARLAY_E2E_SCHEMAS ?? join(ROOT, 'schemas'), documentsDir, { recursive: true })
  const distDir = process.env.PARLAY_E2E_DIST ?? join(ROOT, 'dist')
  // production, so with the staff TOTP key it needs (server/admin/totp-keys.ts)
  const running = await startServer({ port: 0, dataDir: join(work, 'data'), documentsDir, distDir, quiet: true, watch: false, totpKeys: { current: 'ef'.repeat(32) } })
  let stopped = false
  return {
    running,
    documentsDir,
    async stop() {
      if (stopped) return
      stopped = true
      await running.close()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/** An id the experiment client puts in the registration-motivation test group (or not). */
function idInGroup(documentsDir: string, inTest: boolean): string {
  const groups = createVisitorGroups(documentsDir)
  for (let n = 0; n < 1000; n++) {
    const id = `e2evisitor${String(n).padStart(14, '0')}`
    const decided = groups.decide({ token: 'parlay-web-demo-token', cookies: `${GROUPS_COOKIE}=1:${id}:`, userAgent: undefined, site: undefined })
    if (decided.experiments.registrationMotivation?.inTest === inTest) return id
  }
  throw new Error('no id in the asked group among 1000')
}

/** Console errors and uncaught page errors (the browser census counts them as failures). */
function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`))
  return problems
}

/** Sums the page's layout shifts (not after input), from its first paint, on every load. */
async function watchLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __layoutShift: number }
    w.__layoutShift = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) w.__layoutShift += entry.value
    }).observe({ type: 'layout-shift', buffered: true })
  })
}
/** The layout shift so far, once the browser has delivered the entries of the frames painted. */
async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done((window as unknown as { __layoutShift: number }).__layoutShift)))))
}
/** The page's HTML, as the server sent it, had the real screen, not the boot shell. */
async function serverRendered(response: Response | null): Promise<boolean> {
  const html = (await response?.text()) ?? ''
  return html.includes('data-screen="join"') && !html.includes('class="boot-shell"')
}

/** Same-origin resources the page fetched before its first screen rendered. */
async function fetchedBeforeFirstRender(page: Page): Promise<string[]> {
  await expect.poll(() => page.evaluate((mark) => performance.getEntriesByName(mark).length, FIRST_RENDER_MARK)).toBe(1)
  return page.evaluate((mark) => {
    const at = performance.getEntriesByName(mark)[0].startTime
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < at)
      .map((entry) => new URL(entry.name).pathname)
  }, FIRST_RENDER_MARK)
}

test.describe('online', () => {
  let server: Awaited<ReturnType<typeof ownServer>>
  test.beforeAll(async () => {
    server = await ownServer()
  })
  test.afterAll(async () => server?.stop())

  test('scripts and styles are served compressed and hashed assets are immutable', async ({ page }) => {
    const assets: { url: string; encoding?: string; cache?: string; headers: Record<string, string> }[] = []
    page.on('response', (response) => {
      const headers = response.headers()
      if (new URL(response.url()).pathname.startsWith('/assets/'))
        assets.push({ url: response.url(), encoding: headers['content-encoding'], cache: headers['cache-control'], headers })
    })
    await page.goto(`${server.running.url}/join`)
    await expect(page.locator('[data-screen="join"]')).toBeVisible()
    expect(assets.filter((a) => a.url.endsWith('.js')).length).toBeGreaterThan(0)
    for (const asset of assets) {
      expect(asset.encoding, asset.url).toMatch(/^(br|gzip)$/)
      expect(asset.cache, asset.url).toBe('public, max-age=31536000, immutable')
      // a subresource keeps what protects it and drops the document-only headers (CSP, framing…)
      expect(asset.headers['x-content-type-options'], asset.url).toBe('nosniff')
      expect(asset.headers['cross-origin-resource-policy'], asset.url).toBe('same-origin')
      expect(asset.headers['content-security-policy'], asset.url).toBeUndefined()
      expect(asset.headers['x-frame-options'], asset.url).toBeUndefined()
      // an immutable file is never revalidated nor fetched in parts: no validators, no ranges
      for (const name of ['etag', 'last-modified', 'accept-ranges']) expect(asset.headers[name], `${asset.url} ${name}`).toBeUndefined()
    }
  })

  test('the page HTML is compressed, revalidated, and carries its boot data as inert JSON', async ({ request }) => {
    const response = await request.get(`${server.running.url}/casino/lobby`, { headers: { 'accept-encoding': 'br, gzip' } })
    expect(response.headers()['content-encoding']).toMatch(/^(br|gzip)$/)
    expect(response.headers()['cache-control']).toBe('no-cache')
    const etag = response.headers()['etag']
    expect(etag).toBeTruthy()
    const html = await response.text()
    const boot = /<script type="application\/json" id="parlay-boot">([^]*?)<\/script>/.exec(html)?.[1] ?? ''
    expect(boot).not.toContain('<')
    const urls = (JSON.parse(boot) as { entries: { url: string }[] }).entries.map((e) => e.url)
    expect(urls).toEqual(expect.arrayContaining(['/api/site?locale=', '/api/i18n/en', '/api/documents/screen/casino-lobby?locale=en', '/api/documents/menu/left-menu?locale=en']))
    const again = await request.get(`${server.running.url}/casino/lobby`, { headers: { 'if-none-match': etag } })
    expect(again.status()).toBe(304)
  })

  test('before its script runs the page shows its real first screen, rendered on the server in the page’s language', async ({ browser }) => {
    // what a phone paints while the script downloads: the HTML alone (engine/ssr.tsx)
    const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } })
    const bare = await noScript.newPage()
    await bare.goto(`${server.running.url}/casino/lobby`)
    await expect(bare.getByTestId('lobby-title')).toHaveText('Casino lobby')
    await expect(bare.locator('.app-header .app-header__brand')).toHaveText('Parlay')
    expect((await bare.locator('.app-header').boundingBox())?.height).toBe(56)
    // the lobby's largest paint, a game card, is in the HTML with its image, loaded
    const card = bare.getByTestId('casino-games').locator('img.card__image').first()
    await expect(card).toHaveAttribute('fetchpriority', 'high')
    await expect.poll(() => card.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await expect(bare.locator('.boot-shell')).toHaveCount(0)
    await bare.goto(`${server.running.url}/ru/casino/lobby`)
    await expect(bare.getByTestId('lobby-title')).toHaveText('Лобби казино')
    await bare.goto(`${server.running.url}/sport/live/popular`)
    await expect(bare.locator('[data-screen="sport-lobby"]').getByTestId('lobby-title')).toHaveText('Live and popular')
    await expect(bare.getByTestId('sport-events').locator('li').first()).toBeVisible()
    // a screen that reads experiment groups is rendered too, with the visitor's groups
    await bare.goto(`${server.running.url}/join`)
    await expect(bare.getByTestId('page-title')).toHaveText('Sign up')
    await expect(bare.locator('.boot-shell')).toHaveCount(0)
    // a page the server cannot render the way the browser will keeps the boot shell: the header
    // bar, marked busy (the root path: the browser picks where it goes)
    await bare.goto(`${server.running.url}/`)
    const shell = bare.locator('#root > .boot-shell[aria-busy="true"]')
    await expect(shell).toHaveAttribute('aria-label', 'Loading…')
    await expect(shell.locator('.boot-shell__brand')).toHaveText('Parlay')
    expect((await shell.locator('.boot-shell__bar').boundingBox())?.height).toBe(56)
    await noScript.close()
  })

  test('a link in the server’s markup works before any script has run (a real navigation)', async ({ browser }) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } })
    const bare = await noScript.newPage()
    await bare.goto(`${server.running.url}/casino/lobby`)
    await bare.getByTestId('casino-games').getByRole('link', { name: /Book of Ra/ }).click()
    await expect(bare).toHaveURL(/\/casino\/game\?product=casino&id=book-of-ra$/)
    await noScript.close()
  })

  for (const path of ['/casino/lobby', '/sport/live/popular', '/join']) {
    test(`${path}: React takes over the server’s markup without the root going empty, with no console error and no CSP violation`, async ({ browser }) => {
      const page = await browser.newPage({ viewport: { width: 360, height: 740 } })
      const seen: string[] = []
      const problems: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`)
      })
      page.on('pageerror', (error) => problems.push(`page: ${error.message}`))
      // every state the root goes through once the script runs: never empty
      await page.exposeFunction('__rootState', (state: string) => seen.push(state))
      await page.exposeFunction('__violation', (what: string) => problems.push(`csp: ${what}`))
      await page.addInitScript(() => {
        const w = window as unknown as { __rootState(s: string): void; __violation(s: string): void }
        document.addEventListener('securitypolicyviolation', (event) => w.__violation(`${event.violatedDirective} ${event.blockedURI}`))
        new MutationObserver(() => {
          const root = document.getElementById('root')
          if (!root) return
          w.__rootState(root.querySelector('.boot-shell') ? 'boot-shell' : root.querySelector('.app-header') ? 'app' : 'empty')
        }).observe(document, { childList: true, subtree: true })
      })
      await page.goto(`${server.running.url}${path}`)
      await fetchedBeforeFirstRender(page)
      await expect(page.locator('.boot-shell')).toHaveCount(0)
      await expect(page.locator('.app-header .app-header__brand')).toHaveText('Parlay')
      expect(seen).not.toContain('empty')
      expect(seen.length).toBeGreaterThan(0)
      expect(problems).toEqual([])
      await page.close()
    })
  }

  test('the page renders without asking the API for the site, its texts or its documents', async ({ page }) => {
    const api: string[] = []
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname
      if (path === '/api/site' || path.startsWith('/api/i18n/') || path.startsWith('/api/documents/')) api.push(path)
    })
    await page.goto(`${server.running.url}/casino/lobby`)
    await expect(page.locator('[data-screen="casino-lobby"]')).toBeVisible()
    await fetchedBeforeFirstRender(page)
    expect(api).toEqual([])
  })

  for (const [path, allowed] of [
    ['/casino/lobby', []],
    ['/sport/live/popular', []],
    // /join's onEnter (join.loadSettings) loads that one action's module, not the domain-actions
    // barrel; the forms chunk brings the sign-up actions it submits with (auth, join)
    ['/join', ['FormNode', 'join-settings', 'auth', 'join']],
  ] as const) {
    test(`${path} fetches no chunk it does not use before its first render`, async ({ page }) => {
      await page.goto(`${server.running.url}${path}`)
      const scripts = (await fetchedBeforeFirstRender(page)).filter((p) => p.startsWith('/assets/') && p.endsWith('.js'))
      // `start`: the page's script that starts the entry after the first paint (web/start-after-paint.js)
      const lazy = scripts.map((p) => p.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '')).filter((name) => !['index', 'start'].includes(name))
      // nothing outside what the route uses (whether a used chunk is fetched just before or just
      // after the first render is a race, so only the unexpected ones fail); a bundler runtime
      // chunk counts too: it is one more request on every page (issue 18 removed the one it had)
      expect(lazy.filter((name) => !(allowed as readonly string[]).includes(name))).toEqual([])
    })
  }

  /** The names (hash left out) of the script chunks the page fetches from now on. */
  const scriptChunksFetched = (page: Page): string[] => {
    const scripts: string[] = []
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (path.startsWith('/assets/') && path.endsWith('.js')) scripts.push(path.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''))
    })
    return scripts
  }

  // A guest's lobby runs its onEnter (a punter's favourites, `when: session.loggedIn`) and asks the
  // web builder's pages for its group: neither may download code that will not run. The domain
  // actions are fetched for a step only when it is due; the web builder's applier (DOMPurify) only
  // when there are pages to apply. Checked once the page has gone quiet, before any touch.
  test('a guest on the lobby in a control group downloads no action it does not run and no web-builder applier', async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('sigma_forced_experiments', JSON.stringify([{ experimentId: 'lobbyBanner', groupIndex: 0 }])))
    const scripts = scriptChunksFetched(page)
    const pages = page.waitForResponse((response) => response.url().includes('/experiments/api/pages.json'))
    await page.goto(`${server.running.url}/casino/lobby`)
    expect((await pages).request().headers().group).toBe('control')
    await page.waitForLoadState('networkidle')
    expect(scripts).toContain('engine-binding')
    expect(scripts.filter((name) => ['actions', 'auth', 'join', 'play-money', 'regulation', 'web-builder-browser'].includes(name))).toEqual([])
  })

  test('a device in the web builder’s test group off the casino pages gets the pages’ CSS but no HTML sanitiser (no rule there sets HTML)', async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('sigma_forced_experiments', JSON.stringify([{ experimentId: 'lobbyBanner', groupIndex: 1 }])))
    const scripts = scriptChunksFetched(page)
    await page.goto(`${server.running.url}/join`)
    await expect.poll(() => scripts).toContain('web-builder-browser')
    await page.waitForLoadState('networkidle')
    expect(scripts.filter((name) => name.startsWith('purify'))).toEqual([])
  })

  test('a returning visitor of the test group has the motivation banner in the first render of /join (nothing inserted above the form later)', async ({ page }) => {
    await page.addInitScript(() => {
      window.localStorage.setItem('sigma_forced_experiments', JSON.stringify([{ experimentId: 'registrationMotivation', groupIndex: 1 }]))
      // was the banner already there when the screen's title first appeared?
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[data-testid="page-title"]')) return
        ;(window as unknown as { bannerWithTitle: boolean }).bannerWithTitle = document.querySelector('[data-testid="join-motivation"]') !== null
        observer.disconnect()
      }).observe(document, { childList: true, subtree: true })
    })
    await page.goto(`${server.running.url}/join`)
    await expect(page.getByTestId('join-motivation')).toBeVisible()
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('parlay.experiments.last') ?? '')).toContain('registrationMotivation')
    await page.reload()
    await expect(page.getByTestId('join-motivation')).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { bannerWithTitle?: boolean }).bannerWithTitle)).toBe(true)
  })

  // /join server-rendered with the visitor's experiment groups (issue 10): the server decides the
  // groups the browser's first render uses and its experiment client later answers, so nothing
  // is inserted above the form or removed from it once the scripts run, in either group, on a
  // first visit and on a reload
  for (const group of ['test', 'control'] as const) {
    test(`/join in the motivation ${group} group: server-rendered, the client answers the same group, layout shift ≤ 0.02 on the first visit and the reload, no console error`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
      // a first visit as the server starts one: an id and no groups yet (what it mints and sets
      // for a browser without the cookie), picked so the id falls in this group
      const id = idInGroup(server.documentsDir, group === 'test')
      await context.addCookies([{ name: GROUPS_COOKIE, value: `1:${id}:`, url: server.running.url }])
      const page = await context.newPage()
      const problems = watchProblems(page)
      await watchLayoutShift(page)
      for (const visit of ['first visit', 'reload']) {
        const response = visit === 'first visit' ? await page.goto(`${server.running.url}/join`) : await page.reload()
        // the experiment client has answered, and the answer is the group the server rendered
        await expect.poll(() => page.evaluate(() => window.localStorage.getItem('parlay.experiments.last') ?? ''), { message: visit }).toContain('registrationMotivation')
        const answered = await page.evaluate(() => (JSON.parse(window.localStorage.getItem('parlay.experiments.last')!) as Record<string, { inTest: boolean }>).registrationMotivation.inTest)
        expect(answered, visit).toBe(group === 'test')
        expect(await page.evaluate(() => window.localStorage.getItem('parlay.deviceId')), visit).toBe(id)
        await expect(page.getByTestId('join-motivation'), visit).toHaveCount(group === 'test' ? 1 : 0)
        // the form has replaced its placeholder: the last thing that could have moved the page
        await expect(page.locator('[data-screen="join"] form'), visit).toBeVisible()
        expect(await serverRendered(response), visit).toBe(true)
        expect(await layoutShift(page), visit).toBeLessThanOrEqual(0.02)
      }
      expect(problems).toEqual([])
      await context.close()
    })
  }

  test('/join on a first visit without any cookie: the server sets the id and groups it rendered, and the client answers the same', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await watchLayoutShift(page)
    const response = await page.goto(`${server.running.url}/join`)
    const set = /^parlay_exp=1:([a-z0-9]{24}):[^;]*registrationMotivation\.(0|1)/.exec((await response!.allHeaders())['set-cookie'] ?? '')
    expect(set).not.toBeNull()
    const [, id, index] = set!
    expect(await serverRendered(response)).toBe(true)
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('parlay.experiments.last') ?? '')).toContain('registrationMotivation')
    expect(await page.evaluate(() => window.localStorage.getItem('parlay.deviceId'))).toBe(id)
    const answered = await page.evaluate(() => (JSON.parse(window.localStorage.getItem('parlay.experiments.last')!) as Record<string, { index: number }>).registrationMotivation.index)
    expect(answered).toBe(Number(index))
    await expect(page.getByTestId('join-motivation')).toHaveCount(index === '1' ? 1 : 0)
    await expect(page.locator('[data-screen="join"] form')).toBeVisible()
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02)
    expect(problems).toEqual([])
    await context.close()
  })

  test('the favicon is served (no 404 on any page)', async ({ request }) => {
    const response = await request.get(`${server.running.url}/favicon.ico`)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toContain('image/svg+xml')
  })
})

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' })
  test.setTimeout(120_000)

  /** Visits `path` until the service worker controls the page and has kept it. */
  async function visitUntilKept(page: Page, url: string, screen: string) {
    await page.goto(url)
    await expect(page.locator(`[data-screen="${screen}"]`)).toBeVisible()
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => page.evaluate(async () => (await caches.match(location.href)) !== undefined), { timeout: 30_000 }).toBe(true)
  }

  test('a reload with the server stopped shows the last good screen', async ({ page }) => {
    const server = await ownServer()
    try {
      const url = `${server.running.url}/casino/lobby`
      await visitUntilKept(page, url, 'casino-lobby')
      const title = await page.locator('[data-screen="casino-lobby"] h1, [data-screen="casino-lobby"] .text-title').first().textContent()
      await server.stop()
      await page.reload()
      await expect(page.locator('[data-screen="casino-lobby"]')).toBeVisible()
      await expect(page.locator('[data-screen="casino-lobby"] h1, [data-screen="casino-lobby"] .text-title').first()).toHaveText(title ?? '')
      await expect(page.getByTestId('error-page')).toHaveCount(0)
    } finally {
      await server.stop()
    }
  })

  test('a screen never visited shows the offline page when the server is down, never a 500', async ({ page }) => {
    const server = await ownServer()
    try {
      await visitUntilKept(page, `${server.running.url}/casino/lobby`, 'casino-lobby')
      const base = server.running.url
      await server.stop()
      await page.goto(`${base}/sport/live/popular`)
      await expect(page.getByTestId('offline-page')).toBeVisible()
      await expect(page.getByTestId('error-page')).toHaveCount(0)
      await expect(page.locator('body')).not.toContainText('500')
    } finally {
      await server.stop()
    }
  })
})
