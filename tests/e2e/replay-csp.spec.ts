/**
 * Session replay under the production CSP (issue 34: "with session replay on, every page logs CSP
 * errors about inline styles"): while rrweb records a punter's pages (consent "all", replay on by
 * remote config), the page reports no securitypolicyviolation event and logs no CSP error.
 */
import { expect, test } from './fixtures'

test('recording a session over several pages and a form raises no CSP violation and logs no CSP error', async ({ page, baseURL }) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => void (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()) && consoleErrors.push(message.text())))
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] }
    w.cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`))
  })
  await page.context().addCookies([{ name: 'ConsentCookie', value: 'all', url: baseURL! }])
  const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
  await page.goto('/join')
  await page.keyboard.press('Shift')
  await expect(page.locator('html[data-parlay-replay="recording"]')).toBeAttached({ timeout: 20_000 })
  await page.locator('input[type="tel"]').first().fill('5550123')
  await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click()
  await page.keyboard.press('Escape')
  await page.getByRole('navigation', { name: 'Products' }).getByRole('link').first().click()
  await expect(page.locator('html[data-parlay-replay="recording"]')).toBeAttached()
  await page.mouse.wheel(0, 600)
  // the recorder's batch goes out (pagehide) and the page is still the same document up to here
  expect(await violations()).toEqual([])
  expect(consoleErrors).toEqual([])
})
