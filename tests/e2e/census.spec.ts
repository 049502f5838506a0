/**
 * The site census (issue 9 item 6): every site × every locale × every spec §2 route, in Chromium at
 * phone size, as a guest — and the account pages as that site's demo punter, logged in through the
 * UI. A landing once went green while three sites showed raw keys, because every test used `/en/`
 * paths; this file walks the real sites the way a punter does and fails, naming site, locale and
 * route, on: a raw or missing translation key, an English text under another language, a 404 (HTTP
 * or rendered), a console error or page exception, and a page whose main content is a stock
 * sentence (too short, or the same text as another screen). The form popups (spec §2 select, date,
 * calendar; issue 34 item 9) are opened in the same page: the sign-up's first two steps and any
 * account page's, each named in the page's language, within 360 px, closed by Escape
 * (./census-popups.ts). The calendar, shown only to a Russian punter not yet identified, has its
 * own row per Russian locale: ./calendar-popup-census.spec.ts.
 *
 * Speed: one page per site/locale, loaded once; each further route is a history navigation (what
 * the back button does), awaited on the engine's `parlay:screen-rendered` event — a state, not a
 * timer, and so is the way to the login (no second load). One test per site/locale, run in
 * parallel, so the config's workers share the census; on the worker's shared server.
 *
 * Every site × every locale the site declares × every spec §2 route, as guest and as punter (the
 * account pages and whatever asked a guest to log in). Each route's HTTP status (bare and under
 * every locale prefix, catch-alls with deep paths) is also checked without a browser in
 * tests/http/routes.test.ts, and every text key any document or engine code uses exists in every
 * shipped locale with the same placeholders: schema-lint, run by `npm test` before any test.
 */
import type { Page } from '@playwright/test'
import { readSpecRoutes, specPagePaths } from '../support/spec-routes'
import { expect, test } from './fixtures'
import { openDemoPunter, siteDocument, SITES } from '../support/sites'
import { checkPopupFields, checkSignUpPopups, flowPopupKinds } from './census-popups'
import { englishWords, popupTexts, rawKeys, shippedText } from './census-texts'

const PASSWORD = 'parlay-demo-1'
const SETTLE_TIMEOUT = 10_000
/** Main content shorter than this (title line excluded) is a stock sentence, not a page. */
const MIN_CONTENT_CHARS = 80
const MAX_ENGLISH_WORDS = 2

test.describe.configure({ mode: 'parallel', timeout: 240_000 })
// reads only, and its punters' logins change nothing another file reads: the worker's shared server
test.use({ serverScope: 'worker' })

// ---------------------------------------------------------------------------------------------
// What to visit: the sites and their locales (jurisdiction documents), the spec §2 routes.

interface Site {
  id: string
  host: string
  locales: string[]
  defaultLocale: string
  country: string
}

/** The declared sites (tests/support/sites.ts), each by its first *.localhost host (Curaçao also
 * answers on localhost itself). */
function sites(): Site[] {
  return SITES.map((id) => {
    const doc = siteDocument(id)
    const host = doc.hosts.find((h) => h.endsWith('.localhost')) ?? doc.hosts[0]
    return { id: doc.id, host, locales: doc.locales, defaultLocale: doc.defaultLocale, country: doc.country }
  })
}

/** One OPENED demo punter per site and its currency (docs/demo-data.md; server/punters/demo.ts). */
const DEMO_PUNTER: Record<string, { login: string; currency: string }> = Object.fromEntries(SITES.map((id) => [id, { login: openDemoPunter(id), currency: siteDocument(id).currency }]))

/**
 * Findings that belong to a feature not built yet, named so the census stays a gate for
 * everything else. Each is reported as an annotation on every run (and when it stops being seen,
 * so the entry can go). Matched on the route without its locale prefix and the finding's text.
 */
const KNOWN_GAPS: { route: RegExp; finding: RegExp; feature: string }[] = [
]

/** Every spec §2 page path (without a locale prefix), once each, and an unknown one. */
function specRoutes(): { pages: string[]; unknown: string } {
  const spec = readSpecRoutes()
  return { pages: specPagePaths(spec), unknown: spec.unknown[0] }
}

function bare(route: string, site: Site): string {
  const first = route.split('/')[1] ?? ''
  return site.locales.includes(first) ? route.slice(first.length + 1) || '/' : route
}

/** The path as this locale's punter sees it: the default locale has no prefix (spec §2 /{lang}). */
function localized(path: string, locale: string, site: Site): string {
  if (locale === site.defaultLocale) return path
  return path === '/' ? `/${locale}` : `/${locale}${path}`
}

