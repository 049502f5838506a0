/**
 * Session replay playback under the site's CSP (issue 34 item 8): a punter's recorded session is
 * played back by support in /admin/services, whose policy is the site's own (style-src 'self', no
 * 'unsafe-inline', no 'unsafe-eval'); the page and the replay's frame log no CSP violation, and
 * the frame shows the recorded page (its texts, laid out by its style sheets).
 */
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const support = DEMO_ADMINS.find((a) => a.role === 'support')!

test('support plays a recorded session back under the site CSP: no securitypolicyviolation, the recorded page is shown', async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: 'ConsentCookie', value: 'all', url: baseURL! }])
  await page.goto('/join')
  await page.keyboard.press('Shift')
  await expect(page.locator('html[data-parlay-replay="recording"]')).toBeAttached({ timeout: 20_000 })
  const title = (await page.getByTestId('page-title').first().innerText()).trim()
  await page.locator('input[type="tel"]').first().fill('5550123')
  // leaving the page sends the open batch at once (pagehide)
  await page.goto('/favicon.ico')

  await adminLogInByApi(page.request, support)
  const sessions = async () => ((await (await page.request.get('/admin/api/services/replays')).json()).payload as Array<{ events: number }>).length
  await expect.poll(sessions, { timeout: 20_000 }).toBeGreaterThan(0)

  const consoleErrors: string[] = []
  page.on('console', (message) => void (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()) && consoleErrors.push(message.text())))
  // the page's own violations as events; the replay frame's (its document is rebuilt by the
  // player) in the console, where Chromium logs every refused style of every frame
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] }
    w.cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`))
  })
  const response = await page.goto('/admin/services#replays')
  const csp = response!.headers()['content-security-policy'] ?? ''
  expect(csp).toMatch(/style-src 'self'(;|$)/)
  expect(csp).not.toContain('unsafe-inline')
  expect(csp).not.toContain('unsafe-eval')
  await page.getByTestId('services-replay-play').first().click()
  await expect(page.getByTestId('services-replay-stage')).toHaveAttribute('data-state', 'playing')

  const frame = page.frameLocator('[data-testid="services-replay-stage"] iframe')
  // the recorded page's own title, as the punter saw it
  await expect(frame.getByText(title).first()).toBeVisible()
  // its style sheets apply: the recorded form field is laid out as on the site (not the browser's default)
  const field = frame.locator('input[type="tel"]').first()
  await expect(field).toBeAttached()
  // form.css gives the site's fields border-box; the browser's default is content-box
  expect(await field.evaluate((input) => getComputedStyle(input).boxSizing)).toBe('border-box')
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([])
  expect(consoleErrors).toEqual([])
})
