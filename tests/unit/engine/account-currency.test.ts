/**
 * The account's currency everywhere (issue 28 item 6): a Curaçao punter who chose Euro at sign-up
 * saw $ (the site's default) while being charged EUR. Every amount a logged-in punter reads takes
 * its currency from the heartbeat's account (user.account.currency), never from the site, and a
 * text's `{{amount, currency}}` formats the amount with the text's own currency.
 */
import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../engine/core/context'
import { createI18n } from '../../../engine/core/i18n'
import { createEngineStores } from '../../../engine/core/stores'
import { siteBootstrap } from './helpers'

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

describe("user.currency is the account's currency, never the site's", () => {
  const curacao = () => createEngineStores({ site: siteBootstrap({ id: 'curacao', jurisdiction: 'curacao', currency: 'USD', locales: ['en'], defaultLocale: 'en' }) })

  it('a punter on a US-dollar site whose account is in euro reads EUR', () => {
    const stores = curacao()
    stores.user.getState().setUser({ user: { id: '1', account: { currency: 'EUR' } }, balanceInfo: { mainBalance: 150, withdrawable: 150 } })
    const ctx = buildContext(stores)
    expect(ctx.site.currency).toBe('USD')
    expect(ctx.user.currency).toBe('EUR')
  })

  it('user data without a currency shows amounts with no sign rather than the site default', () => {
    const stores = curacao()
    stores.user.getState().setUser({ user: { id: '1', account: {} }, balanceInfo: { mainBalance: 150 } })
    expect(buildContext(stores).user.currency).toBe('')
    stores.user.getState().setUser({ user: { id: '1', account: { currency: 'not a code' } } })
    expect(buildContext(stores).user.currency).toBe('')
  })

  it('a guest has no currency of their own', () => expect(buildContext(curacao()).user.currency).toBe(''))
})

describe('{{amount, currency}} in texts', () => {
  const i18n = (locale: string) => createI18n({ locale, resources: { paid: 'Paid {{amount, currency}}', range: 'From {{min, currency}} to {{max, currency}}' } })

  it.each([
    ['es', 'EUR', 2.5, 'Paid 2,50 €'],
    ['it', 'EUR', 2.5, 'Paid 2,50 €'],
    ['en', 'EUR', 2.5, 'Paid €2.50'],
    ['en', 'USD', 12345.6, 'Paid $12,345.60'],
    ['ru', 'RUB', 10000, 'Paid 10 000,00 ₽'],
  ])('%s %s %s → %s (Intl, spec §5 money)', (locale, currency, amount, expected) => {
    expect(plain(i18n(locale).t('paid', { amount, currency }))).toBe(expected)
  })

  it('without a currency the amount is a plain money amount; every placeholder of the text shares the currency', () => {
    expect(i18n('es').t('paid', { amount: 2.5 })).toBe('Paid 2,50')
    expect(plain(i18n('en').t('range', { min: 10, max: 5000, currency: 'EUR' }))).toBe('From €10.00 to €5000.00')
  })
})
