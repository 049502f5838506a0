/**
 * The operator studio in real Chromium (issue 19): the demo operator opens Spain's sign-up, changes
 * a label in the form view (no JSON), sees the live phone preview (the real engine, Spain, Spanish)
 * show it, and saves a draft; nothing reaches punters before review; the preview shows the page as
 * a chosen demo punter. The studio runs under the
 * site's CSP: its built files hold no eval/new Function, and the page logs no CSP violation.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { HEADERS } from '../../engine/core/contracts'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { STUDIO_DIR } from '../../server/admin/studio-build'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.role === 'operator')!
const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'

test('an operator changes a Spain sign-up label in the form view, sees it in the live preview, saves a draft and previews as a demo punter', async ({ browser, server }) => {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  const page = await context.newPage()
  const cspViolations: string[] = []
  page.on('console', (m) => m.text().includes('Content Security Policy') && cspViolations.push(m.text()))
  // Signing in is not the subject here: the admin API sets the same session cookie the sign-in page does.
  await adminLogInByApi(context.request, operator)

  await page.goto(`/admin/studio?file=${encodeURIComponent(SPAIN_SIGNUP)}`)
  await expect(page.getByRole('heading', { name: 'Spain sign-up (email)' })).toBeVisible()
  const preview = page.frameLocator('[data-testid="studio-preview"]')
  await expect(preview.locator('.form-step-title')).toHaveText('Tu cuenta')

  // The first step's title: "Tu cuenta" (signup.step.account) becomes "Tus datos" (signup.step.personal).
  await page.locator('#root_steps_0_title').fill('signup.step.personal')
  await expect(preview.locator('.form-step-title')).toHaveText('Tus datos')
  // A field's label, which the form renders from the draft's own validator module.
  await page.locator('#root_steps_0_fields_0_label').fill('signup.field.password')
  await expect(preview.locator('label', { hasText: 'Contraseña' })).toHaveCount(2)
  await expect(page.getByTestId('studio-lint')).toHaveAttribute('data-errors', '0')

  await page.getByTestId('studio-save').click()
  await expect(page.getByTestId('studio-notice')).toContainText('Saved as draft #')
  const drafts = (await (await context.request.get('/admin/api/versions?state=draft')).json()).payload as { id: number; file: string }[]
  const draft = drafts.find((d) => d.file === SPAIN_SIGNUP)!
  const saved = (await (await context.request.get(`/admin/api/versions/${draft.id}`)).json()).payload
  expect(JSON.parse(saved.content).steps[0].title).toBe('signup.step.personal')
  expect(JSON.parse(saved.content).steps[0].schema.properties.email.title).toBe('signup.field.password')

  // Shown as a demo punter (Spain's "Madrid", 150.00 EUR): the page restores their read-only preview session.
  await page.getByTestId('preview-path').fill('/')
  await page.getByTestId('preview-punter').selectOption('20000001')
  await expect(preview.getByText('150,00 €')).toBeVisible()

  // Punters still get the published flow.
  const published = await (await context.request.get('/api/documents/flow/signup-email', { headers: { [HEADERS.target]: 'spain' } })).json()
  expect(published.steps[0].title).toBe('signup.step.account')
  expect(cspViolations).toEqual([])
  await context.close()

  const assets = join(process.env.PARLAY_E2E_DIST!, STUDIO_DIR, 'assets')
  for (const file of readdirSync(assets).filter((f) => f.endsWith('.js'))) expect(readFileSync(join(assets, file), 'utf8'), file).not.toMatch(/new Function\(|[^A-Za-z0-9_$.]eval\(/)
})
