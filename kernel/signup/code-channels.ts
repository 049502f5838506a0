/**
 * The code channels a site allows (spec "Code channels: SMS, TG_GATEWAY"), read from its
 * jurisdiction document's `signup.codeChannels` (absent: SMS only). Shared by the server, which
 * refuses any other channel, and the document lint, which refuses a flow offering one.
 */
export type CodeChannel = 'sms' | 'tg_gateway'

/** Each channel's name in the spec and in the jurisdiction document. */
export const CODE_CHANNEL_NAMES: Record<CodeChannel, string> = { sms: 'SMS', tg_gateway: 'TG_GATEWAY' }

export function allowedCodeChannels(jurisdiction: unknown): CodeChannel[] {
  const listed = (jurisdiction as { signup?: { codeChannels?: unknown } } | undefined)?.signup?.codeChannels
  if (!Array.isArray(listed)) return ['sms']
  return (Object.keys(CODE_CHANNEL_NAMES) as CodeChannel[]).filter((channel) => listed.includes(CODE_CHANNEL_NAMES[channel]))
}
