import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createI18n } from '../../../engine/core/i18n'
import { emptyContext } from '../../../engine/core/context'
import { clearProblems, listProblems } from '../../../engine/core/report'
import { cel } from './helpers'

beforeEach(() => {
  clearProblems()
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

describe('i18n plurals through i18next (spec §1: plural rules for many languages)', () => {
  it('en uses one/other', () => {
    const i18n = createI18n({ locale: 'en', resources: { bets_one: '{{count}} bet', bets_other: '{{count}} bets' } })
    expect([0, 1, 2].map((count) => i18n.t('bets', { count }))).toEqual(['0 bets', '1 bet', '2 bets'])
  })

  it('ru needs one/few/many', () => {
    const i18n = createI18n({
      locale: 'ru',
      resources: { bets_one: '{{count}} ставка', bets_few: '{{count}} ставки', bets_many: '{{count}} ставок', bets_other: '{{count}} ставки' },
    })
    expect([1, 2, 5, 11, 21, 22, 25].map((count) => i18n.t('bets', { count }))).toEqual([
      '1 ставка',
      '2 ставки',
      '5 ставок',
      '11 ставок',
      '21 ставка',
      '22 ставки',
      '25 ставок',
    ])
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

  it('a missing key shows the key itself and is reported', () => {
    expect(i18n.translate('lobby.nope', emptyContext())).toBe('lobby.nope')
    expect(listProblems().at(-1)?.message).toContain('lobby.nope')
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
