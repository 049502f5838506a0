/**
 * Price buttons keep their label and their price inside the button at 360 px (issue 31 item 4),
 * whatever the odds format: for each of the six formats the feed's prices are set to the longest
 * text that format prints for any price the feed may send (1.01–1000.00, found here by scanning
 * every price), and on an event page (every market, three buttons a row) each button's outcome
 * label and price lie inside the button's box, the label shown whole (never cut). In English and
 * in Spanish, whose outcome labels are longer.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { formatOdds, ODDS_TYPES, type OddsType } from '../../kernel/core/odds'
import { expect, logInByApi, test } from './fixtures'

const GATE = '/mobile-gate/api/v1'

/** The feed price (two decimals, 1.01–1000) whose text in `format` is the longest. */
function longestPrice(format: OddsType): number {
  let best = 1.01
  for (let hundredths = 101; hundredths <= 100_000; hundredths++) {
    const price = hundredths / 100
    if (formatOdds(price, format, 'es').length > formatOdds(best, format, 'es').length) best = price
  }
  return best
}

async function headersOf(page: Page, site: string): Promise<Record<string, string>> {
  const { token, hash } = await page.evaluate(() => ({
    token: (JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }).accessToken ?? '',
    hash: JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string,
  }))
  return { authorization: `Bearer ${token}`, 'punter-session-hash': hash, 'x-parlay-target': site }
}

/** Every selection shown priced `price`. */
async function priceAll(request: APIRequestContext, selectionIds: string[], price: number) {
  for (const selectionId of selectionIds) await request.post('/api/dev/feed/price', { data: { selectionId, price } })
}

test.afterEach(async ({ request }) => {
  await request.post('/api/dev/feed/pause', { data: { paused: false } })
})

for (const site of [
  { id: 'curacao', host: 'localhost', locale: 'en', login: 'opened@demo.parlay.test' },
  { id: 'spain', host: 'spain.localhost', locale: 'es', login: 'spain@demo.parlay.test' },
]) {
  test(`${site.locale}: in every odds format the longest price and the outcome label stay inside their button at 360 px`, async ({ page, request, context, baseURL }) => {
    const origin = `http://${site.host}:${new URL(baseURL!).port}`
    await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: origin }])
    await logInByApi(page, site.login, `${origin}/sport/live/popular`)
    const headers = await headersOf(page, site.id)
    await request.post('/api/dev/feed/pause', { data: { paused: true } })
    const line = (await (await request.get(`/api/content/line?section=sport&state=live&locale=en`)).json()).payload as { id: string; sport: string }[]
    const event = line.find((e) => e.sport === 'Football') ?? line[0]!
    await request.post('/api/dev/feed/hold', { data: { eventId: event.id, held: false } })
    await page.goto(`${origin}/sport/live/event?id=${event.id}`)
    const buttons = page.locator('.market-odds__button')
    await expect(buttons.first()).toBeVisible()
    const ids = await buttons.evaluateAll((all) => all.map((b) => b.getAttribute('data-selection-id')!))

    for (const format of ODDS_TYPES) {
      const price = longestPrice(format)
      expect((await request.put(`${GATE}/punter/settings`, { headers, data: { oddsType: format } })).status()).toBe(200)
      await priceAll(request, ids, price)
      await page.reload()
      await expect(buttons.first()).toHaveAttribute('data-price', String(price))
      await expect(buttons.first().locator('.market-odds__price')).toHaveText(formatOdds(price, format, site.locale))
      const problems = await buttons.evaluateAll((all) =>
        all.flatMap((button) => {
          const box = button.getBoundingClientRect()
          const inside = (el: Element | null) => {
            const r = el!.getBoundingClientRect()
            return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
          }
          const label = button.querySelector('.market-odds__label')!
          const found: string[] = []
          if (!inside(label)) found.push(`label "${label.textContent}" outside`)
          if (label.scrollWidth > label.clientWidth + 1) found.push(`label "${label.textContent}" cut`)
          if (!inside(button.querySelector('.market-odds__price'))) found.push(`price "${button.querySelector('.market-odds__price')!.textContent}" outside`)
          return found.map((f) => `${button.getAttribute('data-selection-id')}: ${f}`)
        }),
      )
      expect(problems, `${format} at ${price}`).toEqual([])
    }
  })
}
