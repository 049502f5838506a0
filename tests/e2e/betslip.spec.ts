/**
 * The live bet slip's own rules at phone size (issue 31 item 1), on Curaçao in English, with real
 * taps and typing: accept higher takes a rise and asks on a fall, accept any takes the fall, and
 * "Keep picks" brings the pick back checked; a reload keeps the slip and checks its prices against
 * the feed first, another tab has the same slip; same-match picks are flagged when added; the
 * sheet keeps Potential win and Place on screen; the full slip's script comes with the first pick.
 * The whole loop on every site in its language (picks from home, live and upcoming, ask, an
 * accumulator and its receipt, My bets, cash-out, casino) is tests/e2e/loop-sites.spec.ts. The
 * oracles are the server's own record of the bet (GET bets/{id}) and the translation files.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

const GATE = '/mobile-gate/api/v1'
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** A text of the site's language, from the translation files (not from the page). */
function text(locale: string, key: string): string {
  for (const file of [`${locale}-slip.json`, `${locale}-bets.json`]) {
    const resources = (JSON.parse(readFileSync(join(ROOT, 'schemas', 'i18n', file), 'utf8')) as { resources: Record<string, string> }).resources
    if (resources[key]) return resources[key]
  }
  throw new Error(`no text ${key} in ${locale}`)
}

/** The rules below are the slip's own, the same on every site. */
const CURACAO = { id: 'curacao' }
async function session(page: Page, site: { id: string }): Promise<Record<string, string>> {
  const { token, hash } = await page.evaluate(() => ({
    token: (JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }).accessToken ?? '',
    hash: JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string,
  }))
  return { authorization: `Bearer ${token}`, 'punter-session-hash': hash, 'x-parlay-target': site.id }
}

async function saveSettings(request: APIRequestContext, headers: Record<string, string>, settings: Record<string, unknown>) {
  expect((await request.put(`${GATE}/punter/settings`, { headers, data: settings })).status()).toBe(200)
}

type Line = { id: string; main: { selections: { id: string; price: number }[] } | null }[]

/** Events of a line standing still (feed paused, markets open), each main market's first price set. */
async function stillSelections(request: APIRequestContext, state: 'live' | 'prematch', from: number, prices: number[]) {
  await request.post('/api/dev/feed/pause', { data: { paused: true } })
  const line = ((await (await request.get(`/api/content/line?section=sport&state=${state}&locale=en`)).json()).payload as Line).filter((e) => e.main)
  const picked = []
  for (const [i, price] of prices.entries()) {
    const event = line[(from + i) % line.length]!
    await request.post('/api/dev/feed/hold', { data: { eventId: event.id, held: false } })
    const selectionId = event.main!.selections[0]!.id
    await request.post('/api/dev/feed/price', { data: { selectionId, price } })
    picked.push({ eventId: event.id, selectionId, price })
  }
  return picked
}

const priceButton = (page: Page, selectionId: string) => page.locator(`button[data-selection-id="${selectionId}"]`).first()
const slipPick = (page: Page, selectionId: string) => page.getByTestId('betslip').locator(`[data-testid="betslip-pick"][data-selection-id="${selectionId}"]`)
const movePrice = (request: APIRequestContext, selectionId: string, price: number) => request.post('/api/dev/feed/price', { data: { selectionId, price } })

test.afterEach(async ({ request }) => {
  await request.post('/api/dev/feed/pause', { data: { paused: false } })
})

test('accept higher: a rise is taken without asking, a fall asks; accept any: a fall is taken too; a single is placed at the price then', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logInByApi(page, 'vip@demo.parlay.test')
  const headers = await session(page, CURACAO)
  await saveSettings(request, headers, { betPlacingMode: 'GreaterOrEqualsToCurrent', priceChangeNotificationViewType: 'TEXT_COLOR' })
  const [pick] = await stillSelections(request, 'live', 10, [2])
  await page.goto(`/sport/live/event?id=${pick!.eventId}`)
  await priceButton(page, pick!.selectionId).click()
  await page.getByTestId('betslip-bar').click()
  const slip = page.getByTestId('betslip')
  await slip.getByTestId('betslip-quick-stakes').locator('button').nth(1).click() // 10
  await expect(slip.getByTestId('betslip-stake')).toHaveValue('10')

  await movePrice(request, pick!.selectionId, 2.3)
  const price = slipPick(page, pick!.selectionId).getByTestId('betslip-price')
  await expect(price).toHaveAttribute('data-price', '2.3')
  await expect(price).toHaveAttribute('data-move', 'up')
  await expect(price.locator('.betslip__arrow')).toHaveCount(0) // TEXT_COLOR: the price is coloured, no arrow
  await expect(slip.getByTestId('betslip-place')).toBeEnabled()
  await expect(slip.getByTestId('betslip-potential-win')).toHaveAttribute('value', '23')

  await movePrice(request, pick!.selectionId, 1.9)
  await expect(slip.getByTestId('betslip-accept')).toBeVisible()
  // the punter switches to "accept any" (another device): the fall no longer waits
  await saveSettings(request, headers, { betPlacingMode: 'Any' })
  await expect(slip.getByTestId('betslip-place')).toBeEnabled()
  await slip.getByTestId('betslip-place').click()
  const reference = (await page.getByTestId('betslip-receipt-reference').textContent())!
  const bet = (await (await request.get(`${GATE}/bets/${reference}`, { headers })).json()).payload as { kind: string; price: number; selections: { price: number }[] }
  expect(bet).toMatchObject({ kind: 'single', price: 1.9 })

  // "Keep picks": the pick is back, checked with the feed again, and can be placed again
  await page.getByTestId('betslip-keep').click()
  await page.getByTestId('betslip-bar').click()
  await expect(slipPick(page, pick!.selectionId)).toBeVisible()
  await expect(page.getByTestId('betslip-place')).toBeEnabled()
})

