/**
 * SMS pumping defence in the browser (issue 11 item 3): once a client has used its free SMS sends
 * for the hour, the sign-up call answers CAPTCHA_REQUIRED; the engine solves the proof-of-work
 * challenge and sends again, so a real punter behind the same address still gets the code.
 */
import { expect, test } from './fixtures'
import { curacaoSignUp, lastMessage, spendFreeSends, watchCaptcha } from './signup-helpers'

test.setTimeout(120_000) // argon2 for four sign-ups and a proof-of-work solve in the page

test('Curaçao: past the free SMS sends of this client the browser solves the captcha and the code still arrives', async ({ page, request, baseURL }) => {
  await spendFreeSends(request, baseURL!)
  const { challenges, begins } = watchCaptcha(page)
  const started = Date.now()
  const phone = await curacaoSignUp(page, baseURL!)

  // Solving the proof of work takes the page a moment: wait for the popup, not for a fixed time.
  await expect(page.locator('[data-popup-id="join-code-verification"]')).toBeVisible({ timeout: 60_000 })
  // the listener records an answer once its body is read, which can be after the popup shows
  await expect.poll(() => begins).toEqual(['400 CAPTCHA_REQUIRED', '200 OK'])
  await expect.poll(() => challenges).toEqual(['200 RQ_POW'])
  // spec §9 stored key "pow puzzle run": when the puzzle was solved and how many numbers it tried
  const run = JSON.parse((await page.evaluate(() => localStorage.getItem('parlay.powPuzzleRun'))) ?? 'null')
  expect(run.at).toBeGreaterThanOrEqual(started)
  expect(run.tried).toBeGreaterThanOrEqual(1)
  const sms = await lastMessage(request, baseURL!, phone)
  expect(sms.body).toMatch(/\b\d{6}\b/)
})
