/**
 * The betting and casino loop on every site at phone size (issue 31 item 8): one test per site, in
 * the site's own language, one page walking the loop with taps (no address typed after the login):
 * casino search, filter and demo play as a guest (or the refusal, where the jurisdiction's
 * games.demoPlay is false); picks from home, live and upcoming; a price the dev feed moves while
 * the slip is open, decided by each odds-change setting (ask, accept higher, accept any); a reload
 * that keeps the slip; an accumulator and a single placed, each receipt's reference the server's
 * bet; a cash-out confirmed with its amount; a real game round as the punter. The oracles: the
 * jurisdiction document (locale, currency, stake minimum, demo play), the translation files of the
 * site's locale (never strings written here), the server's records (bets, offers, balance) and the
 * exact win computed here in integer cents. At every step the page is checked for a raw text key
 * and for anything wider than the 360 px screen.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'
import { SITES as DECLARED_SITES, openDemoPunter, siteHost } from '../support/sites'

const GATE = '/mobile-gate/api/v1'
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Each declared site: its host and its ordinary demo punter (tests/support/sites.ts). Everything else is read from its documents. */
const SITES = DECLARED_SITES.map((id) => ({ id, host: siteHost(id), punter: openDemoPunter(id) }))

interface Jurisdiction {
  defaultLocale: string
  currency: string
  betting: { stake: { minimum: number } }
  games: { demoPlay: boolean; stake: { minimum: number } }
  regulatory: { realityCheck?: { timeoutsMinutes: number[] } }
}
const jurisdiction = (id: string) => JSON.parse(readFileSync(join(ROOT, 'schemas', 'jurisdictions', id, 'jurisdiction.json'), 'utf8')) as Jurisdiction

/** Every text of a locale as the translation files have it (not from the page). */
function resources(locale: string): Record<string, string> {
  const dir = join(ROOT, 'schemas', 'i18n')
  const all: Record<string, string> = {}
  for (const file of readdirSync(dir).filter((f) => f === `${locale}.json` || f.startsWith(`${locale}-`))) {
    Object.assign(all, (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { resources: Record<string, string> }).resources)
  }
  return all
}

/** The English texts a page in `locale` must not show: those the locale says otherwise (or not at all). */
function englishOnly(locale: string): string[] {
  if (locale === 'en') return []
  const own = resources(locale)
  const english = resources('en')
  // whole sentences and labels of two words or more, without placeholders (filled values vary);
  // not one the locale itself uses somewhere (a loanword such as "Cash out" in es, it and da)
  const ownValues = new Set(Object.values(own).map((v) => v.trim()))
  return Object.entries(english)
    .filter(([key, value]) => own[key] !== value && !ownValues.has(value.trim()) && !value.includes('{{') && /\p{L}+\s+\p{L}+/u.test(value))
    .map(([, value]) => value.trim())
}

function texts(locale: string): (key: string, values?: Record<string, string | number>) => string {
  const all = resources(locale)
  return (key, values = {}) => {
    const plural = typeof values.count === 'number' ? `${key}_${new Intl.PluralRules(locale).select(values.count)}` : key
    const found = all[plural] ?? all[key]
    if (found === undefined) throw new Error(`no text ${key} in ${locale}`)
    return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]))
  }
}

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ').trim()
/** The amount as the site writes it: its document's currencyDisplay for the currency (Nigeria: ₦), else the symbol. */
const money = (amount: number, locale: string, currency: string, display = 'symbol') =>
  plain(new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: display as Intl.NumberFormatOptions['currencyDisplay'], minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: Math.abs(amount) >= 10_000 }).format(amount))

/** stake × prices rounded down to the cent, in integers (prices have two decimals). */
function potentialWinCents(stakeCents: number, prices: number[]): number {
  let numerator = BigInt(stakeCents)
  let denominator = 1n
  for (const price of prices) {
    numerator *= BigInt(Math.round(price * 100))
    denominator *= 100n
  }
  return Number(numerator / denominator)
}

/** No raw text key (a.b.c), no English text the site's language says otherwise, and nothing wider
 * than the screen: the page as it stands now. */
