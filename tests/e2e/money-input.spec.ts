/**
 * What is shown is what is charged (issue 28 item 6), at phone size with real typing and taps:
 * - in Spanish and Italian a punter types `2,5` as a stake, reads 2,50 € before Place, places it,
 *   and the receipt, My bets and the header show 2,50 € taken; the account's balance over the API
 *   (the independent oracle) fell by exactly 2.50;
 * - a Curaçao punter whose account is in euro (the currency chosen at sign-up on a US-dollar site)
 *   sees € on the header balance, the slip, the deposit page and the limits page, never $;
 * - a typed deposit amount and a typed game stake are read in the locale, and that is what is charged;
 * - with "Ask me to confirm each cash-out" on, a cash-out asks with its amount first; off, it does not;
 * - a Nigerian punter reads the naira sign (₦) on the header balance, not the code NGN.
 * The expected texts are Intl's formatting of the expected amounts in Node (not the page's code).
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

const GATE = '/mobile-gate/api/v1'

/** Intl's money text, with Intl's special spaces made plain on both sides of a comparison. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')
const money = (amount: number, locale: string, currency: string) =>
  plain(new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: Math.abs(amount) >= 10_000 }).format(amount))
const textOf = async (page: Page, testId: string) => plain((await page.getByTestId(testId).first().textContent()) ?? '')

interface Site {
  id: string
  host: string
  locale: string
  login: string
  texts: { willBePlaced: (amount: string) => string }
}

const SITES: Site[] = [
  { id: 'spain', host: 'spain.localhost', locale: 'es', login: 'spain@demo.parlay.test', texts: { willBePlaced: (a) => `Se apostarán ${a}` } },
  { id: 'italy', host: 'italy.localhost', locale: 'it', login: 'italy@demo.parlay.test', texts: { willBePlaced: (a) => `Verranno giocati ${a}` } },
]

/** The punter's own session, as the page stored it, for the oracle's calls. */
async function sessionHeaders(page: Page, site: string): Promise<Record<string, string>> {
  const { token, hash } = await page.evaluate(() => ({
    token: (JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }).accessToken ?? '',
    hash: JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string,
  }))
  return { authorization: `Bearer ${token}`, 'punter-session-hash': hash, 'x-parlay-target': site }
}

/** The balance in minor units, from the server (not the page). */
async function balanceMinor(request: APIRequestContext, headers: Record<string, string>): Promise<number> {
  const answer = (await (await request.get(`${GATE}/heartbeat`, { headers })).json()) as { payload: { balanceInfo: { mainBalance: number } } }
  return Math.round(answer.payload.balanceInfo.mainBalance * 100)
}

/** A live event that stands still, its first price set to `price`; answers the selection id. */
async function stillEvent(request: APIRequestContext, index: number, price: number): Promise<{ eventId: string; selectionId: string }> {
  const line = (await (await request.get('/api/content/line?section=sport&state=live&locale=en')).json()).payload as { id: string; main: { selections: { id: string }[] } }[]
  const event = line[index % line.length]
  await request.post('/api/dev/feed/pause', { data: { paused: true } })
  await request.post('/api/dev/feed/hold', { data: { eventId: event.id, held: false } })
  const selectionId = event.main.selections[0].id
  await request.post('/api/dev/feed/price', { data: { selectionId, price } })
  return { eventId: event.id, selectionId }
}

test.afterEach(async ({ request }) => {
  await request.post('/api/dev/feed/pause', { data: { paused: false } })
})