// ---------------------------------------------------------------------------------------------
// What counts as a finding.

/** The main text without its first line (the title): what the page says beyond its name. */
function contentBeyondTitle(main: string): string {
  const lines = main.split('\n').map((l) => l.trim()).filter(Boolean)
  return lines.slice(1).join(' ')
}

// ---------------------------------------------------------------------------------------------
// Driving the page.

interface Settled {
  screen: string
  path: string
  main: string
  body: string
  lang: string
}

/** Records the engine's "screen rendered" events and reports (missing keys, fallbacks, errors). */
async function instrument(page: Page, site: Site, noted: (problem: string) => void): Promise<void> {
  await page.addInitScript(() => {
    window.addEventListener('parlay:screen-rendered', (event) => {
      ;(window as unknown as { __censusSignal: unknown }).__censusSignal = (event as CustomEvent).detail
    })
  })
  page.on('console', (message) => {
    const text = message.text()
    if (message.type() === 'error') noted(`console error: ${text} ${message.location().url ?? ''}`.trim())
    else if (message.type() === 'warning' && text.startsWith('[parlay:')) noted(`engine report: ${text}`)
  })
  page.on('pageerror', (error) => noted(`uncaught exception: ${error.message}`))
  // a redirect to another web site (desktop site, help centre) is answered here: no network
  await page.route(
    (url) => url.hostname !== site.host && !url.hostname.endsWith('localhost') && url.hostname !== '127.0.0.1',
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>elsewhere</title>' }),
  )
}

/** Waits until the engine announced a screen for the current history entry and nothing loads. */
async function settle(page: Page, site: Site): Promise<Settled | { external: string }> {
  const deadline = Date.now() + SETTLE_TIMEOUT
  for (;;) {
    if (new URL(page.url()).hostname !== site.host) return { external: page.url() }
    try {
      const handle = await page.waitForFunction(
        (host) => {
          if (window.location.hostname !== host) return { external: window.location.href }
          const signal = (window as unknown as { __censusSignal?: { screen: string; key: string } }).__censusSignal
          const key = (window.history.state as { key?: string } | null)?.key ?? 'default'
          if (!signal || signal.key !== key || document.querySelector('main [aria-busy="true"]')) return false
          const main = document.querySelector('main') as HTMLElement | null
          return {
            screen: signal.screen,
            path: window.location.pathname + window.location.search,
            main: main?.innerText ?? '',
            body: document.body.innerText,
            lang: document.documentElement.lang,
          }
        },
        site.host,
        { timeout: Math.max(1, deadline - Date.now()) },
      )
      return (await handle.jsonValue()) as Settled | { external: string }
    } catch (error) {
      // the page reloaded or left the site under us: look again, until the deadline
      if (Date.now() >= deadline) throw error
      await page.waitForLoadState('domcontentloaded').catch(() => undefined)
    }
  }
}

/** A history navigation inside the loaded page (what back/forward does): no reload, no re-boot. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    ;(window as unknown as { __censusSignal: unknown }).__censusSignal = null
    const idx = (((window.history.state as { idx?: number } | null)?.idx ?? 0) as number) + 1
    window.history.pushState({ usr: null, key: `census-${idx}-${Math.random().toString(36).slice(2, 8)}`, idx }, '', to)
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }))
  }, path)
}

/** The login popup, from the home page reached inside the loaded page (no second cold load). */
async function logIn(page: Page, site: Site, locale: string): Promise<void> {
  await visit(page, localized('/', locale, site))
  await settle(page, site)
  // popups the guest routes opened (the login guard, a payment result) stay over in-app navigation,
  // as they would for a punter: closed one at a time, as a punter would, before the header's Log in
  const dialogs = page.getByRole('dialog')
  for (let open = await dialogs.count(); open > 0; open = await dialogs.count()) {
    await page.keyboard.press('Escape')
    await expect(dialogs).toHaveCount(open - 1)
  }
  await page.locator('[data-header-item="login"]').click()
  const popup = page.locator('[data-popup-id="login"]')
  await popup.locator('input[autocomplete="username"]').fill(DEMO_PUNTER[site.id].login)
  await popup.locator('input[autocomplete="current-password"]').fill(PASSWORD)
  await popup.getByTestId('form-submit').click()
  await expect(page.locator('[data-header-item="profile"]')).toBeVisible({ timeout: 30_000 })
  // an after-login notice (last login date from the second login on) is read and closed
  if (await dialogs.count()) await page.keyboard.press('Escape')
}

/** The header balance as shown, and the same amount formatted for the page's locale by Intl
 * (spec §5: 2 decimals, grouping from 10 000; the sign as the jurisdiction document's
 * currencyDisplay says, docs/money-rules.md) — null when the header shows no balance. */