async function readable(page: Page, where: string, english: string[]) {
  const found = await page.evaluate((foreign) => {
    const shown = new Set<string>()
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('[aria-hidden="true"], script, style, [hidden]')) continue
      for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE && node.textContent!.trim()) shown.add(node.textContent!.trim())
      for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) if (el.getAttribute(attribute)) shown.add(el.getAttribute(attribute)!.trim())
      if (el instanceof HTMLElement && el.children.length > 0 && el.innerText?.trim()) shown.add(el.innerText.trim().replace(/\s+/g, ' '))
    }
    const untranslated = foreign.filter((text) => shown.has(text))
    const keys = (document.body.innerText.match(/\b[a-z][a-zA-Z]+\.[a-z][a-zA-Z]+(\.[a-zA-Z_]+)+\b/g) ?? []).filter((t) => !/\.(test|com|localhost|json|js)\b/.test(t))
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => {
        const box = el.getBoundingClientRect()
        return box.width > 0 && box.height > 0 && (box.right > window.innerWidth + 1 || box.left < -1) && getComputedStyle(el).position !== 'fixed' && !el.closest('[aria-hidden="true"], .visually-hidden, [data-scroll-x]')
      })
      .map((el) => `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${String(el.className).split(' ')[0]}`)
    return { keys, untranslated, wide: wide.slice(0, 5), scrollWidth: document.documentElement.scrollWidth }
  }, english)
  expect(found.keys, `${where}: raw text keys`).toEqual([])
  expect(found.untranslated, `${where}: English left on the page`).toEqual([])
  expect(found.scrollWidth, `${where}: page wider than 360 px (${found.wide.join(', ')})`).toBeLessThanOrEqual(360)
}

type Line = { id: string; main: { selections: { id: string; price: number }[] } | null }[]
const line = async (request: APIRequestContext, state: 'live' | 'prematch') =>
  ((await (await request.get(`/api/content/line?section=sport&state=${state}&locale=en`)).json()).payload as Line).filter((e) => e.main)
/** An event that stands still, its first price set: answers the selection. */
async function still(request: APIRequestContext, eventId: string, selectionId: string, price: number) {
  await request.post('/api/dev/feed/hold', { data: { eventId, held: false } })
  await request.post('/api/dev/feed/price', { data: { selectionId, price } })
  return { eventId, selectionId, price }
}
const movePrice = (request: APIRequestContext, selectionId: string, price: number) => request.post('/api/dev/feed/price', { data: { selectionId, price } })

const priceButton = (page: Page, selectionId: string) => page.locator(`button[data-selection-id="${selectionId}"]`).first()
const slipPrice = (page: Page, selectionId: string) => page.getByTestId('betslip').locator(`[data-testid="betslip-pick"][data-selection-id="${selectionId}"]`).getByTestId('betslip-price')
const switchTo = (page: Page, product: string) => page.getByTestId('product-switcher').locator(`[data-product="${product}"]`).click()

async function sessionHeaders(page: Page, site: string): Promise<Record<string, string>> {
  const { token, hash } = await page.evaluate(() => ({
    token: (JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }).accessToken ?? '',
    hash: JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string,
  }))
  return { authorization: `Bearer ${token}`, 'punter-session-hash': hash, 'x-parlay-target': site }
}
const balanceMinor = async (request: APIRequestContext, headers: Record<string, string>) =>
  Math.round(((await (await request.get(`${GATE}/heartbeat`, { headers })).json()) as { payload: { balanceInfo: { mainBalance: number } } }).payload.balanceInfo.mainBalance * 100)

interface Game {
  id: string
  title: string
  provider: string
}

test.afterEach(async ({ request }) => {
  await request.post('/api/dev/feed/pause', { data: { paused: false } })
})

