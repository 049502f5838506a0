/**
 * One punter session shared by every tab of the browser (issue 9 item 2).
 *
 * Why: the session lives in localStorage, so every tab holds the same refresh token. Refresh
 * tokens rotate and the server treats a used token presented again as theft (it revokes the whole
 * family), so two tabs must never both refresh with the same token. Storage stays the one source
 * of truth; on top of it:
 * - a cross-tab lock (Web Locks API) around every refresh: the tab that gets the lock second
 *   re-reads storage, sees the token already rotated and adopts it instead of calling;
 * - a channel (BroadcastChannel, else storage events) that tells the other tabs "the session
 *   changed" (login, refresh) or "logged out, with this reason", so they follow at once;
 * - a 'wake' hint when a tab becomes visible again (its timers may have slept).
 * Framework-free: the primitives are injected, so unit tests run two "tabs" on one memory storage.
 */
import { readStoredSession, STORAGE_KEYS, type EngineStores, type StorageLike, type StoredSession } from '../core/stores'

export type SessionMessage = { kind: 'session' } | { kind: 'logout'; reason: string } | { kind: 'wake' }

export interface SessionTabs {
  /** Runs `task` while no other tab (and no other caller here) holds the session lock. */
  withLock<T>(task: () => Promise<T>): Promise<T>
  /** Tells the other tabs (never this one) that the shared session changed. */
  post(message: SessionMessage): void
  /** Messages from the other tabs; returns unsubscribe. */
  subscribe(listener: (message: SessionMessage) => void): () => void
  /** The session as all tabs share it; null when there is none. */
  read(): StoredSession | null
}

/** What the page (browser runtime) provides for its stores' auth controller. */
export interface SessionServices {
  tabs?: SessionTabs
  /** After a page load: follows the punter's server-side locale; true when the page reloads for it. */
  restoreLocale?: (serverLocale: string) => boolean
  /** After a login: switches to the punter's server-side locale the way the language page does
   * (a reload on the localised path); true when the page reloads for it. */
  loginLocale?: (serverLocale: string) => boolean
  /** After that reload: true once when the login's after-login rules are still to run. */
  takePendingAfterLogin?: () => boolean
}
const servicesByStores = new WeakMap<EngineStores, SessionServices>()

/** The browser runtime registers its tabs and locale rule here; the auth controller created for
 * these stores (by the actions, on first use, in a lazy chunk) picks them up. */
export function provideSessionServices(stores: EngineStores, services: SessionServices): void {
  servicesByStores.set(stores, services)
}
export const sessionServicesOf = (stores: EngineStores): SessionServices => servicesByStores.get(stores) ?? {}

export interface SessionChannel {
  post(message: SessionMessage): void
  subscribe(listener: (message: SessionMessage) => void): () => void
}

export type Lock = <T>(task: () => Promise<T>) => Promise<T>

/** A lock within this page only: callers run one after another. */
export function inPageLock(): Lock {
  let queue: Promise<unknown> = Promise.resolve()
  return <T,>(task: () => Promise<T>) => {
    const run = queue.then(task, task)
    queue = run.catch(() => undefined)
    return run
  }
}

/** Tabs sharing `storage`, serialised by `lock`, told of changes through `channel`. */
export function sharedTabs(storage: StorageLike, lock: Lock, channel: SessionChannel): SessionTabs {
  return {
    withLock: lock,
    post: (message) => channel.post(message),
    subscribe: (listener) => channel.subscribe(listener),
    read: () => readStoredSession(storage),
  }
}

const LOCK_NAME = 'parlay-session'
const CHANNEL_NAME = 'parlay-session'
/** Storage key the fallback channel writes its messages to (when BroadcastChannel is missing). */
export const SESSION_EVENT_KEY = 'sessionEvent'

interface LockManagerLike {
  request<T>(name: string, options: { mode: 'exclusive' }, task: () => Promise<T>): Promise<T>
}

/** navigator.locks when the browser has it (every current one, in secure contexts: https and
 * localhost); otherwise a lock within the page plus the storage re-check inside refresh. */
