import { describe, expect, it } from 'vitest'
import { pagePathOf } from '../../../kernel/documents/page-path'

describe('the page a preview opens for a document', () => {
  it('a screen opens at its route, parameters filled so it loads', () => {
    expect(pagePathOf({ kind: 'screen', id: 'promotion', source: { route: '/promotions/:id' } })).toBe('/promotions/x')
  })
  it('a sign-up flow opens /join; another flow the page of the screen that shows it', () => {
    expect(pagePathOf({ kind: 'flow', id: 'signup-email', source: {} })).toBe('/join')
    expect(pagePathOf({ kind: 'flow', id: 'identity-passport', source: {} }, (needle) => (needle === '"flow":"identity-passport"' ? '/account/tsupis/identity' : undefined))).toBe('/account/tsupis/identity')
  })
  it('a promotion opens its own page; a quiz and a loyalty campaign their account pages', () => {
    expect(pagePathOf({ kind: 'promotion', id: 'casino-welcome-package', source: {} })).toBe('/promotions/casino-welcome-package')
    expect(pagePathOf({ kind: 'quiz', id: 'derby-winner', source: {} })).toBe('/account/quiz')
    expect(pagePathOf({ kind: 'loyalty-campaign', id: 'season-race', source: {} })).toBe('/account/loyalty')
  })
  it('a texts change opens where its first used key is shown; anything else the home page', () => {
    expect(pagePathOf({ kind: 'translations', id: 'es-promos', source: {} }, (needle) => (needle === '"promos.until"' ? '/promotions' : undefined), ['promos.none', 'promos.until'])).toBe('/promotions')
    expect(pagePathOf({ kind: 'popup', id: 'info', source: {} })).toBe('/')
  })
})
