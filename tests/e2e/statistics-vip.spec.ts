/**
 * Real content on the statistics and VIP club pages (issue 34 item 8), at 360×740 in the site's
 * language: the statistics page shows the league tables of the feed's finished matches (the rows
 * as the statistics API ranks them: tests/http/content/statistics.test.ts checks the tally); the
 * VIP club page says where the punter stands — a VIP member, an account that is not VIP yet, or a
 * guest asked to log in — in the words of the site's translations files (the oracle).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

const textOf = (dir: string, locale: string, key: string) => (JSON.parse(readFileSync(join(dir, 'i18n', `${locale}-pages.json`), 'utf8')) as { resources: Record<string, string> }).resources[key] ?? (JSON.parse(readFileSync(join(dir, 'i18n', `${locale}-money.json`), 'utf8')) as { resources: Record<string, string> }).resources[key]

test.use({ viewport: { width: 360, height: 740 } })

const tables = (page: Page) => page.getByTestId('league-table')

test('Spain’s statistics page shows league tables in Spanish, each row ranked with its points, as the statistics API answers', async ({ page, server }) => {
  const port = new URL(server.url).port
  await page.goto(`http://spain.localhost:${port}/sport/statistics`)
  await expect(tables(page).first()).toBeVisible()
  const api = (await (await page.request.get(`${server.url}/api/content/statistics?section=sport&locale=es`)).json()).payload as { title: string; rows: { title: string }[] }[]
  expect(api.length).toBeGreaterThan(0)
  // the first table on the page is one the API answers, its leader's row as the API words it
  const leagueShown = (await tables(page).first().textContent())!
  const table = api.find((t) => leagueShown.includes(t.title))!
  expect(table, leagueShown).toBeDefined()
  const rows = page.getByTestId('league-table-rows').first()
  await expect(rows).toContainText(table.rows[0]!.title)
  await expect(rows).toContainText('puntos:')
  // nothing wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

test('the VIP club page tells a VIP member, an ordinary punter and a guest where they stand', async ({ browser, server }) => {
  const dir = server.documentsDir
  const guest = await browser.newPage({ viewport: { width: 360, height: 740 } })
  await guest.goto(`${server.url}/account/vip`)
  await expect(guest.getByTestId('vip-status')).toHaveText(textOf(dir, 'en', 'pages.vip-club.guest'))
  for (const [login, key] of [['vip@demo.parlay.test', 'loyalty.vip'], ['opened@demo.parlay.test', 'pages.vip-club.notMember']] as const) {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, baseURL: server.url })
    await logInByApi(page, login, '/account/vip')
    await expect(page.getByTestId('vip-status')).toHaveText(textOf(dir, 'en', key))
    await page.close()
  }
  await guest.close()
})