for (const [index, site] of SITES.entries()) {
  const rules = jurisdiction(site.id)
  const locale = rules.defaultLocale
  const say = texts(locale)
  const english = englishOnly(locale)
  const amount = (value: number) => money(value, locale, rules.currency, (rules as { currencyDisplay?: Record<string, string> }).currencyDisplay?.[rules.currency])
  // a stake the jurisdiction takes (its betting.stake.minimum: 0.10 to 10)
  const stake = Math.max(2, rules.betting.stake.minimum)
  const demo = rules.games.demoPlay ? 'a guest plays a demo round (games.demoPlay)' : 'a guest is told demo play is not offered (games.demoPlay false)'

  test(`${site.id} (${locale}, ${rules.currency}) at 360×740: casino search and filter, ${demo}; picks from home, live and upcoming; a moved price decided by ask, accept higher and accept any; a reload keeps the slip; an accumulator and a single with their references; cash-out confirmed; a real game round`, async ({ page, request, context, baseURL }) => {
    const origin = `http://${site.host}:${new URL(baseURL!).port}`
    await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: origin }])
    const games = ((await (await request.get(`/api/content/games?section=casino&locale=${locale}`, { headers: { 'x-parlay-target': site.id } })).json()) as { payload: Game[] }).payload

    await test.step('guest: casino search narrows the tiles and says how many, the provider filter shows that provider only', async () => {
      await page.goto(`${origin}/`)
      const switcher = page.getByTestId('product-switcher')
      if ((await switcher.locator('[data-product="casino"]').getAttribute('aria-current')) !== 'page') await switchTo(page, 'casino')
      await expect(page).toHaveURL(/\/casino\/lobby$/)
      const tiles = page.getByTestId('casino-games').locator('[data-testid="lobby-tile"] .card__title')
      await expect(tiles).toHaveCount(games.length)
      const search = page.getByLabel(say('lobby.search.label'))
      await expect(search).toBeEditable()
      await search.pressSequentially('st', { delay: 40 })
      const found = games.filter((g) => g.title.toLowerCase().includes('st')).map((g) => g.title)
      await expect(tiles).toHaveText(found)
      await expect(page.getByTestId('lobby-count')).toHaveText(say('lobby.count', { count: found.length }))
      await readable(page, 'lobby searched', english)
      await search.fill('')
      const provider = games[0]!.provider
      await page.getByTestId('lobby-provider').selectOption(provider)
      await expect(tiles).toHaveText(games.filter((g) => g.provider === provider).map((g) => g.title))
      await page.getByTestId('lobby-provider').selectOption({ index: 0 })
      await expect(tiles).toHaveCount(games.length)
    })

    await test.step(`guest: ${demo}`, async () => {
      const search = page.getByLabel(say('lobby.search.label'))
      await search.pressSequentially('starburst', { delay: 40 })
      const tiles = page.getByTestId('casino-games').locator('[data-testid="lobby-tile"] .card__title')
      await expect(tiles).toHaveText(['Starburst Deluxe'])
      await tiles.first().click()
      await expect(page.getByTestId('page-title')).toHaveText('Starburst Deluxe')
      if (!rules.games.demoPlay) {
        await expect(page.getByTestId('game-demo')).toHaveCount(0)
        await expect(page.getByTestId('game-demo-refused')).toHaveText(say('game.demo.notAllowed'))
        // and the server refuses a demo round asked for directly, with its code
        const refused = await page.evaluate(async () => {
          const answer = await fetch('/api/games/demo/casino/starburst-deluxe/play', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stake: 1 }) })
          return { status: answer.status, body: (await answer.json()) as unknown }
        })
        expect(refused).toEqual({ status: 403, body: { status: 'ERROR', errorCode: 'DEMO_PLAY_NOT_ALLOWED' } })
        await readable(page, 'demo refused', english)
        return
      }
      await page.getByTestId('game-demo').click()
      await expect(page.getByTestId('game-demo-label')).toHaveText(say('game.demo.label'))
      const playMoney = page.getByTestId('game-play-money')
      const before = Number(await playMoney.getAttribute('data-amount'))
      const played = page.waitForResponse((r) => r.url().includes('/api/games/demo/casino/starburst-deluxe/play') && r.ok())
      await page.getByTestId('game-play').click()
      const { payload } = (await (await played).json()) as { payload: { win: number; stake: number; roundId: string } }
      await expect(page.getByTestId('game-outcome')).toHaveAttribute('data-round', payload.roundId)
      await expect(playMoney).toHaveAttribute('data-amount', String(Math.round((before - payload.stake + payload.win) * 100) / 100))
      await expect(page.getByTestId('header-balance')).toHaveCount(0)
      await readable(page, 'demo round', english)
    })

    // the one login, through the page; "ask me to confirm each cash-out" on, as the punter's local setting
    await page.evaluate(() => localStorage.setItem('localSettings', JSON.stringify({ isCashOutConfirmationActive: true })))
    // (on the sport home: entering casino, a punter without a reality-check interval is asked to set one first)
    await logInByApi(page, site.punter, `${origin}/sport/live/popular`)
    const headers = await sessionHeaders(page, site.id)
    const minutes = rules.regulatory.realityCheck?.timeoutsMinutes.at(-1)
    if (minutes) expect((await request.post('/casino-gate/api/v1/realitycheck/punter/settings', { headers, data: { timeout: minutes } })).status()).toBe(200)
    const put = (settings: Record<string, unknown>) => request.put(`${GATE}/punter/settings`, { headers, data: settings }).then((r) => expect(r.status()).toBe(200))
    await put({ betPlacingMode: 'EqualsToCurrent', priceChangeNotificationViewType: 'ARROW' })
    let accumulator = { reference: '', legs: [] as { selectionId: string; price: number }[] }

    await test.step('picks from home, live and upcoming, by taps; the slip bar follows the punter', async () => {
      await request.post('/api/dev/feed/pause', { data: { paused: true } })
      await expect(page).toHaveURL(/\/sport\/live\/popular$/)
      const live = await line(request, 'live')
      const upcoming = await line(request, 'prematch')
      // home: the first price of an event of the live line shown on home (each site a different one)
      const onHome = new Set(await page.getByTestId('sport-events').locator('button.market-odds__button').evaluateAll((els) => els.map((el) => el.getAttribute('data-selection-id'))))
      const homeEvents = live.filter((e) => onHome.has(e.main!.selections[0]!.id))
      expect(homeEvents.length).toBeGreaterThan(0)
      const homeEvent = homeEvents[index % homeEvents.length]!
      const liveEvent = live.filter((e) => e !== homeEvent)[(index * 2 + 1) % (live.length - 1)]!
      const upcomingEvent = upcoming[index * 3 % upcoming.length]!
      const picks = [
        await still(request, homeEvent.id, homeEvent.main!.selections[0]!.id, 2.5),
        await still(request, liveEvent.id, liveEvent.main!.selections[0]!.id, 1.8),
        await still(request, upcomingEvent.id, upcomingEvent.main!.selections[0]!.id, 1.5),
      ]
      await expect(priceButton(page, picks[0]!.selectionId)).toHaveAttribute('data-price', '2.5')
      await priceButton(page, picks[0]!.selectionId).click()
      await readable(page, 'home with a pick', english)
      await page.getByTestId('home-live').click()
      await expect(page).toHaveURL(/\/sport\/live$/)
      await priceButton(page, picks[1]!.selectionId).click()
      await readable(page, 'live with two picks', english)
      await page.goBack()
      await page.getByTestId('home-prematch').click()
      await expect(page).toHaveURL(/\/sport\/prematch$/)
      await priceButton(page, picks[2]!.selectionId).click()
      const bar = page.getByTestId('betslip-bar')
      await expect(bar).toContainText(say('betslip.accumulator'))
      await readable(page, 'upcoming with the bar', english)
      accumulator = { reference: '', legs: picks.map(({ selectionId, price }) => ({ selectionId, price })) }
    })

    await test.step('"ask": a price the feed moves while the slip is open moves in it, the win follows, Place waits for the accept step', async () => {
      await page.getByTestId('betslip-bar').click()
      const slip = page.getByTestId('betslip')
      await expect(slip).toHaveAttribute('data-kind', 'accumulator')
      // quick stakes in the account currency: the four smallest of 5, 10, 25 × 10ⁿ from ten times the jurisdiction's minimum
      const series = [0, 1, 2, 3, 4, 5].flatMap((n) => [5, 10, 25].map((step) => step * 10 ** n))
      const quick = series.filter((a) => a >= rules.betting.stake.minimum * 10).slice(0, 4)
      await expect(slip.getByTestId('betslip-quick-stakes').locator('button')).toHaveText(quick.map((a) => amount(a)))
      await slip.getByTestId('betslip-stake').pressSequentially(String(stake))
      const prices = accumulator.legs.map((l) => l.price)
      await expect(slip.getByTestId('betslip-potential-win')).toHaveAttribute('value', String(potentialWinCents(stake * 100, prices) / 100))
      await movePrice(request, accumulator.legs[1]!.selectionId, 1.6)
      await expect(slipPrice(page, accumulator.legs[1]!.selectionId)).toHaveAttribute('data-price', '1.6')
      await expect(slipPrice(page, accumulator.legs[1]!.selectionId)).toHaveAttribute('data-move', 'down')
      accumulator.legs[1]!.price = 1.6
      await expect(slip.getByTestId('betslip-potential-win')).toHaveAttribute('value', String(potentialWinCents(stake * 100, accumulator.legs.map((l) => l.price)) / 100))
      await expect(slip.getByTestId('betslip-notice')).toHaveText(say('betslip.block.PRICES_CHANGED'))
      await expect(slip.getByTestId('betslip-place')).toHaveCount(0)
      await readable(page, 'slip asking', english)
    })

    await test.step('a reload keeps the slip: the picks, the stake, and the prices checked with the feed again', async () => {
      const checked = page.waitForRequest((r) => r.url().includes('/betslip/selections'))
      await page.reload()
      await checked
      const bar = page.getByTestId('betslip-bar')
      await expect(bar).toContainText(say('betslip.accumulator'))
      await bar.click()
      const slip = page.getByTestId('betslip')
      await expect(slip.getByTestId('betslip-pick')).toHaveCount(3)
      await expect(slip.getByTestId('betslip-stake')).toHaveValue(String(stake))
      await expect(slipPrice(page, accumulator.legs[1]!.selectionId)).toHaveAttribute('data-price', '1.6')
      // the move not yet accepted is still asked about after the reload ("ask")
      await expect(slip.getByTestId('betslip-accept')).toBeVisible()
    })

    await test.step('the accumulator is placed after the accept step; the receipt’s reference is the server’s bet, in the account currency', async () => {
      const slip = page.getByTestId('betslip')
      await slip.getByTestId('betslip-accept').click()
      await slip.getByTestId('betslip-place').click()
      const receipt = page.getByTestId('betslip-receipt')
      await expect(receipt).toBeVisible()
      await expect(receipt).toContainText(say('betslip.receipt.reference'))
      accumulator.reference = (await receipt.getByTestId('betslip-receipt-reference').textContent())!
      const bet = (await (await request.get(`${GATE}/bets/${accumulator.reference}`, { headers })).json()).payload as { kind: string; stake: number; potentialWin: number; selections: { selectionId: string; price: number }[] }
      expect(bet).toMatchObject({ kind: 'accumulator', stake, potentialWin: potentialWinCents(stake * 100, accumulator.legs.map((l) => l.price)) / 100 })
      expect(bet.selections.map((s) => [s.selectionId, s.price])).toEqual(accumulator.legs.map((l) => [l.selectionId, l.price]))
      await expect(receipt.getByTestId('betslip-receipt-leg')).toHaveCount(3)
      expect(plain((await receipt.getByTestId('betslip-receipt-stake').textContent())!)).toBe(amount(stake))
      expect(plain((await receipt.getByTestId('betslip-receipt-win').textContent())!)).toBe(amount(bet.potentialWin))
      await readable(page, 'receipt', english)
      await receipt.getByTestId('betslip-receipt-clear').click()
      await expect(page.getByTestId('betslip-bar')).toHaveCount(0)
    })

    let single = ''
    await test.step('"accept higher" takes a rise and asks on a fall; "accept any" takes the fall; the single is placed at that price', async () => {
      const pick = accumulator.legs[2]!
      await put({ betPlacingMode: 'GreaterOrEqualsToCurrent' })
      await priceButton(page, pick.selectionId).click()
      await page.getByTestId('betslip-bar').click()
      const slip = page.getByTestId('betslip')
      await expect(slip).toHaveAttribute('data-kind', 'single')
      await slip.getByTestId('betslip-stake').fill(String(stake))
      await movePrice(request, pick.selectionId, 1.7)
      await expect(slipPrice(page, pick.selectionId)).toHaveAttribute('data-move', 'up')
      await expect(slip.getByTestId('betslip-place')).toBeEnabled()
      await movePrice(request, pick.selectionId, 1.4)
      await expect(slip.getByTestId('betslip-accept')).toBeVisible()
      await put({ betPlacingMode: 'Any' })
      await expect(slip.getByTestId('betslip-place')).toBeEnabled()
      await slip.getByTestId('betslip-place').click()
      single = (await page.getByTestId('betslip-receipt-reference').textContent())!
      const bet = (await (await request.get(`${GATE}/bets/${single}`, { headers })).json()).payload as { kind: string; price: number; potentialWin: number }
      expect(bet).toMatchObject({ kind: 'single', price: 1.4, potentialWin: potentialWinCents(stake * 100, [1.4]) / 100 })
    })

    await test.step('My bets lists both, every leg; a cash-out asks with its amount in the account currency, then pays it', async () => {
      await page.getByTestId('betslip-my-bets').click()
      await expect(page).toHaveURL(/\/account\/bets$/)
      const open = (await (await request.get(`${GATE}/bets/open`, { headers })).json()).payload as { betId: string; selections: unknown[]; cashOut: { amount: number } | null }[]
      const ours = open.findIndex((b) => b.betId === single)
      expect(ours).toBeGreaterThanOrEqual(0)
      const items = page.getByTestId('open-bets').locator('li').filter({ has: page.getByTestId('bet-kind') })
      const item = items.nth(ours)
      const combined = open.findIndex((b) => b.betId === accumulator.reference)
      await expect(items.nth(combined).getByTestId('bet-leg')).toHaveText((open[combined]!.selections as { description: string }[]).map((s) => s.description))
      await readable(page, 'my bets', english)
      const offer = open[ours]!.cashOut!.amount
      const before = await balanceMinor(request, headers)
      await item.getByTestId('cash-out').click()
      const dialog = page.locator('[data-popup-id="cash-out-confirm"]')
      await expect(dialog).toContainText(say('popup.cashOutConfirm.title'))
      expect(plain((await dialog.getByTestId('cash-out-confirm-amount').textContent())!)).toContain(amount(offer))
      await readable(page, 'cash-out confirmation', english)
      expect(await balanceMinor(request, headers)).toBe(before)
      await dialog.getByTestId('cash-out-confirm').click()
      await expect.poll(() => balanceMinor(request, headers)).toBe(before + Math.round(offer * 100))
    })

    await test.step('the punter finds a game by search and plays a real round at a stake the jurisdiction allows (games.stake: a 10-rouble minimum in Russia), the balance moving by stake and win', async () => {
      await switchTo(page, 'casino')
      await expect(page).toHaveURL(/\/casino\/lobby$/)
      const search = page.getByLabel(say('lobby.search.label'))
      await expect(search).toBeEditable()
      await search.pressSequentially('starburst', { delay: 40 })
      await page.getByTestId('casino-games').locator('[data-testid="lobby-tile"] .card__title').first().click()
      await expect(page.getByTestId('game')).toHaveAttribute('data-engine', 'slot')
      // every stake offered is one the server takes: the smallest at least the jurisdiction's minimum
      await expect(page.getByTestId('game').getByRole('radio').first()).toHaveText(amount(Math.max(rules.games.stake.minimum, 0.5)))
      const before = await balanceMinor(request, headers)
      const played = page.waitForResponse((r) => r.url().includes(`${GATE}/games/casino/starburst-deluxe/play`) && r.ok())
      await page.getByTestId('game-play').click()
      const answer = await played
      const { stake: staked } = answer.request().postDataJSON() as { stake: number }
      const { payload } = (await answer.json()) as { payload: { win: number } }
      expect(staked).toBeGreaterThanOrEqual(rules.games.stake.minimum)
      await expect(page.getByTestId('game-outcome')).toBeVisible()
      expect(await balanceMinor(request, headers)).toBe(before - Math.round(staked * 100) + Math.round(payload.win * 100))
      await readable(page, 'game played', english)
    })
  })
}
