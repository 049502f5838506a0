/**
 * Live prices in the browser (issue 14 items 2 and 4): a punter whose odds format is fractions
 * opens a live event page, the page opens the events socket, and a price the feed moves changes
 * on screen in fractions with the arrow the punter's indicator setting asks for. The socket
 * rules themselves are unit tests (tests/unit/realtime) and HTTP tests (tests/http/realtime).
 */
import type { Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'


// the login is not what these tests check: a stored session, as after a reload
const logIn = (page: Page, login: string) => logInByApi(page, login)

async function saveSettings(page: Page, settings: Record<string, unknown>) {
  const status = await page.evaluate(async (body) => {
    const session = JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }
    const hash = JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string | null
    const response = await fetch('/mobile-gate/api/v1/punter/settings', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}`, ...(hash ? { 'punter-session-hash': hash } : {}) },
      body: JSON.stringify(body),
    })
    return response.status
  }, settings)
  expect(status).toBe(200)
}

test('on a live event page a price the feed moves changes on screen, in the punter’s odds format, with the arrow', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logIn(page, 'opened@demo.parlay.test')
  await saveSettings(page, { oddsType: 'fractions', priceChangeNotificationViewType: 'ARROW' })
  const sockets: string[] = []
  page.on('websocket', (socket) => sockets.push(new URL(socket.url()).pathname))

  const line = (await (await request.get('/api/content/line?section=sport&state=live&locale=en')).json()).payload as { id: string }[]
  await page.goto(`/sport/live/event?id=${line[0].id}`)
  const first = page.getByTestId('market-odds').first().locator('button').first()
  await expect(first).toBeVisible()
  const selectionId = (await first.getAttribute('data-selection-id'))!
  await expect.poll(() => sockets).toContain('/sockets/v2/events')

  // 3.50 in fractions is 5/2; moved up from a lower price, the arrow points up
  await request.post('/api/dev/feed/price', { data: { selectionId, price: 1.5 } })
  await expect(first.locator('.market-odds__price')).toContainText('1/2')
  await request.post('/api/dev/feed/price', { data: { selectionId, price: 3.5 } })
  await expect(first.locator('.market-odds__price')).toContainText('5/2')
  await expect(first).toHaveAttribute('data-move', 'up')
  await expect(first.locator('.market-odds__arrow')).toHaveText('▲')

  // a suspended event's prices cannot be picked
  await request.post('/api/dev/feed/hold', { data: { eventId: line[0].id, held: true } })
  await expect(first).toBeDisabled()
})

test('a guest’s line pages show prices without logging in, and pages without prices open no socket', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  const sockets: string[] = []
  page.on('websocket', (socket) => sockets.push(socket.url()))
  await page.goto('/casino/lobby')
  await expect(page.locator('[data-screen]')).toBeVisible()
  await page.goto('/sport/live')
  await expect(page.getByTestId('line-odds').first().locator('button').first()).toHaveText(/\d\.\d\d/)
  await expect.poll(() => sockets.length).toBe(1)
})
