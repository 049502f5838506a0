/**
 * The engine's state, split by concern (zustand vanilla stores, immutable updates). The
 * evaluation context is a read-only projection of these (see `./context`). No React here: the
 * renderers subscribe with zustand's `useStore`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SiteBootstrap } from '../../kernel/core/contracts'
import { emitTelemetry } from './telemetry'
import type { StorageLike } from '../../kernel/core/locale-path'
import { SERVER_SETTINGS_DEFAULTS } from '../../kernel/core/settings-defaults'
import type { NOTIFICATION_STATUSES, POPUP_ANIMATION_NAMES } from '../../kernel/core/action-choices'

export type { StorageLike }

/** What the stores need from the outside world; everything optional so tests pass `{}`. */
export interface EngineEnv {
  storage?: StorageLike
  now?: () => number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
  site?: SiteBootstrap
  locale?: string
}

/** Keys under which stores persist (spec §9 stored keys). */
export const STORAGE_KEYS = {
  session: 'session',
  sessionHash: 'sessionHash',
  localSettings: 'localSettings',
} as const

/** Notification default duration and profile close delay (spec §9). */
export const NOTIFICATION_DURATION_MS = 8000
export const PROFILE_CLOSE_DELAY_MS = 400

// ---------------------------------------------------------------- site
export interface SiteState {
  bootstrap: SiteBootstrap | null
  locale: string
  setBootstrap(bootstrap: SiteBootstrap): void
  setLocale(locale: string): void
}

// ---------------------------------------------------------------- session (spec §3)
export interface SessionFields {
  accessToken: string | null
  refreshToken: string | null
  creationTime: number | null
  loginTimeout: number | null
  expireTokenTime: number | null
  rememberMe: boolean
  isLoginByAuthToken: boolean
}
/**
 * Where the punter's session stands, for everything that shows punter parts (header, profile,
 * login-only screens):
 * - 'guest': no session;
 * - 'restoring': a session is held but its user data (heartbeat) is not loaded yet — after a page
 *   load, a login, or a login adopted from another tab. Punter parts show a loading state, never
 *   the guest state nor an empty name / 0.00;
 * - 'punter': the session is live and the user data is loaded.
 */
export type SessionStatus = 'restoring' | 'guest' | 'punter'
export interface SessionState extends SessionFields {
  sessionHash: string | null
  status: SessionStatus
  setSession(fields: Partial<SessionFields>): void
  setSessionHash(hash: string | null): void
  setStatus(status: SessionStatus): void
  /** Clears tokens and hash; status back to 'guest'. */
  clearSession(): void
}
const EMPTY_SESSION: SessionFields = {
  accessToken: null,
  refreshToken: null,
  creationTime: null,
  loginTimeout: null,
  expireTokenTime: null,
  rememberMe: false,
  isLoginByAuthToken: false,
}
/** A punter is logged in while an access token is held. */
export const isLoggedIn = (session: Pick<SessionFields, 'accessToken'>): boolean => Boolean(session.accessToken)

/** The session as every tab of the browser shares it (storage is the source of truth). */
export interface StoredSession extends Partial<SessionFields> {
  sessionHash: string | null
}

/** Reads the shared session from storage; null when there is none (or it is unreadable). */
export function readStoredSession(storage: StorageLike | undefined): StoredSession | null {
  const fields = readJson<Partial<SessionFields>>(storage, STORAGE_KEYS.session)
  if (!fields || typeof fields !== 'object' || (!fields.accessToken && !fields.refreshToken)) return null
  return { ...pick(fields as SessionFields, Object.keys(EMPTY_SESSION) as (keyof SessionFields)[]), sessionHash: readJson<string>(storage, STORAGE_KEYS.sessionHash) }
}

// ---------------------------------------------------------------- user (heartbeat, spec §3)
/** Heartbeat user data as the gateway sends it; only the parts the engine reads are typed. */
export interface UserData {
  user?: { id?: string | number; account?: Record<string, unknown>; [key: string]: unknown }
  balanceInfo?: { mainBalance?: number; withdrawable?: number; currency?: string; [key: string]: unknown }
  bonusInfo?: Record<string, unknown>
  punterInfo?: {
    state?: string
    details?: { firstName?: string; nickname?: string; phoneInfo?: unknown; address?: { countryId?: number | string; countryCode?: string } }
    [key: string]: unknown
  }
  settings?: Record<string, unknown>
  loyaltyAccountInfo?: Record<string, unknown>
  selfExcludeSettings?: Record<string, unknown>
  punterIdentityState?: string
  legalAgreementAccepted?: boolean
  punterToken?: string
  firstDepositDate?: string | null
  vip?: boolean
  [key: string]: unknown
}
export interface UserState {
  data: UserData | null
  setUser(data: UserData | null): void
  clearUser(): void
}

