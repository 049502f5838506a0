/**
 * A route's loads failing (spec §8 Router, §9 "Router data fetch retries 3 on 5xx"): a screen
 * document answered 5xx is asked again up to 3 more times and the screen shows when an answer
 * comes; when all 4 fail, the router makes a hard navigation (the page is loaded afresh from the
 * server, which renders the screen itself) instead of a 500 page. Real Chromium at phone size,
 * the failures made by intercepting the document requests.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

const JOIN_DOCUMENT = /\/api\/documents\/screen\/join\?/

/** Opens a page and waits until the app is live: the server's markup shows the title before React
 * takes over, and a link tapped before then is a real navigation; live, its buttons are enabled. */
async function openLive(page: Page, path: string): Promise<void> {
  await page.goto(path)
  await expect(page.getByTestId('page-title')).toBeVisible()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Menu' })).toBeEnabled()
}

test('a screen document answered 503 three times is asked a fourth time and the screen shows, without a reload', async ({ page }) => {
  await openLive(page, '/promotions')
  let asked = 0
  await page.route(JOIN_DOCUMENT, async (route) => {
    asked++
    if (asked <= 3) await route.fulfill({ status: 503, body: '{"status":"ERROR","errorCode":"INTERNAL_SERVER_ERROR"}', contentType: 'application/json' })
    else await route.continue()
  })
  let documentLoads = 0
  page.on('request', (request) => void (request.resourceType() === 'document' && documentLoads++))
  await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).click()
  await expect(page.getByTestId('join-form-phone')).toBeVisible()
  expect(asked).toBe(4)
  expect(await page.evaluate(() => sessionStorage.getItem('parlay.hardNavigation'))).toBeNull()
  expect(documentLoads).toBe(0) // no hard navigation: the client router showed it
})

test('a screen document failing 4 times (500) makes a hard navigation to the same address, which the server renders; no 500 page', async ({ page }) => {
  await openLive(page, '/promotions')
  let asked = 0
  await page.route(JOIN_DOCUMENT, async (route) => {
    asked++
    await route.fulfill({ status: 500, body: '{}', contentType: 'application/json' })
  })
  const documentLoad = page.waitForRequest((request) => request.resourceType() === 'document' && new URL(request.url()).pathname === '/join')
  await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).click()
  await documentLoad
  await expect(page.getByTestId('join-form-phone')).toBeVisible()
  expect(asked).toBeGreaterThanOrEqual(4)
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('parlay.hardNavigation'))) ?? '{}').href).toMatch(/\/join$/)
  await expect(page.getByText('Internal Server Error')).toHaveCount(0)
})