function browserLock(): Lock {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks
  if (!locks || typeof locks.request !== 'function') return inPageLock()
  return <T,>(task: () => Promise<T>) => locks.request(LOCK_NAME, { mode: 'exclusive' }, task)
}

function broadcastChannel(): SessionChannel | undefined {
  if (typeof BroadcastChannel !== 'function') return undefined
  const channel = new BroadcastChannel(CHANNEL_NAME)
  return {
    post: (message) => channel.postMessage(message),
    subscribe(listener) {
      const onMessage = (event: MessageEvent) => {
        if (isSessionMessage(event.data)) listener(event.data)
      }
      channel.addEventListener('message', onMessage)
      return () => channel.removeEventListener('message', onMessage)
    },
  }
}

/** Fallback channel: a storage key whose changes fire `storage` events in the other tabs. */
function storageEventChannel(storage: StorageLike): SessionChannel {
  let sequence = 0
  return {
    post: (message) => storage.setItem(SESSION_EVENT_KEY, JSON.stringify({ ...message, n: `${Date.now()}-${++sequence}-${Math.random()}` })),
    subscribe(listener) {
      const onStorage = (event: StorageEvent) => {
        if (event.key !== SESSION_EVENT_KEY || !event.newValue) return
        try {
          const message = JSON.parse(event.newValue) as unknown
          if (isSessionMessage(message)) listener(message)
        } catch {
          // not ours
        }
      }
      window.addEventListener('storage', onStorage)
      return () => window.removeEventListener('storage', onStorage)
    },
  }
}

/**
 * Adds a second path for "the session changed": the storage event another tab's write of the
 * session fires here. A message on the channel can be missed (a tab still booting when the other
 * logged in, seen under load as a second tab that never followed a login); the stored session
 * cannot. Only a session written counts (a removal waits for the logout message and its reason);
 * a repeat is harmless, since a tab already in line with storage does nothing.
 */
function withStoredSession(channel: SessionChannel): SessionChannel {
  return {
    post: channel.post,
    subscribe(listener) {
      const stop = channel.subscribe(listener)
      const onStorage = (event: StorageEvent) => {
        if ((event.key === STORAGE_KEYS.session || event.key === STORAGE_KEYS.sessionHash) && event.newValue) listener({ kind: 'session' })
      }
      window.addEventListener('storage', onStorage)
      return () => {
        stop()
        window.removeEventListener('storage', onStorage)
      }
    },
  }
}

/** Adds the 'wake' hint (tab visible again) to a channel. */
function withWake(channel: SessionChannel): SessionChannel {
  return {
    post: channel.post,
    subscribe(listener) {
      const stop = channel.subscribe(listener)
      const onVisible = () => {
        if (document.visibilityState === 'visible') listener({ kind: 'wake' })
      }
      document.addEventListener('visibilitychange', onVisible)
      return () => {
        stop()
        document.removeEventListener('visibilitychange', onVisible)
      }
    },
  }
}

function isSessionMessage(value: unknown): value is SessionMessage {
  if (typeof value !== 'object' || value === null) return false
  const kind = (value as { kind?: unknown }).kind
  return kind === 'session' || kind === 'wake' || (kind === 'logout' && typeof (value as { reason?: unknown }).reason === 'string')
}

/** Storage that really keeps what it is given (private modes may refuse every write). */
function usable(storage: StorageLike | undefined): storage is StorageLike {
  if (!storage) return false
  try {
    storage.setItem('parlay-storage-check', '1')
    storage.removeItem('parlay-storage-check')
    return true
  } catch {
    return false
  }
}

/** The browser's tabs, or undefined when storage is unusable (then every tab is on its own). */
export function browserSessionTabs(storage: StorageLike | undefined): SessionTabs | undefined {
  if (!usable(storage)) return undefined
  return sharedTabs(storage, browserLock(), withWake(withStoredSession(broadcastChannel() ?? storageEventChannel(storage))))
}
