/**
 * The operator studio in real Chromium (issue 19): the demo operator opens Spain's sign-up, changes
 * a label in the form view (no JSON), sees the live phone preview (the real engine, Spain, Spanish)
 * show it, and saves a draft; nothing reaches punters before review; the preview shows the page as
 * a chosen demo punter. The studio runs under the
 * site's CSP: its built files hold no eval/new Function, and the page logs no CSP violation.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { HEADERS } from '../../kernel/core/contracts'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { STUDIO_DIR } from '../../server/admin/studio-build'
import { adminLogInByApi, expect, test } from './fixtures'
import { SITES } from '../support/sites'

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
  // Spain's sign-up is an overlay: the draft is its patch, holding only what Spain changes
  const patch = JSON.parse(saved.content)
  expect(patch.$overlay).toBe('bases/flows/signup-email.json')
  const account = patch.steps.find((s: { id: string }) => s.id === 'account')
  expect(account.title).toBe('signup.step.personal')
  expect(account.schema.properties.email).toEqual({ title: 'signup.field.password' })

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

test("each site's result of Spain's sign-up and what its overlay changes; a new overlay made in the studio saves only its change", async ({ browser, server }) => {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  const page = await context.newPage()
  await adminLogInByApi(context.request, operator)

  await page.goto(`/admin/studio?file=${encodeURIComponent(SPAIN_SIGNUP)}`)
  await expect(page.getByTestId('studio-overlay-note')).toContainText('An overlay on bases/flows/signup-email.json')
  const results = page.getByTestId('site-results')
  await expect(results.getByTestId('site-tab')).toHaveCount(SITES.length) // every declared site
  await expect(results.locator('[data-testid="site-tab"][data-site="spain"]')).toHaveAttribute('aria-selected', 'true')
  const panel = results.getByTestId('site-result')
  await expect(panel.getByTestId('site-how')).toContainText(`Spain is served its overlay ${SPAIN_SIGNUP}`)
  await expect(panel.getByTestId('site-changes')).toContainText('Spain sign-up (email): step personal gains field documentNumber')
  // the resolved result is what Spain's punters are served: its countries, as the documents API gives them
  const served = await (await context.request.get('/api/documents/flow/signup-email', { headers: { [HEADERS.target]: 'spain' } })).json()
  const shown = JSON.parse((await panel.getByTestId('site-resolved').textContent())!)
  expect(shown.steps[0].schema.properties.countryId.enum).toEqual(served.steps[0].schema.properties.countryId.enum)
  await panel.getByText('The overlay as stored').click()
  await expect(panel.getByTestId('site-overlay')).toContainText('"$overlay": "bases/flows/signup-email.json"')

  await results.locator('[data-testid="site-tab"][data-site="russia"]').click()
  await expect(panel).toHaveAttribute('data-how', 'none')
  await expect(panel.getByTestId('site-how')).toHaveText('Russia is not served this document.')
  await expect(panel.getByTestId('site-resolved')).toHaveCount(0)
  await results.locator('[data-testid="site-tab"][data-site="italy"]').click()
  await expect(panel.getByTestId('site-changes')).toContainText('field fiscalCode now required')

  // Italy gets its own left-menu overlay from the shared menu, changes one label in the form, saves the patch
  await page.goto(`/admin/studio?file=${encodeURIComponent('menus/left-menu.json')}`)
  await results.locator('[data-testid="site-tab"][data-site="italy"]').click()
  await expect(panel.getByTestId('site-how')).toContainText('Italy is served the shared document menus/left-menu.json as it is')
  await panel.getByTestId('overlay-create').click()
  await expect(page.getByTestId('studio-overlay-note')).toContainText('An overlay on menus/left-menu.json')
  // the loyalty item, wherever the shared menu has it
  const loyalty = (JSON.parse(readFileSync(join('schemas', 'menus', 'left-menu.json'), 'utf8')) as { items: { name: string }[] }).items.findIndex((i) => i.name === 'loyalty')
  await page.locator(`#root_items_${loyalty}_label`).fill('menu.promotions')
  await page.getByTestId('studio-save').click()
  await expect(page.getByTestId('studio-notice')).toContainText('Saved as draft #')
  const drafts = (await (await context.request.get('/admin/api/versions?state=draft')).json()).payload as { id: number; file: string }[]
  const italy = drafts.find((d) => d.file === 'jurisdictions/italy/menus/left-menu.json')!
  const saved = JSON.parse((await (await context.request.get(`/admin/api/versions/${italy.id}`)).json()).payload.content)
  expect(saved).toEqual({ $schema: '../../../kinds/overlay.schema.json', $overlay: 'menus/left-menu.json', kind: 'menu', id: 'left-menu', items: [{ name: 'loyalty', label: 'menu.promotions' }] })
  await context.close()
})
