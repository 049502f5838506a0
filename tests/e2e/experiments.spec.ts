/**
 * Issue 5 wiring: flags and experiment groups from the experiment service are part of the document
 * context, so a document varies by flag or experiment with no code change.
 */
import { expect, test } from './fixtures'
import { siteUrl } from './signup-helpers'

test('the quiz menu item follows the quiz feature flag: on for Curaçao, off for Spain (flag rule by country)', async ({ page, server }) => {
  await page.goto(`${server.url}/casino/lobby`)
  await page.getByTestId('menu-button').click()
  await expect(page.getByTestId('left-menu').getByRole('link', { name: /quiz/i })).toBeVisible()

  await page.goto(siteUrl(server.url, 'spain', '/en/casino/lobby'))
  await page.getByTestId('menu-button').click()
  const menu = page.getByTestId('left-menu')
  await expect(menu.getByRole('link').first()).toBeVisible()
  await expect(menu.getByRole('link', { name: /quiz/i })).toHaveCount(0)
})

test('the sign-up page shows the motivation banner only to the registration-motivation test group', async ({ page, server }) => {
  // A visitor forced into group index 1 ("b": the test group) through the client's stored force list.
  await page.addInitScript(() => {
    window.localStorage.setItem('sigma_forced_experiments', JSON.stringify([{ experimentId: 'registrationMotivation', groupIndex: 1 }]))
  })
  await page.goto(`${server.url}/join`)
  await expect(page.getByTestId('join-motivation')).toBeVisible()
})

test('the control group does not see the motivation banner', async ({ page, server }) => {
  await page.addInitScript(() => {
    window.localStorage.setItem('sigma_forced_experiments', JSON.stringify([{ experimentId: 'registrationMotivation', groupIndex: 0 }]))
  })
  await page.goto(`${server.url}/join`)
  await expect(page.getByTestId('page-title')).toBeVisible()
  // give the experiment client time to answer by waiting for the flag-driven menu item
  await page.getByTestId('menu-button').click()
  await expect(page.getByTestId('left-menu').getByRole('link', { name: /quiz/i })).toBeVisible()
  await expect(page.getByTestId('join-motivation')).toHaveCount(0)
})
