/**
 * Popup windows (spec §9 "popup-window reference cleanup every 30 s") at phone size: the contact
 * page's link to the support site opens a window through the page's popup registry — the link
 * carries data-window="open" while the page holds the reference; the window gets no opener and no
 * referrer (as rel="noopener noreferrer"); once the window is closed the reference is dropped by
 * the next 30 s sweep (page.clock drives the page's timers).
 */
import { expect, test } from './fixtures'

const SUPPORT = 'https://support.parlay.example/'

test('the support link opens a tracked window without opener or referrer, and its reference is dropped by the 30 s sweep after it closes', async ({ page, context }) => {
  const referers: Array<string | undefined> = []
  await context.route(`${SUPPORT}**`, (route) => {
    referers.push(route.request().headers()['referer'])
    return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Support</title><h1>Support</h1>' })
  })
  await page.clock.install()
  await page.goto('/contact-us')
  const link = page.locator(`main a[href="${SUPPORT}"]`)
  await expect(link).toBeVisible()
  await expect(link).not.toHaveAttribute('data-window')
  // the app is live (the server's markup shows the page before React takes over, and a link
  // tapped before then is the browser's own): its buttons are enabled
  await expect(page.getByRole('banner').getByRole('button', { name: 'Menu' })).toBeEnabled()

  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()])
  await popup.waitForURL(SUPPORT)
  await expect(popup.getByRole('heading', { name: 'Support' })).toBeVisible()
  await expect(link).toHaveAttribute('data-window', 'open')
  expect(await popup.evaluate(() => window.opener === null)).toBe(true)
  expect(referers).toEqual([undefined])
  // one window per tap, never the anchor's own window as well
  expect(context.pages()).toHaveLength(2)

  await popup.close()
  // the next sweep drops it (the exact 30 s phase is held by tests/unit/engine/popup-windows.test.ts;
  // here the page's clock flows, so only "within 30 s" is certain)
  await page.clock.fastForward(30_000)
  await expect(link).not.toHaveAttribute('data-window')

  // the next tap opens a window again
  const [again] = await Promise.all([page.waitForEvent('popup'), link.click()])
  await again.waitForURL(SUPPORT)
  await expect(link).toHaveAttribute('data-window', 'open')
})
