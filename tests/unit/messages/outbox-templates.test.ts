/**
 * Issue 34 item 2, the composing rules on their own: a placeholder without a value throws (a
 * message with a leftover `{{…}}` is never sent), and the owner's language is their saved locale
 * only where their site offers it, else the site's default (the unlock rule of issue 9, kept).
 */
import { describe, expect, it } from 'vitest'
import { fillPlaceholders, OUTBOX_TEMPLATES, outboxKeys } from '../../../kernel/messages/outbox-templates'
import { punterLocale } from '../../../server/signup/message-texts'

describe('templates', () => {
  it('fills every placeholder, with or without inner spaces, and throws on one it has no value for', () => {
    expect(fillPlaceholders('code {{code}} / {{ code }}', { code: '123456' })).toBe('code 123456 / 123456')
    expect(() => fillPlaceholders('open {{link}}', { code: '1' })).toThrow('no value for {{link}}')
    expect(() => fillPlaceholders('open {{toString}}', {})).toThrow()
  })

  it('an e-mail template has a subject key, an SMS template none', () => {
    for (const [name, template] of Object.entries(OUTBOX_TEMPLATES))
      expect(outboxKeys(name as keyof typeof OUTBOX_TEMPLATES)).toEqual(template.channel === 'email' ? { body: `outbox.${name}.body`, subject: `outbox.${name}.subject` } : { body: `outbox.${name}.body` })
  })
})

describe("the owner's language", () => {
  it("is the saved locale where the site offers it; otherwise the site's default", () => {
    const spain = { locales: ['es', 'en'], defaultLocale: 'es' }
    expect(punterLocale('en', spain)).toBe('en')
    expect(punterLocale('ru', spain)).toBe('es')
    expect(punterLocale(undefined, spain)).toBe('es')
    expect(punterLocale(42, spain)).toBe('es')
  })
})
