/**
 * Cookie consent (spec §3 page settings: cookie name default 'ConsentCookie', expiry default 182
 * days). The punter's choice lives in that cookie; this store is its in-page view, so the banner,
 * the footer's "manage cookies" and (later) analytics all read one answer. One store per set of
 * engine stores, reached with `consentStore(stores)`. No DOM here: the browser passes a cookie jar.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CONSENT_CHOICES } from './action-choices'
import type { EngineStores } from './stores'

export const DEFAULT_CONSENT_COOKIE = 'ConsentCookie'
export const DEFAULT_CONSENT_EXPIRY_DAYS = 182
const DAY_SECONDS = 86_400

/** 'all': analytics and the like may run; 'necessary': only what the site needs to work. */
export type ConsentChoice = (typeof CONSENT_CHOICES)[number]
/**
 * The cookie's accepted values, keyed by the shared list's type: a choice added to
 * action-choices.ts fails to compile here until it is added. A type-only import on purpose: a
 * runtime import of action-choices from this module made the bundler split the lobby's entry into
 * five files (rolldown could no longer merge the modules shared with the lazy chunks into it).
 */
const KNOWN_CHOICES: Record<ConsentChoice, true> = { all: true, necessary: true }

export interface ConsentSettings {
  cookieName: string
  expiryDays: number
}

/** Reads and writes `document.cookie` (or a test double). */
export interface CookieJar {
  read(): string
  write(cookie: string): void
  /** Adds `Secure` to the cookie (pages served over https). */
  secure?: boolean
}

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

/** Untrusted settings (from a document) cleaned to usable values, spec defaults otherwise. */
export function consentSettings(input: Partial<ConsentSettings> | undefined): ConsentSettings {
  const name = input?.cookieName
  const days = input?.expiryDays
  return {
    cookieName: typeof name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(name) ? name : DEFAULT_CONSENT_COOKIE,
    expiryDays: typeof days === 'number' && Number.isInteger(days) && days > 0 && days <= 400 ? days : DEFAULT_CONSENT_EXPIRY_DAYS,
  }
}

/** The choice stored under `name` in a `document.cookie` string; anything unknown counts as none. */
export function readConsentCookie(cookies: string, name: string): ConsentChoice | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key !== name) continue
    const value = rest.join('=')
    return Object.prototype.hasOwnProperty.call(KNOWN_CHOICES, value) ? (value as ConsentChoice) : null
  }
  return null
}

/** The `document.cookie` assignment that stores a choice. */
export function consentCookie(choice: ConsentChoice, settings: ConsentSettings, secure = false): string {
  return `${settings.cookieName}=${choice}; Max-Age=${settings.expiryDays * DAY_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`
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
