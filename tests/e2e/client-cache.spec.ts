/**
 * The client cache (spec §3 "client cache namespaces", §9 lifetimes; engine/core/cached-gateway.ts)
 * at phone size: the sign-up screen's dictionary read (join settings, namespace `cache`, 15
 * minutes) is asked once when a guest enters /join, not again when he comes back within the
 * lifetime, and again once it has passed (page.clock moves the page's time).
 */
import { expect, test } from './fixtures'

test('a dictionary read is not asked again within its 15-minute lifetime and is asked again after it', async ({ page }) => {
  let asked = 0
  page.on('request', (request) => void (request.method() === 'GET' && new URL(request.url()).pathname === '/mobile-gate/api/v1/dictionary/settings' && (asked += 1)))
  await page.clock.install()
  await page.goto('/sport/live/popular')
  const header = page.getByRole('banner')
  // the app is live (the server's markup shows the page before React takes over, and a link
  // tapped before then is the browser's own): its buttons are enabled
  await expect(page.getByRole('banner').getByRole('button', { name: 'Menu' })).toBeEnabled()
  const enterJoin = async () => {
    await header.getByRole('link', { name: 'Sign up' }).click()
    await expect(page.getByTestId('page-title')).toHaveText('Sign up')
    await expect(page.locator('input[type="tel"]').first()).toBeVisible()
  }
  const leave = async () => {
    await page.locator('a.app-header__brand').click()
    await expect(page).not.toHaveURL(/\/join/)
  }
  await enterJoin()
  await expect.poll(() => asked).toBe(1)
  await leave()
  // again within the lifetime: answered from the cache
  await enterJoin()
  await leave()
  await page.clock.fastForward(15 * 60 * 1000)
  await enterJoin()
  // exactly one more: the second visit asked nothing, the third (after 15 minutes) asked again
  await expect.poll(() => asked).toBe(2)
  expect(asked).toBe(2)
})