// ---------------------------------------------------------------- settings (spec §3, §9)
export interface ServerSettings {
  noEmailCorrespondence: boolean
  termsAgreement: boolean
  locale: string
  oddsType: string
  betPlacingMode: string
  priceChangeNotificationViewType: string
  standbyTimeoutMillis: number
  timeZoneId: number
  showCurrentBalance: boolean
  currencyId: number
  showVipStatusAppIcon: boolean
  showVipStatusAvatar: boolean
}
export interface LocalSettings {
  winningAndLosingBets: boolean
  timeZoneAutoDetect: boolean
  isAnimationsActive: boolean
  cashOutAutoConfirmationType: 'INCREASE' | 'ALWAYS' | 'NEVER'
  isCashOutDelayActive: boolean
  isQuickBetEnable: boolean
  quickBetAmount: number
  isCashOutConfirmationActive: boolean
  autoDetectedTimezone: string | null
  autoDetectedCurrency: string
  wasUserChangedSettingsManually: boolean
}
/** Spec §9 defaults, the server's own list (kernel/core/settings-defaults.ts), in the page's locale. */
export const defaultServerSettings = (locale = 'en'): ServerSettings => ({ ...SERVER_SETTINGS_DEFAULTS, locale })
/** Spec §9 defaults: quick bet 0, cash-out auto confirmation never, auto-detected currency USD. */
export const defaultLocalSettings = (): LocalSettings => ({
  winningAndLosingBets: false,
  timeZoneAutoDetect: true,
  isAnimationsActive: true,
  cashOutAutoConfirmationType: 'NEVER',
  isCashOutDelayActive: false,
  isQuickBetEnable: false,
  quickBetAmount: 0,
  isCashOutConfirmationActive: false,
  autoDetectedTimezone: null,
  autoDetectedCurrency: 'USD',
  wasUserChangedSettingsManually: false,
})
export interface SettingsState {
  server: ServerSettings
  local: LocalSettings
  setServerSettings(values: Partial<ServerSettings>): void
  setLocalSettings(values: Partial<LocalSettings>): void
  resetSettings(): void
}

// ---------------------------------------------------------------- ui (spec §3 Popup, Notification)
export type PopupAnimation = (typeof POPUP_ANIMATION_NAMES)[number]
export interface Popup {
  /** The popup document id. */
  id: string
  /** Modal kind; 'default' until the renderer has the document. */
  type: string
  /** true: opens above the current popups; false: replaces them. */
  stack: boolean
  params: Record<string, unknown>
  isCloseable: boolean
  isFrozen: boolean
  animation?: PopupAnimation
}
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number]
export interface Notification {
  uid: string
  /** The i18n key shown. */
  id: string
  duration: number
  status: NotificationStatus
  values?: Record<string, unknown>
}
export interface UiState {
  popups: Popup[]
  notifications: Notification[]
  leftMenuOpen: boolean
  profileOpen: boolean
  /** Pushes a popup (or replaces the stack when `stack` is false). Re-opening an open id moves it on top. */
  openPopup(popup: Pick<Popup, 'id'> & Partial<Omit<Popup, 'id'>>): void
  /** Closes the top popup, or the popup with this id. */
  closePopup(id?: string): void
  closeAllPopups(): void
  /** Shows a notification; removed after its duration (default 8000 ms). Returns its uid. */
  notify(notification: Pick<Notification, 'id' | 'status'> & Partial<Pick<Notification, 'duration' | 'values'>>): string
  dismissNotification(uid: string): void
  setLeftMenu(open: boolean): void
  toggleLeftMenu(): void
  openProfile(): void
  /** Closes the profile panel after 400 ms (spec §9), so its closing animation can run. */
  closeProfile(): void
}

// ---------------------------------------------------------------- route, data, flags
export interface RouteState {
  path: string
  section: string
  params: Record<string, string>
  query: Record<string, string>
  setRoute(route: Partial<Pick<RouteState, 'path' | 'section' | 'params' | 'query'>>): void
}
export interface ScreenDataState {
  data: Record<string, unknown>
  setData(name: string, value: unknown): void
  clearData(): void
}
export interface RecordState {
  values: Record<string, unknown>
  /** The values have been set once (the experiment client answered, or said it has none). */
  loaded: boolean
  setValues(values: Record<string, unknown>): void
  setValue(name: string, value: unknown): void
}

export interface EngineStores {
  site: StoreApi<SiteState>
  session: StoreApi<SessionState>
  user: StoreApi<UserState>
  settings: StoreApi<SettingsState>
  ui: StoreApi<UiState>
  route: StoreApi<RouteState>
  screenData: StoreApi<ScreenDataState>
  flags: StoreApi<RecordState>
  experiments: StoreApi<RecordState>
}

