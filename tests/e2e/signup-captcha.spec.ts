/**
 * SMS pumping defence in the browser (issue 11 item 3): once a client has used its free SMS sends
 * for the hour, the sign-up call answers CAPTCHA_REQUIRED; the engine solves the proof-of-work
 * challenge and sends again, so a real punter behind the same address still gets the code.
 */
import { expect, test } from './fixtures'
import { PASSWORD, curacaoAccount, curacaoPersonal, lastMessage, next, siteUrl, unique } from './signup-helpers'

const CURACAO = 3 * 100 + 23 // country id of CW

test.setTimeout(120_000) // argon2 for four sign-ups and a proof-of-work solve in the page

test('Curaçao: past the free SMS sends of this client the browser solves the captcha and the code still arrives', async ({ page, request, baseURL }) => {
  // Spend the client's free sends (the browser and this request context share 127.0.0.1).
  for (let i = 0; i < 3; i++) {
    const body = { phoneNumber: `+5999${unique()}`, password: PASSWORD, countryId: CURACAO, currencyId: 1, firstName: 'Ana', lastName: 'Lopez', birthDay: '1990-05-17', terms: true }
    const answer = await request.post(`${baseURL}/mobile-gate/api/v1/account/v3/signup/phone/begin`, { data: body, headers: { 'x-parlay-target': 'curacao' } })
    expect(answer.status(), await answer.text()).toBe(200)
  }
  const challenges: number[] = []
  const begins: string[] = []
  page.on('response', async (response) => {
    if (response.url().includes('/auth/captcha/challenge')) challenges.push(response.status())
    if (response.url().includes('/signup/phone/begin')) begins.push(`${response.status()} ${((await response.json()) as { errorCode?: string }).errorCode ?? 'OK'}`)
  })

  await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
  const form = page.getByTestId('join-form-phone')
  const national = `9${unique()}`
  await curacaoAccount(form, national)
  await curacaoPersonal(form)
  await form.getByRole('checkbox').check()
  await next(form)

  // Solving the proof of work takes the page a moment: wait for the popup, not for a fixed time.
  await expect(page.locator('[data-popup-id="join-code-verification"]')).toBeVisible({ timeout: 60_000 })
  // the listener records an answer once its body is read, which can be after the popup shows
  await expect.poll(() => begins).toEqual(['400 CAPTCHA_REQUIRED', '200 OK'])
  expect(challenges).toEqual([200])
  const sms = await lastMessage(request, baseURL!, `+599${national}`)
  expect(sms.body).toMatch(/\b\d{6}\b/)
})
