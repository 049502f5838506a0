/**
 * Issue 10, the first screen rendered on the server (engine/ssr.tsx): a guest's page
 * HTML carries the route's real first screen — header, texts in the page's language, the lobby's
 * game cards with their images — built from the same boot entries the page carries, with the
 * screen data it shows in those entries too; no style attribute (CSP `style-src 'self'`); the
 * consent banner when the cookie holds no choice; a screen reading experiment groups (/join) with
 * the visitor's groups from the groups cookie, or decided here for a first visit (and carried in
 * the boot data). What the server cannot render the same way as the browser (data that fails, a
 * tree that throws) keeps today's boot shell: never a 500, never a stack in the page.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { renderFirstScreen } from '../../engine/ssr'
import type { SiteBootstrap } from '../../kernel/core/contracts'
import { rawRequest, SCHEMAS_DIR, startTestServer, type TestServer } from '../support/server'

const root = (html: string) => /<div id="root">([^]*?)<\/div><script type="application\/json" id="parlay-boot">/.exec(html)?.[1] ?? ''
const bootUrls = (html: string) =>
  (JSON.parse(/<script type="application\/json" id="parlay-boot">([^]*?)<\/script>/.exec(html)?.[1] ?? '{"entries":[]}') as { entries: { url: string; body: unknown }[] }).entries

describe('the first screen rendered on the server', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => server?.dispose())

  it('the lobby HTML is the real first screen: header, title, game cards with their images, and the data it shows travels in the boot entries', async () => {
    const res = await rawRequest(server.port, { path: '/casino/lobby' })
    expect(res.status).toBe(200)
    const markup = root(res.body)
    expect(markup).toContain('<header class="app-header">')
    expect(markup).toContain('data-screen="casino-lobby"')
    expect(markup).toContain('>Casino lobby</h1>')
    expect(markup).toMatch(/<img class="card__image" src="\/api\/content\/images\/starburst-deluxe\.png"[^>]*fetchPriority="high"/)
    expect(markup).not.toContain('boot-shell')
    // its buttons do nothing until React has taken over, and say so
    expect(markup).toContain('<button aria-disabled="true" type="button" class="button" data-variant="secondary" data-testid="open-demo-popup">')
    expect(markup).not.toMatch(/<button(?! aria-disabled="true")/)
    // the image preloads React emits go to the head, not the body
    expect(res.body.split('</head>')[0]).toContain('<link rel="preload" as="image" href="/api/content/images/starburst-deluxe.png"')
    const games = bootUrls(res.body).find((entry) => entry.url === '/api/content/games?section=casino&locale=en')
    const api = await rawRequest(server.port, { path: '/api/content/games?section=casino&locale=en' })
    expect(games?.body).toEqual(api.json())
    expect(String(res.headers['server-timing'])).toMatch(/^data;dur=[\d.]+, ssr;dur=[\d.]+$/)
  })

  it('no style attribute anywhere in the markup (the CSP allows only same-origin style sheets)', async () => {
    for (const path of ['/casino/lobby', '/sport/live/popular', '/promotions', '/account/lost-password']) {
      const res = await rawRequest(server.port, { path })
      expect(root(res.body), path).toContain('data-screen=')
      expect(root(res.body), path).not.toMatch(/\sstyle="/)
    }
  })

  it('/login carries the real form, not a placeholder: labelled inputs and its submit button in the page’s language', async () => {
    const res = await rawRequest(server.port, { path: '/login' })
    const markup = root(res.body)
    // the day its date rules were rendered with travels on its host, so the browser hydrates the same
    expect(markup).toMatch(/<div class="form-host" data-form-host="login" data-form-today="\d{4}-\d{2}-\d{2}" data-form-pending="">/)
    expect(markup).not.toContain('form-loading')
    expect(markup).toMatch(/<label class="form-label" for="root_login">E-mail, account number or nickname<span class="form-required" aria-hidden="true"> \*<\/span><\/label><input id="root_login"/)
    expect(markup).toMatch(/<label class="form-label" for="root_password">Password<span[^>]*> \*<\/span><\/label><div class="form-password"><input id="root_password"[^>]* type="password"/)
    expect(markup).toContain('<label class="form-checkbox" for="root_rememberMe"><input id="root_rememberMe" type="checkbox"')
    // the form's buttons work before the script (a submit is held until the form is live), so they
    // are not marked inert like the page's other buttons; no autofocus (a focus at load would count
    // as the punter's first use and load the script at once)
    expect(markup).toContain('<button type="submit" class="form-button form-button-primary" data-testid="form-submit">Log in</button>')
    expect(markup).not.toMatch(/autofocus/i)
    // React's markers of a completed boundary around it: the browser keeps it as HTML until first use
    expect(markup).toMatch(/data-form-pending=""><!--\$--><section class="form-flow" data-testid="login-form"/)
    const russian = root((await rawRequest(server.port, { path: '/ru/login' })).body)
    expect(russian).toMatch(/<label class="form-label" for="root_password">Пароль/)
  })

  it('renders in the page’s language: /ru/casino/lobby is in Russian with its links under /ru', async () => {
    const res = await rawRequest(server.port, { path: '/ru/casino/lobby' })
    const markup = root(res.body)
    expect(markup).toContain('>Лобби казино</h1>')
    expect(markup).toContain('href="/ru/sport/live/popular"')
  })

  it('shows the consent banner to a first visit and not once the cookie holds a choice', async () => {
    const first = await rawRequest(server.port, { path: '/casino/lobby' })
    expect(root(first.body)).toContain('data-testid="cookie-consent"')
    const chosen = await rawRequest(server.port, { path: '/casino/lobby', headers: { cookie: 'ConsentCookie=all' } })
    expect(root(chosen.body)).toContain('data-screen="casino-lobby"')
    expect(root(chosen.body)).not.toContain('data-testid="cookie-consent"')
    expect(chosen.headers['vary']).toContain('Cookie')
  })

  it('a browser that holds a punter session (the parlay_punter hint) gets the boot shell, never the guest header', async () => {
    const punter = await rawRequest(server.port, { path: '/casino/lobby', headers: { cookie: 'ConsentCookie=all; parlay_punter=1' } })
    expect(punter.status).toBe(200)
    expect(root(punter.body)).toMatch(/^<div class="boot-shell"/)
    expect(root(punter.body)).not.toContain('data-header-item="login"')
    const guest = await rawRequest(server.port, { path: '/casino/lobby', headers: { cookie: 'ConsentCookie=all' } })
    expect(root(guest.body)).toContain('data-header-item="login"')
  })

  it('a studio preview (?preview=) keeps the boot shell: its documents are a draft the server renderer does not know', async () => {
    const preview = await rawRequest(server.port, { path: '/join?preview=some-token', headers: { cookie: 'ConsentCookie=all' } })
    expect(preview.status).toBeLessThan(500)
    expect(root(preview.body)).toMatch(/^<div class="boot-shell"/)
  })

  it('the root path and an unknown path keep the boot shell', async () => {
    for (const path of ['/', '/no/such/page']) {
      const res = await rawRequest(server.port, { path })
      expect(res.status, path).toBeLessThan(500)
      expect(root(res.body), path).toMatch(/^<div class="boot-shell"/)
    }
  })
})

describe('a screen that reads experiment groups (/join) is rendered on the server with the visitor’s groups', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => server?.dispose())
  const visitor = (indices: string) => ({ cookie: `ConsentCookie=all; parlay_exp=1:abcdefgh12345678:${indices}` })
  const bootGroups = (html: string) =>
    (JSON.parse(/<script type="application\/json" id="parlay-boot">([^]*?)<\/script>/.exec(html)?.[1] ?? '{}') as { experiments?: Record<string, { inTest?: boolean; index?: number }> }).experiments

  it('the test group’s /join HTML has the motivation banner above the form; the control group’s has none; both are the real screen, not the boot shell', async () => {
    const test = await rawRequest(server.port, { path: '/join', headers: visitor('registrationMotivation.1') })
    const control = await rawRequest(server.port, { path: '/join', headers: visitor('registrationMotivation.0') })
    for (const res of [test, control]) {
      expect(res.status).toBe(200)
      expect(root(res.body)).toContain('data-screen="join"')
      expect(root(res.body)).not.toContain('boot-shell')
      // a returning visitor's cookie is theirs already: nothing is set
      expect(res.headers['set-cookie']).toBeUndefined()
    }
    expect(root(test.body)).toContain('data-testid="join-motivation"')
    // above the form (its placeholder or the form itself), which the links below follow
    expect(root(test.body).indexOf('data-testid="join-motivation"')).toBeLessThan(root(test.body).indexOf('data-testid="join-by-email"'))
    expect(root(control.body)).not.toContain('data-testid="join-motivation"')
    // the browser's first render gets the same groups from the boot data
    expect(bootGroups(test.body)?.registrationMotivation).toMatchObject({ index: 1, inTest: true })
    expect(bootGroups(control.body)?.registrationMotivation).toMatchObject({ index: 0, inTest: false })
    // each group's markup is kept apart (the groups are part of the rendered-markup key)
    const testAgain = await rawRequest(server.port, { path: '/join', headers: visitor('registrationMotivation.1') })
    expect(root(testAgain.body)).toContain('data-testid="join-motivation"')
  })

  it('a first visit (no cookie) is server-rendered too and gets the id and groups its markup used in a first-party cookie', async () => {
    const res = await rawRequest(server.port, { path: '/join', headers: { cookie: 'ConsentCookie=all' } })
    expect(res.status).toBe(200)
    expect(root(res.body)).toContain('data-screen="join"')
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
    expect(setCookie).toHaveLength(1)
    expect(setCookie[0]).toMatch(/^parlay_exp=1:[a-z0-9]{24}:[^;]*registrationMotivation\.(0|1)[^;]*; Path=\/; SameSite=Lax; Max-Age=31536000$/)
    const index = Number(/registrationMotivation\.(\d)/.exec(setCookie[0])![1])
    expect(bootGroups(res.body)?.registrationMotivation?.index).toBe(index)
    expect(root(res.body).includes('data-testid="join-motivation"')).toBe(index === 1)
  })

  it('a bad groups cookie is ignored (a new id), never a 500', async () => {
    for (const value of ['%%%', '1:bad', `1:abcdefgh12345678:${'x.1/'.repeat(400)}`, '1:abcdefgh12345678:registrationMotivation.999']) {
      const res = await rawRequest(server.port, { path: '/join', headers: { cookie: `parlay_exp=${value}` } })
      expect(res.status, value).toBe(200)
      expect(root(res.body), value).toContain('data-screen="join"')
    }
  })
})

describe('what the server cannot render keeps the boot shell, never a 500', () => {
  let server: TestServer
  let documentsDir: string
  beforeAll(async () => {
    documentsDir = join(mkdtempSync(join(tmpdir(), 'parlay-first-screen-')), 'schemas')
    cpSync(SCHEMAS_DIR, documentsDir, { recursive: true })
    // the lobby's data source answers 400 (an unknown section)
    const file = join(documentsDir, 'screens', 'casino-lobby.json')
    writeFileSync(file, readFileSync(file, 'utf8').replace('/api/content/games?section=casino&locale={locale}', '/api/content/line?section=nope&state=live'))
    server = await startTestServer({ documentsDir })
  })
  afterAll(async () => {
    await server?.dispose()
    rmSync(join(documentsDir, '..'), { recursive: true, force: true })
  })

  it('a screen whose data fails to load: the page with the boot shell and the data preloaded for the browser', async () => {
    const res = await rawRequest(server.port, { path: '/casino/lobby' })
    expect(res.status).toBe(200)
    expect(root(res.body)).toMatch(/^<div class="boot-shell"/)
    expect(res.body).toContain('<link rel="preload" as="fetch" crossorigin href="/api/content/line?section=nope&amp;state=live">')
  })

  it('a tree that throws while rendering answers undefined and says why', () => {
    const onError = vi.fn()
    const markup = renderFirstScreen({
      url: '/casino/lobby',
      pathname: '/casino/lobby',
      locale: 'en',
      // a bootstrap without its site: the shell cannot render
      bootstrap: {} as SiteBootstrap,
      translations: undefined,
      entries: [],
      data: [],
      cookies: '',
      onError,
    })
    expect(markup).toBeUndefined()
    expect(onError).toHaveBeenCalledOnce()
  })
})
