/**
 * Captcha kind chosen by the site's document (issue 34 item 5), in the browser at phone size: with
 * Curaçao set to HCAPTCHA, a sign-up past the client's free SMS sends gets a widget token (our own
 * stand-in, docs/adr/0080-captcha-vendor-widget.md) that the server verifies with the local double
 * over HTTP, and the code arrives. No proof of work is solved.
 */
import { expect, test } from './fixtures'
import { curacaoSignUp, lastMessage, spendFreeSends, watchCaptcha } from './signup-helpers'

test('Curaçao set to HCAPTCHA: past the free SMS sends the browser answers the captcha with a widget token and the code arrives', async ({ page, request, baseURL, editDocument }) => {
  await editDocument('jurisdictions/curacao/jurisdiction.json', (doc) => void ((doc.captcha as { kind: string }).kind = 'HCAPTCHA'))
  await spendFreeSends(request, baseURL!)
  const { challenges, begins } = watchCaptcha(page)
  const phone = await curacaoSignUp(page, baseURL!)
  await expect(page.locator('[data-popup-id="join-code-verification"]')).toBeVisible()
  await expect.poll(() => begins).toEqual(['400 CAPTCHA_REQUIRED', '200 OK'])
  await expect.poll(() => challenges).toEqual(['200 HCAPTCHA'])
  expect((await lastMessage(request, baseURL!, phone)).body).toMatch(/\b\d{6}\b/)
})
