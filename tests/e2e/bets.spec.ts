/**
 * Bets and games in the browser (issue 14 items 5–6, "Done when"): at phone size a punter opens a
 * live event, adds a price to the bet slip, places a bet and sees the balance fall; the feed
 * finishes the event (the scoreboard shows the final score) and the win raises the balance over
 * the punter's socket; a casino lobby card
 * opens the game page and a slot spin pays through the balance. The rules themselves (idempotency,
 * odds-change policy, suspension, restrictions, settlement once) are HTTP tests in tests/http/bets.
 */
import type { Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

const balance = async (page: Page) => Number(await page.getByTestId('header-balance').locator('data').getAttribute('value'))

// a test that paused the feed leaves it running for the next one
test.afterEach(async ({ request }) => {
  await request.post('/api/dev/feed/pause', { data: { paused: false } })
})

// the login is not what these tests check: a stored session, as after a reload
const logIn = (page: Page, login: string) => logInByApi(page, login)

test('a live event’s price goes to the bet slip, the bet is placed and the balance falls; the feed settles it and the win raises the balance', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logIn(page, 'opened@demo.parlay.test')
  const line = (await (await request.get('/api/content/line?section=sport&state=live&locale=en')).json()).payload as { id: string }[]
  const eventId = line[0].id
  // the feed stands still (no goal, price walk or final whistle mid-test); settled by hand below
  await request.post('/api/dev/feed/pause', { data: { paused: true } })
  await request.post('/api/dev/feed/hold', { data: { eventId, held: false } })
  await page.goto(`/sport/live/event?id=${eventId}`)
  const home = page.getByTestId('market-odds').first().locator('button').first()
  await expect(home).toBeEnabled()
  await request.post('/api/dev/feed/price', { data: { selectionId: await home.getAttribute('data-selection-id'), price: 2.5 } })
  await expect(home).toHaveAttribute('data-price', '2.5')
  const before = await balance(page)

  await home.click()
  await page.getByTestId('betslip-bar').click()
  const slip = page.getByTestId('betslip')
  await expect(slip).toBeVisible()
  await slip.getByTestId('betslip-stake').fill('4')
  await slip.getByTestId('betslip-place').click()
  await expect(page.getByTestId('betslip-receipt')).toBeVisible()
  await page.getByTestId('betslip-receipt-clear').click()
  await expect.poll(() => balance(page)).toBe(before - 4)

  // the final whistle reaches the open page: the scoreboard shows the final score and says so
  const scoreboard = page.getByTestId('event-header')
  await expect(scoreboard).toHaveAttribute('data-state', 'live')
  await request.post('/api/dev/feed/settle', { data: { eventId, score: [2, 0] } })
  await expect(scoreboard).toHaveAttribute('data-state', 'finished')
  await expect(scoreboard).toHaveAttribute('data-score', '2:0')
  await expect(scoreboard).toContainText('Finished')
  await expect.poll(() => balance(page)).toBe(before - 4 + 10)
})

test('a casino lobby card opens the game page, a slot spin pays through the balance, and a favourite is kept', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  // a punter who has set a reality-check interval (others are asked to set one on entering casino)
  await logIn(page, 'reality@demo.parlay.test')
  await page.goto('/casino/lobby')
  await page.getByTestId('casino-games').locator('a.card').first().click()
  await expect(page).toHaveURL(/\/casino\/game\?product=casino&id=/)
  const game = page.getByTestId('game')
  await expect(game).toHaveAttribute('data-engine', 'slot')
  const before = await balance(page)
  await game.getByTestId('game-play').click()
  const outcome = page.getByTestId('game-outcome')
  await expect(outcome).toBeVisible()
  const win = Number(await outcome.getAttribute('data-win'))
  await expect.poll(() => balance(page)).toBe(Math.round((before - 1 + win) * 100) / 100)

  // a favourite is kept on the server and listed on the product's favourites page
  const title = await page.getByTestId('page-title').textContent()
  await game.getByTestId('game-favorite').click()
  await expect(game.getByTestId('game-favorite')).toHaveAttribute('aria-pressed', 'true')
  await page.goto('/casino/favorites')
  await expect(page.getByTestId('favourites')).toContainText(title!)
})

test('my bets: an open bet shows its cash-out offer, a price move changes the offer on the open page, and cashing out raises the balance', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logIn(page, 'vip@demo.parlay.test')
  // the feed stands still: a goal mid-test suspends the market and withdraws the offer
  await request.post('/api/dev/feed/pause', { data: { paused: true } })
  const line = (await (await request.get('/api/content/line?section=sport&state=live&locale=en')).json()).payload as { id: string; main: { selections: { id: string }[] } }[]
  const event = line[line.length - 1]
  await request.post('/api/dev/feed/hold', { data: { eventId: event.id, held: false } })
  const selectionId = event.main.selections[0].id
  await request.post('/api/dev/feed/price', { data: { selectionId, price: 2 } })
  const placed = await page.evaluate(async (id) => {
    const session = JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }
    const hash = JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string
    const response = await fetch('/mobile-gate/api/v1/bets/place', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}`, 'punter-session-hash': hash },
      body: JSON.stringify({ kind: 'single', selections: [{ selectionId: id, price: 2 }], stake: 10, idempotencyKey: 'e2e-cash-out-1' }),
    })
    return response.status
  }, selectionId)
  expect(placed).toBe(200)
  await page.goto('/account/bets')
  await expect(page.getByTestId('cash-out-offer').first()).toContainText('9.50')
  // the price moves: the new offer (coOffer over the punter socket) replaces the shown one, no reload
  await request.post('/api/dev/feed/price', { data: { selectionId, price: 2.5 } })
  await expect(page.getByTestId('cash-out-offer').first()).toContainText('7.60')
  await page.reload() // the header balance after the bet
  await expect(page.getByTestId('cash-out-offer').first()).toContainText('7.60')
  const before = await balance(page)
  await page.getByTestId('cash-out').first().click()
  await expect.poll(() => balance(page)).toBe(Math.round((before + 7.6) * 100) / 100)
})

test('a second browser logged in as the same punter sees the balance change over the socket', async ({ page, browser, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logIn(page, 'opened@demo.parlay.test')
  const other = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 } })
  await other.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  const second = await other.newPage()
  await logIn(second, 'opened@demo.parlay.test')
  const before = await balance(second)

  const line = (await (await request.get('/api/content/line?section=sport&state=live&locale=en')).json()).payload as { id: string; main: { selections: { id: string; price: number }[] } }[]
  const event = line[1]
  // the feed stands still: a goal or a price step between the click and the placement would
  // suspend the market or ask the punter to accept the new price instead of placing the bet
  await request.post('/api/dev/feed/pause', { data: { paused: true } })
  await request.post('/api/dev/feed/hold', { data: { eventId: event.id, held: false } })
  await page.goto(`/sport/live/event?id=${event.id}`)
  const home = page.getByTestId('market-odds').first().locator('button').first()
  await expect(home).toBeEnabled()
  await request.post('/api/dev/feed/price', { data: { selectionId: await home.getAttribute('data-selection-id'), price: 1.8 } })
  await expect(home).toHaveAttribute('data-price', '1.8')
  await home.click()
  await page.getByTestId('betslip-bar').click()
  await page.getByTestId('betslip-stake').fill('3')
  await page.getByTestId('betslip-place').click()
  await expect(page.getByTestId('betslip-receipt')).toBeVisible()
  await expect.poll(() => balance(second)).toBe(before - 3)
  await other.close()
})
