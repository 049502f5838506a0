/**
 * Cookie consent (spec §3 page settings: cookie name default 'ConsentCookie', expiry default 182
 * days). The punter's choice lives in that cookie; this store is its in-page view, so the banner,
 * the footer's "manage cookies" and (later) analytics all read one answer. One store per set of
 * engine stores, reached with `consentStore(stores)`. No DOM here: the browser passes a cookie jar.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { EngineStores } from './stores'

import { DEFAULT_CONSENT_COOKIE, DEFAULT_CONSENT_EXPIRY_DAYS, consentSettings, readConsentCookie, consentCookie, type ConsentChoice, type ConsentSettings, type CookieJar } from '../../kernel/core/consent-cookie'

export { DEFAULT_CONSENT_COOKIE, DEFAULT_CONSENT_EXPIRY_DAYS, consentSettings, readConsentCookie, consentCookie, type ConsentChoice, type ConsentSettings, type CookieJar }

export interface ConsentState {
  /** The punter's answer; null until one is made (or while the cookie is unread). */
  choice: ConsentChoice | null
  /** The cookie has been read: until then the banner stays away (no flash for returning punters). */
  loaded: boolean
  bannerOpen: boolean
  settings: ConsentSettings
  /** Reads the choice from the cookie; opens the banner when there is none. */
  load(jar: CookieJar, settings?: Partial<ConsentSettings>): void
  /** Stores the choice in the cookie for the configured days and closes the banner. */
  choose(choice: ConsentChoice): void
  /** Opens the banner again (footer "manage cookies"). */
  manage(): void
}

/** What a read of the cookie jar gives: the settings and the stored choice, if any. */
function readJar(jar: CookieJar, input: Partial<ConsentSettings> | undefined): { settings: ConsentSettings; choice: ConsentChoice | null } {
  const settings = consentSettings(input)
  try {
    return { settings, choice: readConsentCookie(jar.read(), settings.cookieName) }
  } catch {
    // cookies disabled: ask every time, remember nothing
    return { settings, choice: null }
  }
}

/** `loadedFrom`: the cookies already read when the store is made (the server's render of the
 * first screen: React reads a store's initial state there, so the banner must be in it). */
export function createConsentStore(loadedFrom?: { jar: CookieJar; settings?: Partial<ConsentSettings> }): StoreApi<ConsentState> {
  let jar: CookieJar | null = loadedFrom?.jar ?? null
  const loaded = loadedFrom ? readJar(loadedFrom.jar, loadedFrom.settings) : undefined
  return createStore<ConsentState>()((set, get) => ({
    choice: loaded?.choice ?? null,
    loaded: loaded !== undefined,
    bannerOpen: loaded !== undefined && loaded.choice === null,
    settings: loaded?.settings ?? consentSettings(undefined),
    load(nextJar, input) {
      jar = nextJar
      const { settings, choice } = readJar(nextJar, input)
      // re-reading (a new footer document) keeps an open banner open
      set({ settings, choice, loaded: true, bannerOpen: choice === null || get().bannerOpen })
    },
    choose(choice) {
      try {
        jar?.write(consentCookie(choice, get().settings, jar.secure))
      } catch {
        // cookies disabled: the choice holds for this page only
      }
      set({ choice, bannerOpen: false })
    },
    manage() {
      set({ bannerOpen: true })
    },
  }))
}

const stores = new WeakMap<EngineStores, StoreApi<ConsentState>>()

/** The page's consent store (one per set of engine stores). Analytics reads `choice === 'all'`. */
export function consentStore(engine: EngineStores, loadedFrom?: { jar: CookieJar; settings?: Partial<ConsentSettings> }): StoreApi<ConsentState> {
  let store = stores.get(engine)
  if (!store) {
    store = createConsentStore(loadedFrom)
    stores.set(engine, store)
  }
  return store
}

/** May analytics run? Only after an explicit "accept all". */
export const analyticsAllowed = (engine: EngineStores): boolean => consentStore(engine).getState().choice === 'all'
