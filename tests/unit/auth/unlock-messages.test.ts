/**
 * Issue 9: the account-unlock message reaches its owner in the owner's language. Every locale a
 * site declares has its own subject, e-mail and SMS, each carrying the link; an unknown locale
 * falls back to English, and the owner's saved locale counts only where the site offers it.
 */
import { describe, expect, it } from 'vitest'
import { CONTENT_LOCALES } from '../../../server/content/texts'
import { ownerLocale, unlockMessage } from '../../../server/auth/unlock-messages'

const LINK = 'https://spain.localhost/mobile-gate/api/v1/auth/login/unlock?token=abc'

describe('the unlock message in the owner’s language', () => {
  it.each(CONTENT_LOCALES.filter((l) => l !== 'en'))('%s has its own subject, e-mail and SMS, each with the link once', (locale) => {
    const english = unlockMessage('en', LINK)
    const message = unlockMessage(locale, LINK)
    expect(message.subject).not.toBe(english.subject)
    expect(message.email).not.toBe(english.email)
    expect(message.sms).not.toBe(english.sms)
    for (const body of [message.email, message.sms]) {
      expect(body.split(LINK)).toHaveLength(2)
      expect(body).not.toContain('{link}')
    }
  })

  it('a locale no site declares gets English', () => {
    expect(unlockMessage('de', LINK)).toEqual(unlockMessage('en', LINK))
  })

  it("the owner's saved locale counts where the site offers it; otherwise the site's default", () => {
    const spain = { locales: ['es', 'en'], defaultLocale: 'es' }
    expect(ownerLocale('en', spain)).toBe('en')
    expect(ownerLocale('ru', spain)).toBe('es')
    expect(ownerLocale(undefined, spain)).toBe('es')
    expect(ownerLocale(42, spain)).toBe('es')
  })
})
