/**
 * The studio's JSON editor (CodeMirror) driven as a person drives it, under the CSP the server
 * really sends (issue 29 item 3): the page's style-src allows CodeMirror's style elements only by
 * the answer's nonce (docs/adr/0004-code-editor-under-csp.md). Without its styles the text started
 * ~5,000 px down, tooltips were drawn at -10,000 px, errors were not underlined and Enter followed
 * by typing corrupted the JSON.
 */
import type { Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.role === 'operator')!
const FILE = 'popups/info.json'

/** Every CSP violation the page or its frames report (the event, and the console's message). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = []
  page.on('console', (m) => m.text().includes('Content Security Policy') && console.push(m.text()))
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = [])
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  return async () => [...console, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))]
}

/** A box entirely inside the page's viewport (not drawn off screen). CodeMirror draws a new tooltip
 * at -10000 px and moves it in at its next measure (an animation frame later): waited for, as a
 * person's eye would; where the CSP blocks its styles it never comes in and this fails. */
async function expectOnScreen(page: Page, selector: string): Promise<void> {
  await expect(async () => {
    const box = (await page.locator(selector).first().boundingBox())!
    const viewport = page.viewportSize()!
    expect(box.width).toBeGreaterThan(0)
    expect(box.height).toBeGreaterThan(0)
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height)
  }).toPass({ timeout: 10_000 })
}

test('the JSON editor works under the site’s CSP: typing with Enter keeps the JSON as typed, a completion is accepted by keyboard, hover and completion show on screen, an error is underlined, Ctrl+Z undoes', async ({ browser, server }) => {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  const page = await context.newPage()
  const violations = await watchCsp(page)
  await page.clock.install() // time flows as usual; the completion step below moves it on by hand
  await adminLogInByApi(context.request, operator)
  const published = (await (await context.request.get(`/admin/api/document?file=${encodeURIComponent(FILE)}`)).json()).payload.published.content as string

  const answer = await page.goto(`/admin/studio?file=${encodeURIComponent(FILE)}`)
  // the production policy: styles from the site itself, or carrying this answer's nonce; never 'unsafe-inline'
  expect(answer!.headers()['content-security-policy']).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='(;|$)/)
  await page.getByTestId('studio-view-code').click()
  const code = page.getByTestId('studio-code')
  const lines = page.locator('.cm-line')
  await expect(lines.first()).toHaveText('{')
  // the text starts at the top of the editor, not thousands of pixels down
  const editorTop = (await page.locator('.code-editor').boundingBox())!.y
  expect((await lines.first().boundingBox())!.y - editorTop).toBeLessThan(40)

  // Enter, then a completion accepted with the keyboard, then Enter and more typing.
  await lines.first().click()
  await page.keyboard.press('End')
  await page.keyboard.press('Enter')
  await page.keyboard.type('"fro')
  const completion = page.locator('.cm-tooltip-autocomplete')
  await expect(completion).toContainText('frozen')
  await expectOnScreen(page, '.cm-tooltip-autocomplete')
  // A list takes no key for 75 ms after it opens (CodeMirror's guard against accepting a list that
  // popped up under a keystroke); a person's look at it takes longer than that.
  await page.clock.fastForward(100)
  await page.keyboard.press('Enter')
  await expect(completion).toHaveCount(0)
  await page.keyboard.type(': true,')
  await page.keyboard.press('Enter')
  await page.keyboard.type('"closeable": false,')
  await expect(lines.nth(1)).toHaveText('  "frozen": true,')
  await expect(lines.nth(2)).toHaveText('  "closeable": false,')
  await expect(lines.nth(3)).toHaveText('  "$schema": "../kinds/popup.schema.json",')

  // What the operator typed is what is saved, character for character.
  await page.getByTestId('studio-save').click()
  await expect(page.getByTestId('studio-notice')).toContainText('Saved as draft #')
  const drafts = (await (await context.request.get(`/admin/api/versions?state=draft&file=${encodeURIComponent(FILE)}`)).json()).payload as { id: number }[]
  const saved = (await (await context.request.get(`/admin/api/versions/${drafts[0].id}`)).json()).payload.content as string
  expect(saved).toBe(published.replace('{\n', '{\n  "frozen": true,\n  "closeable": false,\n'))

  // Hovering a property shows its description from the kind's schema, on screen.
  await lines.nth(1).hover({ position: { x: 40, y: 8 } }) // on the word "frozen" (a line spans the editor's width)
  await expect(page.locator('.cm-tooltip-hover')).toContainText('A frozen popup ignores overlay taps and Escape.')
  await expectOnScreen(page, '.cm-tooltip-hover')

  // Invalid JSON is underlined where it is wrong.
  await code.getByText('true', { exact: true }).dblclick()
  await page.keyboard.type('maybe')
  await expect(lines.nth(1)).toHaveText('  "frozen": maybe,')
  const underline = page.locator('.cm-lintRange-error').first()
  await expect(underline).toBeVisible()
  const mark = await underline.evaluate((el) => ({ width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height, image: getComputedStyle(el).backgroundImage }))
  expect(mark.width).toBeGreaterThan(0)
  expect(mark.height).toBeGreaterThan(0)
  expect(mark.image).toContain('url(') // the wavy line is the mark's background

  // Ctrl+Z takes the mistake back, and then every edit, to the published text.
  await page.keyboard.press('Control+z')
  await expect(lines.nth(1)).toHaveText('  "frozen": true,')
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0)
  await expect(async () => {
    await page.keyboard.press('Control+z')
    await expect(page.getByTestId('studio-save')).toBeDisabled({ timeout: 500 })
  }).toPass()
  await expect(lines.nth(1)).toHaveText('  "$schema": "../kinds/popup.schema.json",')

  expect(await violations()).toEqual([])
  await context.close()
})