function readJson<T>(storage: StorageLike | undefined, key: string): T | null {
  try {
    const raw = storage?.getItem(key)
    return raw ? (JSON.parse(raw) as T) : null
  } catch {
    return null
  }
}
function writeJson(storage: StorageLike | undefined, key: string, value: unknown): void {
  try {
    if (value === null) storage?.removeItem(key)
    else storage?.setItem(key, JSON.stringify(value))
  } catch {
    // storage full or disabled (private mode): state lives in memory only
  }
}

/**
 * `patch` if it changes anything in `state`, else `state` itself: zustand then notifies no one, as
 * an update that changes nothing did when the stores used immer (the lobby's first load is 4 KB
 * lighter without it, issue 18).
 */
function changed<T extends object>(state: T, patch: Partial<T>): T | Partial<T> {
  for (const key of Object.keys(patch) as (keyof T)[]) if (!Object.is(state[key], patch[key])) return patch
  return state
}

/**
 * `object` with `values` over it, as a new object, when they change anything; else `object` itself,
 * so the store's nested part keeps its identity and an update that changes nothing notifies no one.
 */
function patchIfChanged<T extends object>(object: T, values: Partial<T>): T {
  return changed(object, values) === object ? object : { ...object, ...values }
}

/** The listed keys that `source` actually has (stored data may be partial or from an older version). */
const pick = <T extends object>(source: T, keys: (keyof T)[]): Partial<T> =>
  Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]])) as Partial<T>

function recordStore() {
  return createStore<RecordState>()(
    (set) => ({
      values: {},
      loaded: false,
      setValues: (values) => set({ values: { ...values }, loaded: true }),
      setValue: (name, value) => set((s) => (Object.is(s.values[name], value) ? s : { values: { ...s.values, [name]: value } })),
    }),
  )
}

function siteStore(env: EngineEnv, initialLocale: string): StoreApi<SiteState> {
  return createStore<SiteState>()(
    (set) => ({
      bootstrap: env.site ?? null,
      locale: initialLocale,
      setBootstrap: (bootstrap) => set({ bootstrap }),
      setLocale: (locale) => set({ locale }),
    }),
  )
}

/** The session, starting from the one stored (status 'restoring' then), written back on every change. */
function sessionStore(storage: StorageLike | undefined): StoreApi<SessionState> {
  const storedSession = readStoredSession(storage)
  const session = createStore<SessionState>()(
    (set) => ({
      ...EMPTY_SESSION,
      sessionHash: null,
      ...(storedSession ?? {}),
      // a stored session is 'restoring' until the auth controller has loaded its user data
      status: storedSession ? 'restoring' : 'guest',
      setSession: (fields) => set((s) => changed(s, fields)),
      setSessionHash: (sessionHash) => set((s) => changed(s, { sessionHash })),
      setStatus: (status) => set((s) => changed(s, { status })),
      clearSession: () => set((s) => changed<SessionState>(s, { ...EMPTY_SESSION, sessionHash: null, status: 'guest' })),
    }),
  )
  // The tokens and the session hash are written together, always: writing the hash only when it
  // changed let storage cleared under a live page come back with tokens and no hash, which the
  // next page load read as a session the server rejects (INVALID_SESSION_HASH → session expired).
  session.subscribe((state) => {
    const fields = pick(state as SessionFields, Object.keys(EMPTY_SESSION) as (keyof SessionFields)[])
    const held = Boolean(state.accessToken || state.refreshToken)
    writeJson(storage, STORAGE_KEYS.session, held ? fields : null)
    writeJson(storage, STORAGE_KEYS.sessionHash, held ? state.sessionHash : null)
  })
  return session
}

function userStore(): StoreApi<UserState> {
  return createStore<UserState>()(
    (set) => ({
      data: null,
      setUser: (data) => set({ data }),
      clearUser: () => set({ data: null }),
    }),
  )
}

/** Server settings at their defaults in the page's locale (reset to the site's locale then); local
 * settings from storage over their defaults, written back when they change. */
function settingsStore(storage: StorageLike | undefined, initialLocale: string, site: StoreApi<SiteState>): StoreApi<SettingsState> {
  const storedLocal = readJson<Partial<LocalSettings>>(storage, STORAGE_KEYS.localSettings) ?? {}
  const localDefaults = defaultLocalSettings()
  const settings = createStore<SettingsState>()(
    (set) => ({
      server: defaultServerSettings(initialLocale),
      local: { ...localDefaults, ...pick(storedLocal as LocalSettings, Object.keys(localDefaults) as (keyof LocalSettings)[]) },
      setServerSettings: (values) => set((s) => changed(s, { server: patchIfChanged(s.server, values) })),
      setLocalSettings: (values) => set((s) => changed(s, { local: patchIfChanged(s.local, values) })),
      resetSettings: () => set({ server: defaultServerSettings(site.getState().locale), local: defaultLocalSettings() }),
    }),
  )
  settings.subscribe((state, previous) => {
    if (state.local !== previous.local) writeJson(storage, STORAGE_KEYS.localSettings, state.local)
  })
  return settings
}

