/**
 * Code channel TG_GATEWAY (issue 34 item 5; spec "Code channels: SMS, TG_GATEWAY", verification
 * state channelType default sms). The site's jurisdiction document lists the channels it allows
 * (signup.codeChannels); the request's channelType picks one. A Telegram code lands in the outbox
 * on the `telegram` channel, in the punter's language: the oracle is the translations file on disk.
 * Sends and attempts count exactly as an SMS flow's. Real server, real database, injected clock.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCHEMAS_DIR } from '../../support/server'
import { countryId, curacaoBody, HARNESS_START_MS, russianPhone, startHarness, type Harness } from './helpers'

const textOf = (locale: string, key: string, code: string) =>
  (JSON.parse(readFileSync(join(SCHEMAS_DIR, 'i18n', `${locale}-outbox.json`), 'utf8')) as { resources: Record<string, string> }).resources[key].replace('{{code}}', code)
const codeIn = (body: string) => /\b(\d{6})\b/.exec(body)![1]
const BEGIN = '/account/v3/signup/phone/begin'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

const outbox = async (to: string) => {
  const res = await fetch(`${h.server.url}/api/dev/outbox?to=${encodeURIComponent(to)}`)
  return ((await res.json()) as { payload: { messages: { channel: string; body: string }[] } }).payload.messages
}
/** A recovery code is sent after the answer (ctx.sendLater): wait for it to land rather than read at once. */
const outboxOnceSent = async (to: string) => {
  let messages: Awaited<ReturnType<typeof outbox>> = []
  await expect.poll(async () => (messages = await outbox(to)).length, { timeout: 5000 }).toBeGreaterThan(0)
  return messages
}

describe('TG_GATEWAY where the site allows it: the code goes by Telegram, in the punter\'s language', () => {
  it('Curaçao (allows SMS and TG_GATEWAY): channelType tg_gateway puts the code in the outbox on the telegram channel, the English Telegram text; the state answers channelType tg_gateway', async () => {
    const body = curacaoBody({ channelType: 'tg_gateway' })
    const res = await h.call('curacao', 'POST', BEGIN, body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.payload).toMatchObject({ channelType: 'tg_gateway', phoneNumber: body.phoneNumber, status: 'PENDING' })
    const messages = await outbox(body.phoneNumber)
    expect(messages.map((m) => m.channel)).toEqual(['telegram'])
    expect(messages[0].body).toBe(textOf('en', 'outbox.signupCodeTelegram.body', codeIn(messages[0].body)))
    // and the code completes the sign-up as an SMS code would
    const done = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: res.body.payload.verificationToken, verificationCode: codeIn(messages[0].body) })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
  })

  it('Russia (allows TG_GATEWAY, default locale ru): the spec name TG_GATEWAY works too and the Telegram code is the Russian text', async () => {
    const phoneNumber = russianPhone()
    const res = await h.call('russia', 'POST', '/account/v2/ru/signup/begin', { phoneNumber, password: 'long enough pass', countryId: countryId('RU'), birthDay: '1985-02-03', terms: true, channelType: 'TG_GATEWAY' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [message] = await outbox(phoneNumber)
    expect(message.channel).toBe('telegram')
    expect(message.body).toBe(textOf('ru', 'outbox.signupCodeTelegram.body', codeIn(message.body)))
  })

  it('no channelType is SMS (the spec default), on the sms channel with the SMS text', async () => {
    const body = curacaoBody()
    const res = await h.call('curacao', 'POST', BEGIN, body)
    expect(res.body.payload.channelType).toBe('sms')
    const [message] = await outbox(body.phoneNumber)
    expect(message.channel).toBe('sms')
    expect(message.body).toBe(textOf('en', 'outbox.signupCode.body', codeIn(message.body)))
  })

  it('a resend of a Telegram flow goes by Telegram again, and its limits are the SMS flow\'s exactly', async () => {
    const tg = curacaoBody({ channelType: 'tg_gateway' })
    const sms = curacaoBody()
    const a = (await h.call('curacao', 'POST', BEGIN, tg)).body.payload
    const b = (await h.call('curacao', 'POST', BEGIN, sms)).body.payload
    const limits = (s: Record<string, unknown>) => ({ ...s, channelType: undefined, phoneNumber: undefined, verificationToken: undefined })
    expect(limits(a)).toEqual(limits(b))
    h.clock.now += b.nextVerificationAfterMillis + 1
    const again = await h.call('curacao', 'POST', '/account/signup/phone/resend-notification-sms', { verificationToken: a.verificationToken })
    const againSms = await h.call('curacao', 'POST', '/account/signup/phone/resend-notification-sms', { verificationToken: b.verificationToken })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(limits(again.body.payload)).toEqual(limits(againSms.body.payload))
    expect((await outbox(tg.phoneNumber)).map((m) => m.channel)).toEqual(['telegram', 'telegram'])
  })

  it('recovery by phone on Curaçao with channelType tg_gateway sends the recovery code by Telegram', async () => {
    const res = await h.call('curacao', 'POST', '/account/password/recover', { login: '+59995101001', channelType: 'tg_gateway' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.payload).toMatchObject({ channel: 'sms', channelType: 'tg_gateway' }) // channel: a code, not a link
    const [message] = await outboxOnceSent('+59995101001')
    expect(message.channel).toBe('telegram')
    expect(message.body).toBe(textOf('en', 'outbox.recoveryCodeTelegram.body', codeIn(message.body)))
  })
})

describe('TG_GATEWAY where the site does not allow it is refused, and nothing is sent', () => {
  it('Alderney (SMS only in its document): a phone sign-up asking for Telegram is a field error on channelType; no message goes out', async () => {
    const phoneNumber = '+447781123456'
    const res = await h.call('alderney', 'POST', BEGIN, curacaoBody({ phoneNumber, countryId: countryId('GG'), channelType: 'tg_gateway' }))
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: [{ field: 'channelType', code: 'enum' }] })
    expect(await outbox(phoneNumber)).toEqual([])
  })

  it('an unknown channel is refused on a site that allows Telegram', async () => {
    const body = curacaoBody({ channelType: 'carrier-pigeon' })
    expect((await h.call('curacao', 'POST', BEGIN, body)).body).toMatchObject({ errorCode: 'ValidationError', payload: [{ field: 'channelType' }] })
    expect(await outbox(body.phoneNumber)).toEqual([])
  })

  it('recovery by Telegram on Alderney is refused the same way', async () => {
    const res = await h.call('alderney', 'POST', '/account/password/recover', { login: '+447781123457', channelType: 'tg_gateway' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ errorCode: 'ValidationError', payload: [{ field: 'channelType', code: 'enum' }] })
  })
})
