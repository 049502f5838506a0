/**
 * The quiz and loyalty in the browser (issue 15 items 2 and 3), as demo punters at phone size: a
 * quiz answered right by one punter and wrong by another, both pending before the match is played
 * (issue 31: never judged before the event is settled); the loyalty campaign shown on Curaçao
 * and neither asked for nor shown on Spain. Statuses by the clock, the denial code and bad input
 * are HTTP tests in tests/http/engagement.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

async function consentGiven(context: BrowserContext, urls: string[]) {
  await context.addCookies(urls.map((url) => ({ name: 'ConsentCookie', value: 'necessary', url })))
}

const derby = (page: Page) => page.getByTestId('quiz-title').filter({ hasText: 'City derby' })

async function punterPage(browser: Browser, baseURL: string, login: string, path: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 } })
  await consentGiven(context, [baseURL])
  const page = await context.newPage()
  await logInByApi(page, login, path)
  return page
}

test('a quiz answer before its match is taken and pending, right or wrong: neither is judged before the event is settled; each uses the ticket', async ({ browser, server }) => {
  const right = await punterPage(browser, server.url, 'vip@demo.parlay.test', '/account/quiz')
  await expect(derby(right)).toBeVisible()
  await expect(right.getByTestId('quiz-tickets')).toHaveText('You have 1 ticket to play.')
  await expect(right.getByTestId('quiz-top-award').filter({ hasText: '500.00' })).toBeVisible() // the highest of 500, 100, 50 EUR
  await expect(right.getByTestId('quiz-status').filter({ hasText: 'Open for answers' })).toBeVisible()
  await expect(right.getByTestId('quiz-status').filter({ hasText: 'In play: answers are closed' })).toBeVisible() // the cup final's end has passed
  await right.getByRole('button', { name: 'The home side' }).click()
  await expect(right.getByTestId('notifications')).toContainText('Your answer is in. We will tell you whether it was right once the match has been played.')
  await expect(right.getByTestId('quiz-answered-pending')).toHaveText('Your answer: waiting for the match result.')
  await expect(right.getByTestId('quiz-answered-right')).toHaveCount(0)
  await expect(right.getByTestId('quiz-tickets')).toHaveText('You have 0 tickets to play.')
  await expect(right.getByRole('button', { name: 'The away side' })).toHaveCount(0)

  const wrong = await punterPage(browser, server.url, 'opened@demo.parlay.test', '/account/quiz')
  await wrong.getByRole('button', { name: 'A draw' }).click()
  await expect(wrong.getByTestId('notifications')).toContainText('Your answer is in.')
  await expect(wrong.getByTestId('quiz-answered-pending')).toHaveText('Your answer: waiting for the match result.')
  await expect(wrong.getByTestId('quiz-answered-wrong')).toHaveCount(0)
})

test('the loyalty campaign is shown on Curaçao and neither asked for nor shown on Spain', async ({ browser, server }) => {
  const curacao = await punterPage(browser, server.url, 'vip@demo.parlay.test', '/account/loyalty')
  await expect(curacao.getByTestId('loyalty-campaign-title')).toHaveText('Season race')
  await expect(curacao.getByTestId('loyalty-campaign-prize')).toHaveText('Main prize: a trip to the cup final for two')
  await expect(curacao.getByTestId('loyalty-campaign-card')).toContainText('Every bet earns points.')

  const port = new URL(server.url).port
  const spainUrl = `http://spain.localhost:${port}`
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  await consentGiven(context, [spainUrl])
  const spain = await context.newPage()
  const asked: string[] = []
  spain.on('request', (request) => {
    if (/loyalty\/active-campaigns|localize\/resources/.test(request.url())) asked.push(request.url())
  })
  await logInByApi(spain, 'spain@demo.parlay.test', `${spainUrl}/account/loyalty`)
  await expect(spain.getByTestId('loyalty-tier')).toBeVisible()
  await expect(spain.getByTestId('loyalty-campaign-title')).toHaveCount(0)
  expect(asked).toEqual([])
})
