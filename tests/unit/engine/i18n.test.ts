/**
 * i18n (engine/core/i18n.ts): fallback order and reporting, plural forms per locale, dates,
 * percentages and placeholders in texts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createI18n, fallbackChain } from '../../../engine/core/i18n'
import { emptyContext } from '../../../engine/core/context'
import { clearProblems, listProblems } from '../../../engine/core/report'
import { cel } from './helpers'

beforeEach(() => {
  clearProblems()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

const messages = () => listProblems().map((p) => p.message)

describe('a missing key falls back to the site default, then English, never to the key', () => {
  const belarusPage = () =>
    createI18n({
      locale: 'be',
      fallbackLocale: 'ru',
      resources: { 'a.both': 'be: both' },
      fallbacks: { ru: { 'a.ruOnly': 'ru: only', 'a.inRuAndEn': 'ru: first' }, en: { 'a.enOnly': 'en: only', 'a.inRuAndEn': 'en: second' } },
    })

  it('the chain is the site default, then en, without the locale itself', () => {
    expect(fallbackChain('be', 'ru')).toEqual(['ru', 'en'])
    expect(fallbackChain('es', 'en')).toEqual(['en'])
    expect(fallbackChain('en', 'en')).toEqual([])
  })

  it('the locale first, then the default locale, then English', () => {
    const i18n = belarusPage()
    expect(i18n.t('a.both')).toBe('be: both')
    expect(i18n.t('a.ruOnly')).toBe('ru: only')
    expect(i18n.t('a.inRuAndEn')).toBe('ru: first')
    expect(i18n.t('a.enOnly')).toBe('en: only')
  })

  it('a key missing everywhere shows nothing rather than the key, and is reported', () => {
    const i18n = belarusPage()
    expect(i18n.t('a.nowhere')).toBe('')
    expect(messages()).toContain('missing translation: a.nowhere (be and its fallbacks)')
    expect(i18n.has('a.nowhere')).toBe(false)
    expect(i18n.has('a.enOnly')).toBe(true)
  })

  it('each fallback is reported once, naming the locale that supplied the text', () => {
    const i18n = belarusPage()
    i18n.t('a.ruOnly')
    i18n.t('a.ruOnly')
    i18n.t('a.enOnly')
    i18n.t('a.both')
    expect(messages()).toEqual(['translation fallback: a.ruOnly (be → ru)', 'translation fallback: a.enOnly (be → en)'])
  })

  it('a fallback text keeps the plural rules of its own locale', () => {
    const i18n = createI18n({ locale: 'be', fallbackLocale: 'ru', fallbacks: { en: { bets_one: '{{count}} bet', bets_other: '{{count}} bets' } } })
    expect([1, 5, 21].map((count) => i18n.t('bets', { count }))).toEqual(['1 bet', '5 bets', '21 bets'])
  })

  it('a changed bundle replaces the old one: a removed key falls back instead of lingering', () => {
    const i18n = belarusPage()
    i18n.setResources('be', { 'a.other': 'be: other' }, { en: { 'a.both': 'en: both' } })
    expect(i18n.t('a.both')).toBe('en: both')
    expect(i18n.t('a.ruOnly')).toBe('')
  })
})

describe('plural forms by Intl.PluralRules of the locale, for every site locale', () => {
  const forms = {
    en: { bets_one: '{{count}} bet', bets_other: '{{count}} bets' },
    da: { bets_one: '{{count}} væddemål', bets_other: '{{count}} væddemål i alt' },
    ru: { bets_one: '{{count}} ставка', bets_few: '{{count}} ставки', bets_many: '{{count}} ставок', bets_other: '{{count}} ставки' },
    be: { bets_one: '{{count}} стаўка', bets_few: '{{count}} стаўкі', bets_many: '{{count}} ставак', bets_other: '{{count}} стаўкі' },
    es: { bets_one: '{{count}} apuesta', bets_many: '{{count}} de apuestas', bets_other: '{{count}} apuestas' },
    it: { bets_one: '{{count}} scommessa', bets_many: '{{count}} di scommesse', bets_other: '{{count}} scommesse' },
    pt: { bets_one: '{{count}} aposta', bets_many: '{{count}} de apostas', bets_other: '{{count}} apostas' },
  } as const
  const say = (locale: keyof typeof forms, counts: number[]) => {
    const i18n = createI18n({ locale, resources: { ...forms[locale] } })
    return counts.map((count) => i18n.t('bets', { count }))
  }

  it('en and da use one/other', () => {
    expect(say('en', [0, 1, 2])).toEqual(['0 bets', '1 bet', '2 bets'])
    expect(say('da', [0, 1, 2])).toEqual(['0 væddemål i alt', '1 væddemål', '2 væddemål i alt'])
  })

  it('ru and be need one/few/many (21 is one, 22 few, 11 and 25 many)', () => {
    expect(say('ru', [1, 2, 5, 11, 21, 22, 25])).toEqual(['1 ставка', '2 ставки', '5 ставок', '11 ставок', '21 ставка', '22 ставки', '25 ставок'])
    expect(say('be', [1, 2, 5, 11, 21, 22, 25])).toEqual(['1 стаўка', '2 стаўкі', '5 ставак', '11 ставак', '21 стаўка', '22 стаўкі', '25 ставак'])
  })

  it('es, it and pt use one/other, and many at a million', () => {
    expect(say('es', [1, 2, 1_000_000])).toEqual(['1 apuesta', '2 apuestas', '1000000 de apuestas'])
    expect(say('it', [1, 2, 1_000_000])).toEqual(['1 scommessa', '2 scommesse', '1000000 di scommesse'])
    expect(say('pt', [0, 1, 2, 1_000_000])).toEqual(['0 aposta', '1 aposta', '2 apostas', '1000000 de apostas'])
  })
})

describe('dates and placeholders in texts', () => {
  it("{{x, datetime}} shows an ISO date as 'D MMM YYYY HH:mm' in the page's locale", () => {
    const text = { denied: 'until {{disabledUntil, datetime}}' }
    const at = '2026-03-05T07:08:00.000Z'
    expect(createI18n({ locale: 'en', resources: text, timeZone: 'UTC' }).t('denied', { disabledUntil: at })).toBe('until 5 Mar 2026 07:08')
    expect(createI18n({ locale: 'ru', resources: text, timeZone: 'UTC' }).t('denied', { disabledUntil: at })).toBe('until 5 мар. 2026 07:08')
    expect(createI18n({ locale: 'da', resources: text, timeZone: 'Europe/Copenhagen' }).t('denied', { disabledUntil: at })).toBe('until 5 mar. 2026 08:08')
  })

  it('{{x, percent}} writes a number of percent with 2 decimals as the locale does (a return to player)', () => {
    const text = { rtp: 'RTP {{returnToPlayer, percent}}' }
    const t = (locale: string, value: unknown) => createI18n({ locale, resources: text }).t('rtp', { returnToPlayer: value })
    expect(t('en', 96.5)).toBe('RTP 96.50%')
    expect(t('es', 96.5)).toBe('RTP 96,50\u00a0%')
    expect(t('da', 94.5)).toBe('RTP 94,50\u00a0%')
    expect(t('en', 'lots')).toBe('RTP ')
  })

  it('a placeholder no caller filled shows as nothing, never as a literal {{name}}, and is reported', () => {
    const i18n = createI18n({ locale: 'en', resources: { denied: 'Not before {{disabledUntil}}.' } })
    expect(i18n.t('denied')).toBe('Not before .')
    expect(messages()).toContain('unfilled placeholder {{disabledUntil}} (en)')
  })
})

describe('translate(Text, ctx)', () => {
  const i18n = createI18n({
    locale: 'en',
    resources: { 'lobby.hello': 'Hello, {{name}}', 'lobby.games_one': '{{count}} game', 'lobby.games_other': '{{count}} games', 'a.b': 'dotted key' },
  })

  it('a plain key', () => expect(i18n.translate('a.b', emptyContext())).toBe('dotted key'))

  it('resolves bindings in values and count', () => {
    const ctx = { ...emptyContext(), data: { games: [1, 2, 3] }, site: { ...emptyContext().site, jurisdiction: 'spain' } }
    expect(i18n.translate({ key: 'lobby.hello', values: { name: { $: cel('site.jurisdiction') } } }, ctx)).toBe('Hello, spain')
    expect(i18n.translate({ key: 'lobby.games', count: { $: cel('size(data.games)') } }, ctx)).toBe('3 games')
    expect(i18n.translate({ key: 'lobby.games', count: 1 }, ctx)).toBe('1 game')
  })

  it('has() knows plural keys; setResources adds a locale and setLocale switches to it', () => {
    expect(i18n.has('lobby.games')).toBe(true)
    expect(i18n.has('lobby.nope')).toBe(false)
    i18n.setResources('ru', { 'a.b': 'ключ' })
    i18n.setLocale('ru')
    expect(i18n.locale()).toBe('ru')
    expect(i18n.t('a.b')).toBe('ключ')
  })
})