test('a reload keeps the slip and checks its prices with the feed before anything can be placed; another tab has the same slip', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logInByApi(page, 'opened@demo.parlay.test')
  await saveSettings(request, await session(page, CURACAO), { betPlacingMode: 'EqualsToCurrent' })
  const [pick] = await stillSelections(request, 'live', 13, [3])
  await page.goto('/sport/live')
  await priceButton(page, pick!.selectionId).click()
  await page.getByTestId('betslip-bar').click()
  await page.getByTestId('betslip-stake').pressSequentially('2')
  await expect(page.getByTestId('betslip-place')).toBeEnabled()

  // the price moves while no page is there to see it, then the page comes back
  await page.goto('/favicon.ico')
  await movePrice(request, pick!.selectionId, 2.75)
  const checked = page.waitForRequest((r) => r.url().includes('/betslip/selections') && r.url().includes(pick!.selectionId))
  await page.goto('/sport/live')
  await checked
  await page.getByTestId('betslip-bar').click()
  const price = slipPick(page, pick!.selectionId).getByTestId('betslip-price')
  await expect(price).toHaveAttribute('data-price', '2.75')
  await expect(page.getByTestId('betslip-stake')).toHaveValue('2')
  await expect(page.getByTestId('betslip-accept')).toBeVisible()
  await expect(slipPick(page, pick!.selectionId).getByTestId('betslip-was')).toHaveText('3.00')

  const other = await context.newPage()
  await other.goto('/sport/prematch')
  await expect(other.getByTestId('betslip-bar')).toContainText('1')
  await other.close()
})

test('two picks of one match are flagged the moment the second is added, and Place waits until one is removed', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logInByApi(page, 'opened@demo.parlay.test')
  const [pick] = await stillSelections(request, 'live', 16, [2])
  await page.goto(`/sport/live/event?id=${pick!.eventId}`)
  const buttons = page.getByTestId('market-odds').first().locator('button')
  await buttons.nth(0).click()
  await buttons.nth(1).click()
  const bar = page.getByTestId('betslip-bar')
  await expect(bar).toHaveAttribute('data-attention', 'true')
  await bar.click()
  const slip = page.getByTestId('betslip')
  await expect(slip.getByTestId('betslip-related')).toHaveCount(2)
  await expect(slip.getByTestId('betslip-notice')).toHaveText(text('en', 'betslip.block.RELATED'))
  await slip.getByTestId('betslip-stake').pressSequentially('1')
  await expect(slip.getByTestId('betslip-place')).toBeDisabled()
  await slip.getByTestId('betslip-pick').nth(1).getByRole('button', { name: text('en', 'betslip.remove') }).click()
  await expect(slip.getByTestId('betslip-related')).toHaveCount(0)
  await expect(slip.getByTestId('betslip-place')).toBeEnabled()
})

test('at 360×740 the bar takes under 15 % of the screen; with six picks the open slip keeps Potential win and Place on screen, and every outcome is shown whole', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logInByApi(page, 'opened@demo.parlay.test')
  const picks = await stillSelections(request, 'live', 0, [1.5, 2, 2.5, 3, 3.5, 4])
  await page.goto('/sport/live')
  for (const pick of picks) await priceButton(page, pick.selectionId).click()
  const bar = page.getByTestId('betslip-bar')
  await expect(bar).toContainText('6')
  const barBox = (await bar.boundingBox())!
  expect(barBox.height).toBeLessThanOrEqual(740 * 0.15)
  expect(barBox.y + barBox.height).toBeLessThanOrEqual(740)
  await bar.click()
  await page.getByTestId('betslip-stake').pressSequentially('1')
  for (const testId of ['betslip-potential-win', 'betslip-place']) {
    const box = (await page.getByTestId(testId).boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height, testId).toBeLessThanOrEqual(740)
    // not under anything: the element itself answers at its centre
    const onTop = await page.evaluate(([x, y, id]) => document.elementFromPoint(x as number, y as number)?.closest(`[data-testid="${id}"]`) !== null, [box.x + box.width / 2, box.y + box.height / 2, testId])
    expect(onTop, testId).toBe(true)
  }
  for (const outcome of await page.getByTestId('betslip').locator('.betslip__outcome').all()) {
    const cut = await outcome.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis')
    expect(cut).toBe(false)
  }
})

test('a betting page loads one script first: the full slip comes only with the first pick', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  const html = await (await request.get('/sport/live')).text()
  // the start script names the entry and nothing to preload beside it (no chunk split off the entry)
  expect(html).toMatch(/data-entry="\/assets\/index-[^"]+\.js" data-preload=""/)
  const scripts: string[] = []
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname))
  const [pick] = await stillSelections(request, 'live', 20, [2])
  await page.goto('/sport/live')
  await expect(priceButton(page, pick!.selectionId)).toBeEnabled()
  expect(scripts.filter((s) => s.includes('slip-parts'))).toEqual([])
  await priceButton(page, pick!.selectionId).click()
  await expect(page.getByTestId('betslip-bar')).toBeVisible()
  await expect.poll(() => scripts.some((s) => s.includes('slip-parts'))).toBe(true)
})