async function headerBalance(page: Page, currency: string, display: string): Promise<{ shown: string; expected: string } | null> {
  const amount = page.locator('[data-testid="header-balance"] data')
  if ((await amount.count()) === 0) return null
  return amount.evaluate(
    (element, { code, display }) => {
      const value = Number((element as HTMLDataElement).value)
      const options = { style: 'currency', currency: code, currencyDisplay: display as Intl.NumberFormatOptions['currencyDisplay'], minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: Math.abs(value) >= 10_000 } as const
      return { shown: element.textContent ?? '', expected: new Intl.NumberFormat(document.documentElement.lang, options).format(value) }
    },
    { code: currency, display },
  )
}

// ---------------------------------------------------------------------------------------------
// The census.

const ROUTES = specRoutes()

/** The guard on a login-only page (spec §2, issue 34 item 9): the login dialog over the page,
 * named in the page's language. Answers a finding, or null. */
async function guardFinding(page: Page, locale: string): Promise<string | null> {
  const dialog = page.locator('[role="dialog"][data-popup-id="login"]')
  // the popup's document loads after the page announced itself: wait for the state, briefly
  if (!(await dialog.waitFor({ state: 'visible', timeout: SETTLE_TIMEOUT }).then(() => true, () => false))) return 'a login-only page shows no login dialog to a guest'
  const expected = shippedText(locale, 'auth.login.title')
  const name = await dialog.evaluate((el) => document.getElementById(el.getAttribute('aria-labelledby') ?? '')?.textContent?.trim() ?? '')
  return expected && name !== expected ? `the login dialog is called "${name}", the ${locale} text is "${expected}"` : null
}

/** A path no screen serves shows the 404 page, in the page's language. Answers a finding, or null. */
async function notFoundFinding(page: Page, site: Site, locale: string, unknown: string): Promise<string | null> {
  await visit(page, unknown)
  const notFound = await settle(page, site)
  if (!('screen' in notFound) || notFound.screen !== 'error-404') return `expected the 404 page, got ${JSON.stringify('screen' in notFound ? notFound.screen : notFound)}`
  if (locale !== 'en' && /could not be found|Go to the home page/.test(notFound.main)) return `the 404 page is in English: "${notFound.main.replace(/\s+/g, ' ')}"`
  return null
}

/** The punter's header: the balance in the locale's money format, and at 360 px the brand whole
 * beside the punter's items (balance, deposit, inbox, avatar; issue 9). */
async function headerFindings(page: Page, site: Site, locale: string): Promise<string[]> {
  const problems: string[] = []
  const currency = DEMO_PUNTER[site.id].currency
  const balance = await headerBalance(page, currency, (siteDocument(site.id).currencyDisplay as Record<string, string> | undefined)?.[currency] ?? 'symbol')
  if (balance && balance.shown !== balance.expected) problems.push(`balance shows "${balance.shown}", the ${locale} money format is "${balance.expected}"`)
  const brand = await page.locator('.app-header__brand').evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth, text: el.textContent }))
  if (brand.cut) problems.push(`the brand "${brand.text}" is cut beside the punter's header items`)
  return problems
}

/** What a settled page's main text says wrong: a stock sentence, another screen's text, English
 * under another locale. Remembers the text by screen for the next pages. */
function contentFindings(settled: Settled, route: string, locale: string, textsByScreen: Map<string, { text: string; route: string }>): string[] {
  const problems: string[] = []
  if (contentBeyondTitle(settled.main).length < MIN_CONTENT_CHARS) problems.push(`main content is a stock sentence: "${settled.main.replace(/\s+/g, ' ').trim()}"`)
  const previous = [...textsByScreen.entries()].find(([screen, seen]) => screen !== settled.screen && seen.text === settled.main)
  if (previous && settled.main.trim()) problems.push(`same main text as ${previous[1].route} (screen ${previous[0]}): a shared stock text`)
  textsByScreen.set(settled.screen, { text: settled.main, route })
  const english = locale === 'en' ? [] : englishWords(settled.main)
  if (english.length > MAX_ENGLISH_WORDS) problems.push(`English in a ${locale} page: ${english.join(', ')}`)
  return problems
}

/** The form popups of the site's sign-up (spec §2 select, date, calendar; issue 34 item 9), reached
 * in the loaded page; every kind its flow document asks for must have been met. */
