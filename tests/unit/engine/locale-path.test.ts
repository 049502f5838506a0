import { describe, expect, it } from 'vitest'
import {
  analyticsSectionOf,
  defaultRoot,
  PRODUCT_ROOTS,
  rememberProduct,
  sectionOf,
  splitLocale,
  stripLocale,
  themeOf,
  withLocale,
} from '../../../kernel/core/locale-path'
import { memoryStorage } from './helpers'

const site = { defaultLocale: 'ru', locales: ['ru', 'en', 'be'] }

describe('spec §2: the optional 2–3 letter locale prefix', () => {
  it.each([
    ['/en/casino/lobby', { locale: 'en', path: '/casino/lobby' }],
    ['/en', { locale: 'en', path: '/' }],
    ['/en/', { locale: 'en', path: '/' }],
    ['/toto/correct-score', { locale: null, path: '/toto/correct-score' }],
    ['/faq', { locale: null, path: '/faq' }],
    ['/de/casino', { locale: null, path: '/de/casino' }],
    ['/', { locale: null, path: '/' }],
  ])('%s → %j (a prefix counts only if it is one of the site locales)', (pathname, expected) => expect(splitLocale(pathname, site.locales)).toEqual(expected))

  it('stored history keeps paths without the prefix', () => {
    expect(stripLocale('/be/account/settings', site.locales)).toBe('/account/settings')
  })

  it('the prefix is added when the current locale is not the default', () => {
    expect(withLocale('/casino/lobby', 'en', site)).toBe('/en/casino/lobby')
    expect(withLocale('/', 'en', site)).toBe('/en')
  })
  it('no prefix on the default locale with a bare URL', () => {
    expect(withLocale('/casino/lobby', 'ru', site, '/sport')).toBe('/casino/lobby')
  })
  it('the prefix stays when the current URL already carries one', () => {
    expect(withLocale('/casino/lobby', 'ru', site, '/ru/sport')).toBe('/ru/casino/lobby')
  })
  it('an already prefixed path is re-prefixed with the current locale', () => {
    expect(withLocale('/be/casino', 'en', site)).toBe('/en/casino')
  })
})

describe('spec §1/§2: sections, analytics sections and themes', () => {
  it.each([
    ['/casino/lobby', 'casino'],
    ['/live-casino/lobby', 'live-casino'],
    ['/livecasino/game/1', 'live-casino'],
    ['/live/popular', 'sport'],
    ['/sport/live/popular', 'sport'],
    ['/esports/live/all', 'esports'],
    ['/virtual-sports/lobby', 'virtual-sports'],
    ['/crash/lobby', 'crash'],
    ['/account/settings', 'account'],
    ['/contact-us', 'info'],
    ['/', 'sport'],
  ])('section of %s is %s', (path, section) => expect(sectionOf(path)).toBe(section))

  it.each([
    ['/casino/promotions', 'promotions'],
    ['/sport/results', 'results'],
    ['/statistics', 'statistic'],
    ['/account/loyalty', 'loyalty'],
    ['/account/offers', 'offers'],
    ['/account/settings', 'account'],
    ['/live-games/lobby', 'live-games'],
  ])('analytics section of %s is %s (promotions, statistic, results, left menu, loyalty, offers, account, else the product)', (path, section) =>
    expect(analyticsSectionOf(path)).toBe(section),
  )

  it.each([
    ['casino', 'dark'],
    ['live-casino', 'dark'],
    ['fast-games', 'dark'],
    ['mgames', 'dark'],
    ['live-games', 'lgames'],
    ['virtual-sports', 'vsports'],
    ['esports', 'esports'],
    ['sport', 'light'],
    ['toto', 'light'],
    ['account', 'light'],
  ])('theme of %s is %s', (section, theme) => expect(themeOf(section)).toBe(theme))
})

describe('spec §2: the default root depends on the last visited product', () => {
  it('goes to the last visited product lobby', () => {
    const storage = memoryStorage()
    rememberProduct('/live-games/lobby', storage)
    rememberProduct('/account/settings', storage) // not a product: ignored
    rememberProduct('/', storage) // the root only redirects: not a visit to sport
    rememberProduct('/ru', storage)
    expect(defaultRoot(storage, 'sport')).toBe('/live-games/lobby')
  })
  it('without a visit, the main product, else sport', () => {
    expect(defaultRoot(memoryStorage(), 'casino')).toBe('/casino/lobby')
    expect(defaultRoot(undefined)).toBe('/sport/live/popular')
  })
  it('knows every product route of the spec', () => {
    expect(PRODUCT_ROOTS).toMatchObject({
      toto: '/toto/correct-score',
      scores: '/scores',
      esports: '/esports/live/all',
      'fast-games': '/fast-games',
      mgames: '/mgames/lobby',
      crash: '/crash/lobby',
    })
  })
})