type Schedule = (fn: () => void, ms: number) => unknown

/** Popups, notifications (each dismissed after its duration) and the menus; the profile closes after PROFILE_CLOSE_DELAY_MS. */
function uiStore(schedule: Schedule, cancel: (handle: unknown) => void): StoreApi<UiState> {
  let notificationSeq = 0
  let profileTimer: unknown = null
  const notificationTimers = new Map<string, unknown>()
  return createStore<UiState>()(
    (set, get) => ({
      popups: [],
      notifications: [],
      leftMenuOpen: false,
      profileOpen: false,
      openPopup: (popup) => {
        emitTelemetry({ type: 'popup', id: popup.id })
        set((s) => {
          const entry: Popup = {
            type: 'default',
            stack: true,
            params: {},
            isCloseable: true,
            isFrozen: false,
            ...popup,
          }
          const others = entry.stack ? s.popups.filter((p) => p.id !== entry.id) : []
          return { popups: [...others, entry] }
        })
      },
      closePopup: (id) =>
        set((s) => {
          const popups = id === undefined ? s.popups.slice(0, -1) : s.popups.filter((p) => p.id !== id)
          return popups.length === s.popups.length ? s : { popups }
        }),
      closeAllPopups: () => set((s) => (s.popups.length === 0 ? s : { popups: [] })),
      notify: (notification) => {
        const uid = `n${++notificationSeq}`
        const duration = notification.duration ?? NOTIFICATION_DURATION_MS
        set((s) => ({ notifications: [...s.notifications, { ...notification, uid, duration }] }))
        if (duration > 0) notificationTimers.set(uid, schedule(() => get().dismissNotification(uid), duration))
        return uid
      },
      dismissNotification: (uid) => {
        const timer = notificationTimers.get(uid)
        if (timer !== undefined) cancel(timer)
        notificationTimers.delete(uid)
        set((s) => {
          const notifications = s.notifications.filter((n) => n.uid !== uid)
          return notifications.length === s.notifications.length ? s : { notifications }
        })
      },
      setLeftMenu: (leftMenuOpen) => set((s) => changed(s, { leftMenuOpen })),
      toggleLeftMenu: () => set((s) => ({ leftMenuOpen: !s.leftMenuOpen })),
      openProfile: () => {
        if (profileTimer !== null) cancel(profileTimer)
        profileTimer = null
        set((s) => changed(s, { profileOpen: true }))
      },
      closeProfile: () => {
        if (profileTimer !== null) cancel(profileTimer)
        profileTimer = schedule(() => {
          profileTimer = null
          set((s) => changed(s, { profileOpen: false }))
        }, PROFILE_CLOSE_DELAY_MS)
      },
    }),
  )
}

function routeStore(): StoreApi<RouteState> {
  return createStore<RouteState>()(
    (set) => ({
      path: '/',
      section: 'sport',
      params: {},
      query: {},
      setRoute: (next) => set((s) => changed(s, next)),
    }),
  )
}

function screenDataStore(): StoreApi<ScreenDataState> {
  return createStore<ScreenDataState>()(
    (set) => ({
      data: {},
      setData: (name, value) => set((s) => (Object.is(s.data[name], value) ? s : { data: { ...s.data, [name]: value } })),
      clearData: () => set((s) => (Object.keys(s.data).length === 0 ? s : { data: {} })),
    }),
  )
}

/** Creates a fresh, independent set of stores (one per page; tests make their own). Session and
 * local settings are read from and written to `env.storage` when given. */
export function createEngineStores(env: EngineEnv = {}): EngineStores {
  const { storage } = env
  const schedule = env.setTimeout ?? ((fn: () => void, ms: number) => globalThis.setTimeout(fn, ms))
  const cancel = env.clearTimeout ?? ((handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>))
  const initialLocale = env.locale ?? env.site?.site.defaultLocale ?? 'en'
  const site = siteStore(env, initialLocale)
  return {
    site,
    session: sessionStore(storage),
    user: userStore(),
    settings: settingsStore(storage, initialLocale, site),
    ui: uiStore(schedule, cancel),
    route: routeStore(),
    screenData: screenDataStore(),
    flags: recordStore(),
    experiments: recordStore(),
  }
}
