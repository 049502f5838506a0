/**
 * Cookie consent (spec §3 page settings: cookie 'ConsentCookie' by default, kept 182 days by
 * default): the store reads the choice from the cookie, writes it back with the expiry, reopens
 * for "manage cookies", and treats anything it does not recognise as no choice.
 */
import { describe, expect, it } from 'vitest'
import { consentCookie, consentSettings, consentStore, createConsentStore, readConsentCookie, type CookieJar } from '../../../engine/core/consent'
import { createEngineStores } from '../../../engine/core/stores'

function jar(initial = ''): CookieJar & { written: string[] } {
  const written: string[] = []
  return { read: () => initial, write: (cookie) => void written.push(cookie), written }
}

describe('cookie consent', () => {
  it('a first visit (no cookie) opens the banner; a stored choice keeps it closed', () => {
    const first = createConsentStore()
    first.getState().load(jar('other=1'))
    expect(first.getState()).toMatchObject({ loaded: true, choice: null, bannerOpen: true })
    const returning = createConsentStore()
    returning.getState().load(jar('a=b; ConsentCookie=necessary; c=d'))
    expect(returning.getState()).toMatchObject({ choice: 'necessary', bannerOpen: false })
  })

  it('the banner stays away until the cookie has been read (no flash for a returning punter)', () => {
    expect(createConsentStore().getState()).toMatchObject({ loaded: false, bannerOpen: false })
  })

  it('a store made from cookies already read starts loaded: the server’s first screen has the banner in its initial state', () => {
    // React's server render reads a store's initial state (useSyncExternalStore's server snapshot)
    const first = createConsentStore({ jar: jar('other=1') })
    expect(first.getInitialState()).toMatchObject({ loaded: true, choice: null, bannerOpen: true })
    const renamed = createConsentStore({ jar: jar('Mine=all'), settings: { cookieName: 'Mine' } })
    expect(renamed.getInitialState()).toMatchObject({ loaded: true, choice: 'all', bannerOpen: false })
    // the first store made for a set of engine stores is the one every later call gets
    const engine = createEngineStores()
    expect(consentStore(engine, { jar: jar('') }).getState().bannerOpen).toBe(true)
    expect(consentStore(engine)).toBe(consentStore(engine, { jar: jar('ConsentCookie=all') }))
  })

  it('a choice is written to ConsentCookie for 182 days (15 724 800 s) and closes the banner', () => {
    const store = createConsentStore()
    const cookies = jar()
    store.getState().load(cookies)
    store.getState().choose('all')
    expect(cookies.written).toEqual(['ConsentCookie=all; Max-Age=15724800; Path=/; SameSite=Lax'])
    expect(store.getState()).toMatchObject({ choice: 'all', bannerOpen: false })
  })

  it('the page settings may rename the cookie and change its expiry; https adds Secure', () => {
    const store = createConsentStore()
    const cookies = { ...jar('SiteConsent=all'), secure: true }
    store.getState().load(cookies, { cookieName: 'SiteConsent', expiryDays: 30 })
    expect(store.getState().choice).toBe('all')
    store.getState().choose('necessary')
    expect(cookies.written).toEqual(['SiteConsent=necessary; Max-Age=2592000; Path=/; SameSite=Lax; Secure'])
  })

  it('"manage cookies" reopens the banner over an earlier choice', () => {
    const store = createConsentStore()
    store.getState().load(jar('ConsentCookie=all'))
    store.getState().manage()
    expect(store.getState()).toMatchObject({ bannerOpen: true, choice: 'all' })
  })

  it('an unknown cookie value or unusable settings fall back to no choice and the spec defaults', () => {
    expect(readConsentCookie('ConsentCookie=yes-please', 'ConsentCookie')).toBeNull()
    expect(consentSettings({ cookieName: 'bad name;', expiryDays: -3 })).toEqual({ cookieName: 'ConsentCookie', expiryDays: 182 })
    expect(consentSettings({ expiryDays: 1.5 }).expiryDays).toBe(182)
    expect(consentCookie('all', consentSettings(undefined))).toContain('Max-Age=15724800')
  })

  it('cookies the browser refuses never break the page: the choice holds for this page', () => {
    const store = createConsentStore()
    const broken: CookieJar = {
      read: () => {
        throw new Error('SecurityError')
      },
      write: () => {
        throw new Error('SecurityError')
      },
    }
    store.getState().load(broken)
    expect(store.getState().bannerOpen).toBe(true)
    store.getState().choose('necessary')
    expect(store.getState()).toMatchObject({ choice: 'necessary', bannerOpen: false })
  })

  it('one consent store per page (per set of engine stores), so analytics reads the same answer', () => {
    const stores = createEngineStores()
    expect(consentStore(stores)).toBe(consentStore(stores))
    expect(consentStore(createEngineStores())).not.toBe(consentStore(stores))
  })
})