for (const [index, site] of SITES.entries()) {
  test(`${site.locale}: a stake typed as 2,5 reads 2,50 € before Place, and exactly 2,50 € is taken (slip, receipt, my bets, header, balance)`, async ({ page, request, context, baseURL }) => {
    const origin = `http://${site.host}:${new URL(baseURL!).port}`
    await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: origin }])
    await logInByApi(page, site.login, `${origin}/sport/live/popular`)
    const headers = await sessionHeaders(page, site.id)
    const before = await balanceMinor(request, headers)
    const { eventId, selectionId } = await stillEvent(request, index, 2)

    await page.goto(`${origin}/sport/live/event?id=${eventId}`)
    const price = page.locator(`[data-selection-id="${selectionId}"]`).first()
    await expect(price).toHaveAttribute('data-price', '2')
    await price.click()
    await page.getByTestId('betslip-bar').click()
    const stake = page.getByTestId('betslip-stake')
    await expect(stake).toHaveAttribute('type', 'text')
    await expect(stake).toHaveAttribute('inputmode', 'decimal')
    await stake.pressSequentially('2,5')
    const line = page.getByTestId('betslip-stake-line')
    await expect(line).toHaveAttribute('data-minor', '250')
    expect(await textOf(page, 'betslip-stake-line')).toBe(site.texts.willBePlaced(money(2.5, site.locale, 'EUR')))
    // the potential win follows the stake read: 2.50 × 2
    await expect(page.getByTestId('betslip-potential-win')).toHaveAttribute('value', '5')
    expect(await textOf(page, 'betslip-potential-win')).toBe(money(5, site.locale, 'EUR'))

    await page.getByTestId('betslip-place').click()
    await expect(page.getByTestId('betslip-receipt')).toBeVisible()
    expect(await textOf(page, 'betslip-receipt-stake')).toBe(money(2.5, site.locale, 'EUR'))
    // the oracle: the account lost exactly 250 cents
    await expect.poll(() => balanceMinor(request, headers)).toBe(before - 250)
    await expect(page.getByTestId('header-balance').locator('data')).toHaveAttribute('value', String((before - 250) / 100))
    expect(await textOf(page, 'header-balance')).toContain(money((before - 250) / 100, site.locale, 'EUR'))

    await page.goto(`${origin}/account/bets`)
    await expect(page.getByTestId('bet-stake').first()).toBeVisible()
    expect(await textOf(page, 'bet-stake')).toContain(money(2.5, site.locale, 'EUR'))
  })
}

test('es: a grouping mark is never dropped: 1,000.5 is refused with why and Place stays off; 1.000 reads one thousand', async ({ page, request, context, baseURL }) => {
  const origin = `http://spain.localhost:${new URL(baseURL!).port}`
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: origin }])
  await logInByApi(page, 'spain@demo.parlay.test', `${origin}/sport/live/popular`)
  const { eventId, selectionId } = await stillEvent(request, 2, 2)
  await page.goto(`${origin}/sport/live/event?id=${eventId}`)
  await page.locator(`[data-selection-id="${selectionId}"]`).first().click()
  await page.getByTestId('betslip-bar').click()
  const stake = page.getByTestId('betslip-stake')
  await stake.pressSequentially('1,000.5')
  const line = page.getByTestId('betslip-stake-line')
  await expect(line).toHaveAttribute('data-state', 'refused')
  await expect(line).toHaveText('No sabemos dónde empiezan los decimales. Escríbelos tras «,», por ejemplo 2,50.')
  await expect(stake).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByTestId('betslip-place')).toBeDisabled()
  await stake.fill('')
  await stake.pressSequentially('1.000')
  await expect(line).toHaveAttribute('data-minor', '100000')
  expect(await textOf(page, 'betslip-stake-line')).toBe(`Se apostarán ${money(1000, 'es', 'EUR')}`)
})

test('it: a game stake typed as 0,5 reads 0,50 € per round, and a spin takes exactly 0,50 € (plus its win) from the account', async ({ page, request, context, baseURL }) => {
  const origin = `http://italy.localhost:${new URL(baseURL!).port}`
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: origin }])
  await logInByApi(page, 'italy@demo.parlay.test', `${origin}/sport/live/popular`)
  const headers = await sessionHeaders(page, 'italy')
  // a reminder interval chosen, as the casino asks before play (not what this test checks)
  expect((await request.post('/casino-gate/api/v1/realitycheck/punter/settings', { headers, data: { timeout: 30 } })).status()).toBe(200)
  await page.goto(`${origin}/casino/lobby`)
  await page.getByTestId('casino-games').locator('a.card').first().click()
  const stake = page.getByTestId('game-stake')
  await expect(stake).toHaveValue('1')
  await stake.fill('')
  await stake.pressSequentially('0,5')
  await expect(page.getByTestId('game-stake-line')).toHaveAttribute('data-minor', '50')
  expect(await textOf(page, 'game-stake-line')).toBe(`${money(0.5, 'it', 'EUR')} a giocata`)
  const before = await balanceMinor(request, headers)
  await page.getByTestId('game-play').click()
  const outcome = page.getByTestId('game-outcome')
  await expect(outcome).toBeVisible()
  const win = Math.round(Number(await outcome.getAttribute('data-win')) * 100)
  await expect.poll(() => balanceMinor(request, headers)).toBe(before - 50 + win)
})

