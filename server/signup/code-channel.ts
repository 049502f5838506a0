/**
 * The channel a phone code goes by (spec "Code channels: SMS, TG_GATEWAY"; verification state
 * channelType, default sms). The request names it (`channelType`), the site's jurisdiction
 * document lists what it allows (`signup.codeChannels`, absent: SMS only). TG_GATEWAY is Telegram's
 * gateway; the simulators put its messages in the outbox on the `telegram` channel. Sends, resends
 * and attempts count exactly as for SMS (the same budget and verification limits).
 */
import type { OutboxTemplateName } from '../../kernel/messages/outbox-templates'
import type { OutboxChannel } from './outbox'
import { allowedCodeChannels, CODE_CHANNEL_NAMES, type CodeChannel } from '../../kernel/signup/code-channels'

export type { CodeChannel }

/** The request's channel (absent: sms) if the site allows it, else undefined. */
export function chooseCodeChannel(jurisdiction: unknown, requested: unknown): CodeChannel | undefined {
  if (requested === undefined) return allowedCodeChannels(jurisdiction).includes('sms') ? 'sms' : undefined
  if (typeof requested !== 'string') return undefined
  const channel = (Object.keys(CODE_CHANNEL_NAMES) as CodeChannel[]).find((c) => c === requested.toLowerCase())
  return channel && allowedCodeChannels(jurisdiction).includes(channel) ? channel : undefined
}

export const outboxChannelOf = (channel: CodeChannel): OutboxChannel => (channel === 'tg_gateway' ? 'telegram' : 'sms')

export function codeTemplate(purpose: 'signup' | 'recovery', channel: CodeChannel): OutboxTemplateName {
  const sms = purpose === 'signup' ? 'signupCode' : 'recoveryCode'
  return channel === 'tg_gateway' ? `${sms}Telegram` : sms
}
