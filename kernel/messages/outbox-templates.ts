/**
 * The SMS and e-mails the server sends punters (issue 34 item 2), as templates whose words are
 * translations in schemas/i18n/<locale>-outbox.json: `outbox.<template>.body` (and, for an e-mail,
 * `outbox.<template>.subject`), with `{{placeholders}}` the sender fills. A plain table, shared by
 * the server (server/signup/message-texts.ts composes them) and the document lint (every locale
 * has every template's texts, each placeholder filled by what the sender passes).
 */
export interface OutboxTemplate {
  channel: 'sms' | 'email' | 'telegram'
  /** The values the sender fills: every placeholder of the texts must be one of them. */
  values: readonly string[]
}

export const OUTBOX_TEMPLATES = {
  /** Sign-up by phone: the verification code (and its resend). */
  signupCode: { channel: 'sms', values: ['code'] },
  /** The same code by Telegram's gateway (code channel TG_GATEWAY, where the site allows it). */
  signupCodeTelegram: { channel: 'telegram', values: ['code'] },
  /** Sign-up by e-mail: the confirmation link. */
  signupConfirmEmail: { channel: 'email', values: ['link'] },
  /** "Send the confirmation e-mail again" for an account not yet confirmed. */
  confirmEmailAgain: { channel: 'email', values: ['link'] },
  /** Password recovery by phone: the code. */
  recoveryCode: { channel: 'sms', values: ['code'] },
  recoveryCodeTelegram: { channel: 'telegram', values: ['code'] },
  /** Password recovery by e-mail: the reset link. */
  recoveryLink: { channel: 'email', values: ['link'] },
  /** The owner hears of every password change. */
  passwordChanged: { channel: 'email', values: [] },
  /** Adding or changing the e-mail address: the link to the new address. */
  emailChangeConfirm: { channel: 'email', values: ['link'] },
  /** Changing the e-mail address: the notice to the old address. */
  emailChangeNotice: { channel: 'email', values: [] },
  /** Logins paused after wrong passwords: the unlock link, by e-mail or (no e-mail) by SMS. */
  unlockEmail: { channel: 'email', values: ['link'] },
  unlockSms: { channel: 'sms', values: ['link'] },
} as const satisfies Record<string, OutboxTemplate>

export type OutboxTemplateName = keyof typeof OUTBOX_TEMPLATES

/** The translation keys of a template: its body, and its subject when it is an e-mail. */
export function outboxKeys(name: OutboxTemplateName): { body: string; subject?: string } {
  const template: OutboxTemplate = OUTBOX_TEMPLATES[name]
  return { body: `outbox.${name}.body`, ...(template.channel === 'email' ? { subject: `outbox.${name}.subject` } : {}) }
}

/** `{{name}}` placeholders (i18next's syntax) filled from `values`; a name without a value throws
 * (a message with a leftover placeholder is never sent). */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_match, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(values, name)) throw new Error(`no value for {{${name}}}`)
    return values[name]
  })
}