test('a Curaçao punter whose account is in euro sees € everywhere (header, slip, deposit, limits), never $', async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
  await logInByApi(page, 'euro@demo.parlay.test')
  const headers = await sessionHeaders(page, 'curacao')
  const heartbeat = (await (await request.get(`${GATE}/heartbeat`, { headers })).json()).payload as { user: { account: { currency: string } }; balanceInfo: { mainBalance: number } }
  expect(heartbeat.user.account.currency).toBe('EUR')
  const noDollar = async () => expect(plain((await page.locator('main').textContent()) ?? '') + (await textOf(page, 'header-balance'))).not.toMatch(/\$|USD/)

  expect(plain((await page.getByTestId('header-balance').locator('data').textContent()) ?? '')).toBe(money(heartbeat.balanceInfo.mainBalance, 'en', 'EUR'))
  const { eventId, selectionId } = await stillEvent(request, 3, 2)
  await page.goto(`/sport/live/event?id=${eventId}`)
  await page.locator(`[data-selection-id="${selectionId}"]`).first().click()
  await page.getByTestId('betslip-bar').click()
  await page.getByTestId('betslip-stake').pressSequentially('3.5')
  expect(await textOf(page, 'betslip-stake-line')).toBe(`${money(3.5, 'en', 'EUR')} will be placed`)
  expect(await textOf(page, 'betslip-potential-win')).toBe(money(7, 'en', 'EUR'))
  await expect(page.getByTestId('betslip')).toContainText('€')
  await noDollar()

  await page.goto('/account/deposit')
  expect(await textOf(page, 'deposit-balance')).toContain(money(heartbeat.balanceInfo.mainBalance, 'en', 'EUR'))
  await expect(page.getByTestId('deposit-method').first()).toContainText(`From ${money(10, 'en', 'EUR')} to ${money(5000, 'en', 'EUR')}`)
  await noDollar()
  await page.getByTestId('deposit-method').filter({ hasText: 'Bank card' }).click()
  await page.getByLabel('Amount').pressSequentially('12.5')
  await expect(page.getByTestId('form-money-line')).toHaveText(`Amount: ${money(12.5, 'en', 'EUR')}`)
  await noDollar()

  await page.goto('/account/deposit-limits')
  await expect(page.getByTestId('limits').locator('.money').first()).toContainText('€')
  await noDollar()
})

test('es: a deposit amount typed as 12,5 reads 12,50 € and the provider is asked for exactly 12.50 EUR; 1,000.5 is refused and sends nothing', async ({ page, context, baseURL }) => {
  const origin = `http://spain.localhost:${new URL(baseURL!).port}`
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: origin }])
  await logInByApi(page, 'spain@demo.parlay.test', `${origin}/account/deposit`)
  await page.getByTestId('deposit-method').first().click()
  const amount = page.getByLabel('Importe')
  await amount.pressSequentially('1,000.5')
  await expect(page.getByTestId('form-money-line')).toHaveAttribute('data-state', 'refused')
  await page.getByTestId('form-submit').click()
  await expect(page.locator('.form-error')).toHaveText('No sabemos dónde empiezan los decimales. Escríbelos tras «,», por ejemplo 2,50.')
  await expect(page).toHaveURL(/\/account\/deposit\?method=/)

  await amount.fill('')
  await amount.pressSequentially('12,5')
  expect(plain((await page.getByTestId('form-money-line').textContent()) ?? '')).toBe(`Importe: ${money(12.5, 'es', 'EUR')}`)
  await page.getByTestId('form-submit').click()
  await expect(page.getByTestId('pay-amount')).toHaveText('12.50 EUR')
})

/** A 10.00 single on a still event, placed over the API as the punter: answers its bet id. */
async function placedBet(request: APIRequestContext, headers: Record<string, string>, selectionId: string, key: string): Promise<string> {
  const answer = await request.post(`${GATE}/bets/place`, { headers, data: { kind: 'single', selections: [{ selectionId, price: 2 }], stake: 10, idempotencyKey: key } })
  expect(answer.status()).toBe(200)
  return ((await answer.json()) as { payload: { betId: string } }).payload.betId
}

/** A bet's current cash-out offer in minor units, from the server (0: none). */
async function offerOf(request: APIRequestContext, headers: Record<string, string>, betId: string): Promise<number> {
  const open = (await (await request.get(`${GATE}/bets/open`, { headers })).json()).payload as { betId: string; cashOut: { amount: number } | null }[]
  return Math.round((open.find((b) => b.betId === betId)?.cashOut?.amount ?? 0) * 100)
}

/** The euro punter on the Curaçao site with a still event priced 2: the oracle's headers and the selection. */
async function euroPunterWithEvent(page: Page, request: APIRequestContext, baseURL: string, eventIndex: number) {
  await page.context().addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL }])
  await logInByApi(page, 'euro@demo.parlay.test')
  return { headers: await sessionHeaders(page, 'curacao'), ...(await stillEvent(request, eventIndex, 2)) }
}

/** Places a bet, then taps its cash-out on My bets: answers the bet, its offer and the balance before the tap. */
async function tapCashOut(page: Page, request: APIRequestContext, headers: Record<string, string>, selectionId: string, key: string) {
  const betId = await placedBet(request, headers, selectionId, key)
  const offer = await offerOf(request, headers, betId)
  const before = await balanceMinor(request, headers)
  await page.goto('/account/bets')
  await page.getByTestId('cash-out').first().click()
  return { betId, offer, before }
}