async function signUpPopupFindings(page: Page, site: Site, locale: string, join: string): Promise<{ kinds: Set<string>; problems: string[] }> {
  const signUp = await checkSignUpPopups(page, () => visit(page, join), site, popupTexts(locale), locale)
  const kinds = new Set(signUp.kinds)
  const missing = flowPopupKinds(site.id, signUp.flow).filter((kind) => !kinds.has(kind))
  return { kinds, problems: [...signUp.problems, ...missing.map((kind) => `the ${kind} popup that ${signUp.flow} asks for was not met on its first two steps`)] }
}

for (const site of sites()) {
  for (const locale of site.locales) {
    test(`${site.id} in ${locale}: every spec route shows real ${locale} content, no raw key, no 404, no console error`, async ({ page, baseURL }) => {
      const origin = `http://${site.host}:${new URL(baseURL!).port}`
      const findings: string[] = []
      let here = '(first load)'
      await instrument(page, site, (problem) => findings.push(`${site.id} ${locale} ${here}: ${problem}`))
      const gapsSeen = new Set<string>()
      let who = 'guest'
      const found = (route: string, problem: string) => {
        const gap = KNOWN_GAPS.find((g) => g.route.test(bare(route, site)) && g.finding.test(problem))
        if (gap) gapsSeen.add(gap.feature)
        else findings.push(`${site.id} ${locale} ${route} (${who}): ${problem}`)
      }

      const textsByScreen = new Map<string, { text: string; route: string }>()
      const loginOnly: string[] = []
      const check = async (route: string, asPunter: boolean) => {
        here = route
        const settled = await settle(page, site).catch(() => null)
        if (settled === null || 'external' in settled) {
          // never settled, or left the site on purpose (desktop site link): back for the next route
          if (settled === null) found(route, `never settled: no screen announced within ${SETTLE_TIMEOUT / 1000} s (at ${page.url()})`)
          await page.goto(origin + localized('/', locale, site))
          await settle(page, site)
          return
        }
        for (const key of rawKeys(settled.body)) found(route, `raw translation key on the page: ${key}`)
        if (settled.lang !== locale) found(route, `<html lang="${settled.lang}">, expected ${locale}`)
        if (settled.screen.startsWith('error-')) return found(route, `renders the ${settled.screen} page (landed on ${settled.path})`)
        if (settled.screen === 'login-required') {
          if (asPunter) found(route, 'asks the logged-in punter to log in')
          else {
            loginOnly.push(route)
            const guard = await guardFinding(page, locale)
            if (guard) found(route, guard)
          }
          return
        }
        for (const problem of contentFindings(settled, route, locale, textsByScreen)) found(route, problem)
      }

      // as a guest: the list, one full load, then history navigations
      const guestRoutes = ROUTES.pages.map((path) => localized(path, locale, site))
      await page.goto(origin + guestRoutes[0])
      await check(guestRoutes[0], false)
      for (const route of guestRoutes.slice(1)) {
        await visit(page, route)
        await check(route, false)
      }

      // a path no screen serves: the 404 page, in the page's language
      const unknown = localized(ROUTES.unknown, locale, site)
      const notFound = await notFoundFinding(page, site, locale, unknown)
      if (notFound) found(unknown, notFound)
      // the form popups: the sign-up's, reached in the page
      const join = (here = localized('/join', locale, site))
      const popups = await signUpPopupFindings(page, site, locale, join)
      popups.problems.forEach((problem) => found(join, problem))

      // as the site's demo punter: the account pages and whatever asked a guest to log in
      here = '(log in)'
      who = 'punter'
      await logIn(page, site, locale)
      for (const problem of await headerFindings(page, site, locale)) found('(header)', problem)
      const accountRoutes = [...new Set([...ROUTES.pages.filter((p) => p.startsWith('/account')).map((p) => localized(p, locale, site)), ...loginOnly])]
      for (const route of accountRoutes) {
        await visit(page, route)
        await check(route, true)
        // a popup field on an account page (Russia's passport date of issue: calendar) is opened too
        const onPage = await checkPopupFields(page, popupTexts(locale), locale)
        onPage.kinds.forEach((kind) => popups.kinds.add(kind))
        onPage.problems.forEach((problem) => found(route, problem))
      }
      test.info().annotations.push({ type: 'popups', description: `${site.id} ${locale}: ${[...popups.kinds].sort().join(', ') || 'none'}` })

      for (const feature of gapsSeen) {
        test.info().annotations.push({ type: 'known gap', description: `${site.id} ${locale}: ${feature}` })
        console.log(`census known gap, ${site.id} ${locale}: ${feature}`)
      }
      expect(findings, `census of ${site.id} in ${locale} (${guestRoutes.length} guest routes, ${accountRoutes.length} punter routes)`).toEqual([])
    })
  }
}
