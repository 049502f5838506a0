/**
 * Captcha kind chosen by the site's document (issue 34 item 5), in the browser at phone size: with
 * Curaçao set to HCAPTCHA, a sign-up past the client's free SMS sends gets a widget token (our own
 * stand-in, docs/adr/0080-captcha-vendor-widget.md) that the server verifies with the local double
 * over HTTP, and the code arrives. No proof of work is solved.
 */
import { expect, test } from './fixtures'
import { PASSWORD, curacaoAccount, curacaoPersonal, lastMessage, next, siteUrl, unique } from './signup-helpers'

const CURACAO = 3 * 100 + 23 // country id of CW

test('Curaçao set to HCAPTCHA: past the free SMS sends the browser answers the captcha with a widget token and the code arrives', async ({ page, request, baseURL, editDocument }) => {
  await editDocument('jurisdictions/curacao/jurisdiction.json', (doc) => void ((doc.captcha as { kind: string }).kind = 'HCAPTCHA'))
  // Spend the client's free sends (the browser and this request context share 127.0.0.1).
  for (let i = 0; i < 3; i++) {
    const body = { phoneNumber: `+5999${unique()}`, password: PASSWORD, countryId: CURACAO, currencyId: 1, firstName: 'Ana', lastName: 'Lopez', birthDay: '1990-05-17', terms: true }
    const answer = await request.post(`${baseURL}/mobile-gate/api/v1/account/v3/signup/phone/begin`, { data: body, headers: { 'x-parlay-target': 'curacao' } })
    expect(answer.status(), await answer.text()).toBe(200)
  }
  const challenges: string[] = []
  const begins: string[] = []
  page.on('response', async (response) => {
    if (response.url().includes('/auth/captcha/challenge')) challenges.push(((await response.json()) as { payload: { type: string } }).payload.type)
    if (response.url().includes('/signup/phone/begin')) begins.push(`${response.status()} ${((await response.json()) as { errorCode?: string }).errorCode ?? 'OK'}`)
  })
  await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
  const form = page.getByTestId('join-form-phone')
  const national = `9${unique()}`
  await curacaoAccount(form, national)
  await curacaoPersonal(form)
  await form.getByRole('checkbox').check()
  await next(form)
  await expect(page.locator('[data-popup-id="join-code-verification"]')).toBeVisible()
  await expect.poll(() => begins).toEqual(['400 CAPTCHA_REQUIRED', '200 OK'])
  expect(challenges).toEqual(['HCAPTCHA'])
  expect((await lastMessage(request, baseURL!, `+599${national}`)).body).toMatch(/\b\d{6}\b/)
})
