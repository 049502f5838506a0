/**
 * The products that follow the live feed, in the browser (issue 14 items 4–6): the tournaments page,
 * the bet slip's bet channel and the game page's gambling channel. Deterministic: the feed's
 * schedule is paused (no goal, price walk or final whistle mid-test) and every change is driven over
 * HTTP through the development hooks (`/api/dev/feed/*`, `/api/dev/games/next-round`); the tests
 * wait on what the page shows and on the socket frames the page sent, never on time.
 */
import type { Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

test.beforeEach(async ({ request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await request.post('/api/dev/feed/pause', { data: { paused: true } })
})
test.afterEach(async ({ request }) => {
  await request.post('/api/dev/feed/pause', { data: { paused: false } })
})

/** The frames the page sends on its sockets, to wait until a subscription is on the wire. */
function sentFrames(page: Page): string[] {
  const sent: string[] = []
  page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))))
  return sent
}

interface Tournament {
  title: string
  live: number
  matches: { id: string; title: string; main?: { selections: { id: string }[] } | null }[]
}

test('the tournaments page lists the feed’s leagues with their live and next matches, and their prices follow the feed', async ({ page, request }) => {
  const leagues = (await (await request.get('/api/content/tournaments?locale=en')).json()).payload as Tournament[]
  expect(leagues.length).toBeGreaterThan(1)
  const sent = sentFrames(page)
  await page.goto('/sport/tournaments')

  const cards = page.getByTestId('tournament')
  await expect(cards).toHaveCount(leagues.length)
  await expect(cards.first()).toContainText(leagues[0].title)
  const matches = page.getByTestId('tournament-matches').first()
  await expect(matches).toContainText(leagues[0].matches[0].title)

  // a price of a listed match moves over the socket while the page is open
  const priced = leagues.flatMap((l) => l.matches).find((m) => m.main?.selections.length)!
  const button = page.locator(`[data-selection-id="${priced.main!.selections[0].id}"]`).first()
  await expect(button).toHaveText(/\d\.\d\d/)
  await expect.poll(() => sent.some((f) => f.includes('SET_TREE_CTX') && f.includes(priced.id))).toBe(true)
  await request.post('/api/dev/feed/price', { data: { selectionId: priced.main!.selections[0].id, price: 7.25 } })
  await expect(button).toHaveAttribute('data-price', '7.25')
})

test('a pick in the bet slip is marked “Suspended” when the feed suspends its market', async ({ page, request }) => {
  await logInByApi(page, 'opened@demo.parlay.test')
  const line = (await (await request.get('/api/content/line?section=sport&state=live&locale=en')).json()).payload as { id: string }[]
  const eventId = line[0].id
  await request.post('/api/dev/feed/hold', { data: { eventId, held: false } })
  const sent = sentFrames(page)
  await page.goto(`/sport/live/event?id=${eventId}`)
  const home = page.getByTestId('market-odds').first().locator('button').first()
  await expect(home).toBeEnabled()
  const selectionId = (await home.getAttribute('data-selection-id'))!

  await home.click()
  await page.getByTestId('betslip-bar').click()
  const pick = page.getByTestId('betslip').locator(`.betslip__pick[data-selection-id="${selectionId}"]`)
  await expect(pick).toBeVisible()
  await expect(pick).not.toHaveAttribute('data-inactive', /./)
  // the slip's picks are on the bet channel before the market is suspended
  await expect.poll(() => sent.some((f) => f.includes('WATCH_ON_BET') && f.includes(selectionId))).toBe(true)

  await request.post('/api/dev/feed/hold', { data: { eventId, held: true } })
  await expect(pick).toHaveAttribute('data-inactive', 'SUSPENDED')
  await expect(pick.locator('.betslip__inactive')).toHaveText('Suspended')
})

test('a big win (a round paying ×10 or more) shows its line on an open game page', async ({ page, request }) => {
  await logInByApi(page, 'reality@demo.parlay.test')
  const sent = sentFrames(page)
  await page.goto('/casino/lobby')
  await page.getByTestId('casino-games').locator('a.card').first().click()
  const game = page.getByTestId('game')
  await expect(game).toHaveAttribute('data-engine', 'slot')
  const title = (await page.getByTestId('page-title').textContent())!.trim()
  await expect.poll(() => sent.some((f) => f.includes('"GI"'))).toBe(true)
  await expect(page.getByTestId('game-big-win')).toHaveCount(0)

  // the next round pays at least ×10 (an honest round of the engine, drawn for the test)
  expect((await request.post('/api/dev/games/next-round', { data: { atLeast: 10 } })).status()).toBe(200)
  await game.getByTestId('game-play').click()
  const outcome = page.getByTestId('game-outcome')
  await expect(outcome).toBeVisible()
  const bigWin = page.getByTestId('game-big-win')
  await expect(bigWin).toContainText(`Big win on ${title}`)
  await expect(bigWin).toContainText(/×(1\d|[2-9]\d|\d{3})/)
})
