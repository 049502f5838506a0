/**
 * Spec §9 stored key "landing visited": the first landing page this browser opens is remembered
 * (when and which); other pages do not write it, and a later landing keeps the first.
 */
import { expect, test } from './fixtures'

// guest pages only, nothing stored on the server: the worker's shared server
test.use({ serverScope: 'worker' })

const landingVisited = async (page: import('@playwright/test').Page) => JSON.parse((await page.evaluate(() => localStorage.getItem('parlay.landingVisited'))) ?? 'null')

test('landing visited is stored on the first landing page only, and kept by the next landing', async ({ page }) => {
  await page.goto('/promotions')
  await expect(page.getByTestId('page-title')).toBeVisible()
  expect(await landingVisited(page)).toBeNull()
  const before = Date.now()
  await page.goto('/landings')
  await expect(page.getByTestId('page-title')).toBeVisible()
  await expect.poll(() => landingVisited(page)).not.toBeNull()
  const first = await landingVisited(page)
  expect(first).toMatchObject({ path: '/landings' })
  expect(first.at).toBeGreaterThanOrEqual(before)
  await page.goto('/landings/download-app')
  await expect(page.getByTestId('page-title')).toBeVisible()
  expect(await landingVisited(page)).toEqual(first)
})
