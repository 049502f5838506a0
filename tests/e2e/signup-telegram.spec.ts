/**
 * Code channel TG_GATEWAY in the browser (issue 34 item 5), at phone size: Curaçao's phone sign-up
 * offers "Send the code by: SMS / Telegram" (its jurisdiction document allows both); choosing
 * Telegram sends the code to the outbox on the telegram channel, the code popup says Telegram, and
 * the code completes the sign-up. Alderney allows SMS only, so its form does not offer the choice.
 */
import { expect, test } from './fixtures'
import { accept, curacaoAccount, curacaoPersonal, lastMessage, siteUrl, unique } from './signup-helpers'

test('Curaçao at 360x740: a phone sign-up choosing Telegram gets its code on the telegram channel, the popup says Telegram, and the code signs the punter up', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
  const form = page.getByTestId('join-form-phone')
  const channel = form.getByRole('combobox', { name: 'Send the code by' })
  await expect(channel).toBeVisible()
  await channel.selectOption({ label: 'Telegram' })
  const national = `9${unique()}`
  await curacaoAccount(form, national)
  await curacaoPersonal(form)
  await accept(form)
  const dialog = page.locator('[data-popup-id="join-code-verification"]')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('We sent a 6-digit code to your Telegram. It is valid for 10 minutes.')).toBeVisible()
  await expect(dialog.getByText('We sent a 6-digit code by SMS.', { exact: false })).toHaveCount(0)
  const message = await lastMessage(request, baseURL!, `+599${national}`)
  expect(message.channel).toBe('telegram')
  expect(message.body).toMatch(/^Parlay on Telegram: your sign-up code is \d{6}\./)
  await dialog.getByRole('textbox', { name: 'Code' }).fill(/\b(\d{6})\b/.exec(message.body)![1])
  await dialog.getByTestId('form-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
})

test('Alderney at 360x740 (SMS only): the phone sign-up does not offer a code channel', async ({ page, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'alderney', '/join'))
  const form = page.getByTestId('join-form-phone')
  await expect(form.getByLabel('Mobile phone')).toBeVisible()
  await expect(form.getByRole('combobox', { name: 'Send the code by' })).toHaveCount(0)
})

test('Curaçao at 360x740: lost password by phone choosing Telegram reaches the code step with the code on the telegram channel', async ({ page, request, baseURL }) => {
  await page.goto(`${baseURL}/account/lost-password`)
  const form = page.getByTestId('password-recovery-form')
  await form.getByLabel('E-mail or phone number').fill('+59995101008')
  await form.getByRole('combobox', { name: 'Send the code by' }).selectOption({ label: 'Telegram' })
  await form.getByTestId('form-submit').click()
  await expect(form).toHaveAttribute('data-step', 'code')
  const message = await lastMessage(request, baseURL!, '+59995101008')
  expect(message.channel).toBe('telegram')
  expect(message.body).toMatch(/^Parlay on Telegram: your password recovery code is \d{6}\./)
})
