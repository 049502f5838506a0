/**
 * The documents version the document client watches (see ./documents): polled every 10 s, when
 * the page becomes visible again and on navigation; a new version revalidates the documents this
 * page loaded, so an operator's change shows without a reload.
 */
import type { FetchLike } from './gateway'
import { isObject } from './document-copies'

/** How often the documents version is polled (ms). */
export const VERSION_POLL_MS = 10_000

export interface VersionWatchOptions {
  fetch: FetchLike
  headers?: () => Record<string, string>
  setInterval?: (fn: () => void, ms: number) => unknown
  clearInterval?: (handle: unknown) => void
  onVisible?: (fn: () => void) => () => void
}

export interface VersionWatch {
  /** Polls now (one poll at a time); true when the version changed and `revalidate` ran. */
  checkVersion(): Promise<boolean>
  /** Polls every `intervalMs` and on visibility; returns stop. */
  watchVersion(options?: { intervalMs?: number }): () => void
  /** The version last seen. */
  version(): string | null
  /** The version the site bootstrap carries, taken when none was seen yet. */
  noteVersion(version: string | null): void
}

/** The documents version of a `/api/site/version` answer; null when it has none. */
export const documentsVersionOf = (body: unknown): string | null => (isObject(body) && typeof body.documentsVersion === 'string' ? body.documentsVersion : null)

export function createVersionWatch(options: VersionWatchOptions, revalidate: () => Promise<void>): VersionWatch {
  let knownVersion: string | null = null
  let versionEtag: string | null = null
  let checking: Promise<boolean> | null = null

  async function pollVersion(): Promise<boolean> {
    const headers: Record<string, string> = { accept: 'application/json', ...(options.headers?.() ?? {}) }
    if (versionEtag) headers['if-none-match'] = versionEtag
    let response: Response
    try {
      response = await options.fetch('/api/site/version', { headers, credentials: 'same-origin' })
    } catch {
      return false
    }
    if (response.status === 304 || !response.ok) return false
    let body: unknown
    try {
      body = JSON.parse(await response.text())
    } catch {
      return false
    }
    const version = documentsVersionOf(body)
    if (!version) return false
    versionEtag = response.headers.get('etag')
    const previous = knownVersion
    knownVersion = version
    if (previous === null || previous === version) return false
    await revalidate()
    return true
  }

  const watch: VersionWatch = {
    checkVersion() {
      if (!checking) checking = pollVersion().finally(() => (checking = null))
      return checking
    },
    watchVersion({ intervalMs = VERSION_POLL_MS } = {}) {
      const every = options.setInterval ?? ((fn: () => void, ms: number) => globalThis.setInterval(fn, ms))
      const stopEvery = options.clearInterval ?? ((h: unknown) => globalThis.clearInterval(h as ReturnType<typeof setInterval>))
      const check = () => void watch.checkVersion()
      const handle = every(check, intervalMs)
      const unsubscribe = (options.onVisible ?? domVisibility)(check)
      return () => {
        stopEvery(handle)
        unsubscribe()
      }
    },
    version: () => knownVersion,
    noteVersion(version) {
      if (knownVersion === null) knownVersion = version
    },
  }
  return watch
}

/** The DOM's visibilitychange, accessed only when called (Node has no document). */
function domVisibility(fn: () => void): () => void {
  const doc = (globalThis as { document?: Document }).document
  if (!doc) return () => {}
  const listener = () => {
    if (doc.visibilityState === 'visible') fn()
  }
  doc.addEventListener('visibilitychange', listener)
  return () => doc.removeEventListener('visibilitychange', listener)
}
