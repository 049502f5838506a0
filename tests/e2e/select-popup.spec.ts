/**
 * The select popup (spec §2 modal kind "select"; issue 34 item 7) on the form that uses it:
 * Curaçao's sign-up currency, at phone size under the production CSP. The popup is a dialog
 * labelled by the field, focus stays inside, Escape closes it without a choice and returns focus
 * to the field; the arrow keys and Enter choose, and so does a tap. The oracle is the sign-up
 * request the page sends: the chosen currency's id is in its body. In English and in Spanish (the
 * popup's words are the page's).
 */
import type { Locator, Page, Request } from '@playwright/test'
import { expect, test } from './fixtures'
import { accept, chooseDate, fillPersonal, next, PASSWORD, siteUrl, unique } from './signup-helpers'

const SIGNUP_CALL = /\/account\/.*signup\/email$/

async function openEmailForm(page: Page, base: string, path: string): Promise<Locator> {
  await page.goto(siteUrl(base, 'curacao', path))
  await page.getByTestId('join-by-email').click()
  return page.getByTestId('join-form-email')
}

/** The rest of the e-mail sign-up after the account step; answers the sign-up request's body. */
async function finish(page: Page, form: Locator): Promise<Record<string, unknown>> {
  const sent = page.waitForRequest((request: Request) => request.method() === 'POST' && SIGNUP_CALL.test(new URL(request.url()).pathname))
  await next(form)
  await fillPersonal(form)
  await accept(form)
  return (await sent).postDataJSON() as Record<string, unknown>
}

test.beforeEach(async ({ context, baseURL }) => context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: siteUrl(baseURL!, 'curacao', '/') }]))

test('the currency is chosen by keyboard in the select popup: a labelled dialog, Escape closes without a choice, arrows and Enter choose; the body carries it', async ({ page, baseURL }) => {
  const form = await openEmailForm(page, baseURL!, '/join')
  await form.getByRole('textbox', { name: 'E-mail' }).fill(`popup.${unique()}@example.com`)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'Curaçao' })
  const field = form.getByRole('button', { name: 'Currency' })
  await field.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Currency' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toHaveAttribute('aria-modal', 'true')
  await expect(dialog.getByRole('option', { name: 'US dollar' })).toBeFocused()
  // focus is trapped: Tab from the last option comes back into the dialog
  for (let i = 0; i < 6; i++) await page.keyboard.press('Tab')
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(field).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(dialog.getByRole('option', { name: 'US dollar' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(dialog.getByRole('option', { name: 'Brazilian real' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(field).toHaveText('Brazilian real')
  await expect(field).toBeFocused()
  const body = await finish(page, form)
  expect(body.currencyId).toBe(8)
})

test('in Spanish, the currency is chosen by a tap in the select popup; the body carries it', async ({ page, baseURL }) => {
  const form = await openEmailForm(page, baseURL!, '/es/join')
  await form.getByRole('textbox', { name: 'Correo electrónico' }).fill(`popup.es.${unique()}@example.com`)
  await form.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'País', exact: true }).selectOption({ label: 'Curazao' })
  await form.getByRole('button', { name: 'Moneda' }).click()
  const dialog = page.getByRole('dialog', { name: 'Moneda' })
  await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeVisible()
  await dialog.getByRole('option', { name: 'Euro' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(form.getByRole('button', { name: 'Moneda' })).toHaveText('Euro')
  const sent = page.waitForRequest((request: Request) => request.method() === 'POST' && SIGNUP_CALL.test(new URL(request.url()).pathname))
  await next(form)
  await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Ana')
  await form.getByRole('textbox', { name: 'Apellidos', exact: true }).fill('López')
  await chooseDate(form, 'Fecha de nacimiento', '1990-05-17')
  await next(form)
  await form.getByRole('checkbox').check()
  await next(form)
  expect(((await sent).postDataJSON() as Record<string, unknown>).currencyId).toBe(2)
})