async function setConfirmation(page: Page, on: boolean) {
  await page.goto('/account/settings')
  const control = page.getByTestId('setting-isCashOutConfirmationActive')
  await control.getByRole('switch').setChecked(on)
  await expect(control.getByRole('status')).toHaveText('Saved')
}

test('with "Ask me to confirm each cash-out" on, a cash-out asks with its amount before anything is sent; off, one tap cashes out', async ({ page, request, baseURL }) => {
  const { headers, selectionId } = await euroPunterWithEvent(page, request, baseURL!, 4)

  await setConfirmation(page, true)
  const { betId: asked, offer, before } = await tapCashOut(page, request, headers, selectionId, 'e2e-confirm-on')
  const dialog = page.locator('[data-popup-id="cash-out-confirm"]')
  await expect(dialog).toBeVisible()
  expect(plain((await dialog.getByTestId('cash-out-confirm-amount').textContent()) ?? '')).toContain(money(offer / 100, 'en', 'EUR'))
  // asked, not sent: the bet is still open and the balance has not moved
  expect(await offerOf(request, headers, asked)).toBe(offer)
  expect(await balanceMinor(request, headers)).toBe(before)
  await dialog.getByTestId('cash-out-confirm').click()
  await expect.poll(() => balanceMinor(request, headers)).toBe(before + offer)

  await setConfirmation(page, false)
  const { offer: directOffer, before: beforeDirect } = await tapCashOut(page, request, headers, selectionId, 'e2e-confirm-off')
  await expect.poll(() => balanceMinor(request, headers)).toBe(beforeDirect + directOffer)
  await expect(page.locator('[data-popup-id="cash-out-confirm"]')).toHaveCount(0)
})

test('an offer that moved while the punter was asked: a lower one is asked about again with the new amount; with "when the offer goes up", a higher one is paid without asking', async ({ page, request, baseURL }) => {
  const { headers, selectionId } = await euroPunterWithEvent(page, request, baseURL!, 5)
  await setConfirmation(page, true)
  const type = page.getByTestId('setting-cashOutAutoConfirmationType')
  await type.locator('select').selectOption({ label: 'When the offer goes up' })
  await expect(type.getByRole('status')).toHaveText('Saved')
  const { betId, before } = await tapCashOut(page, request, headers, selectionId, 'e2e-offer-moves')
  const offerNow = () => offerOf(request, headers, betId)
  const dialog = page.locator('[data-popup-id="cash-out-confirm"]')
  const shown = async () => plain((await dialog.getByTestId('cash-out-confirm-amount').textContent()) ?? '')
  expect(await shown()).toContain(money(9.5, 'en', 'EUR'))

  // the price drifts out: the offer falls below the one confirmed, which the punter's type does not take
  await request.post('/api/dev/feed/price', { data: { selectionId, price: 2.5 } })
  await expect.poll(offerNow).toBe(760)
  await dialog.getByTestId('cash-out-confirm').click()
  await expect(dialog.getByTestId('cash-out-confirm-changed')).toBeVisible()
  await expect.poll(shown).toContain(money(7.6, 'en', 'EUR'))
  expect(await balanceMinor(request, headers)).toBe(before)

  // the price comes in: the offer rises above the one shown (7.60), which "when the offer goes up" takes
  await request.post('/api/dev/feed/price', { data: { selectionId, price: 1.5 } })
  const higher = await offerNow()
  expect(higher).toBeGreaterThan(760)
  await dialog.getByTestId('cash-out-confirm').click()
  await expect.poll(() => balanceMinor(request, headers)).toBe(before + higher)
  await expect(dialog).toHaveCount(0)
})

test('at 360 px a Nigerian punter reads the header balance with the naira sign (₦50,000.00, never NGN 50,000.00), the brand beside it whole', async ({ page, context, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  const origin = `http://nigeria.localhost:${new URL(baseURL!).port}`
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: origin }])
  await logInByApi(page, 'nigeria@demo.parlay.test', `${origin}/sport/live/popular`)
  const amount = page.getByTestId('header-balance').locator('data')
  const value = Number(await amount.getAttribute('value'))
  // the oracle: the sign, then the number as English writes it (grouping from 10 000, spec §5)
  const number = value.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: Math.abs(value) >= 10_000 })
  expect(plain((await amount.textContent()) ?? '')).toBe(`₦${number}`)
  const brand = await page.locator('.app-header__brand').evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth, text: el.textContent }))
  expect(brand.cut, `the brand "${brand.text}" is cut beside the balance`).toBe(false)
})
