/**
 * An admin's studio preview (`?preview=<token>`) in a page of its own: its storage is in memory,
 * so nothing it does reaches this browser's punter session, settings or cached documents (the
 * studio and the site share an origin), and it tells no other tab anything. A preview made "as a
 * demo punter" brings that punter's read-only preview session (server/admin/preview-punter.ts),
 * which the page then restores like any stored session: heartbeat, restrictions, flags.
 */
import { STORAGE_KEYS, type StorageLike } from '../../core/stores'

/** A Storage that lives as long as the page. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    key: (index) => [...items.keys()][index] ?? null,
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  }
}

interface PreviewSession {
  accessToken: string
  refreshToken: null
  sessionHash: string
  creationTime: number
  loginTimeout: number
  rememberMe: boolean
}

/** Puts the preview's punter session (if it was made as a punter) into `storage`; true when it did. */
export async function seedPreviewSession(storage: StorageLike, token: string, fetcher: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetcher(`/api/preview/session?preview=${encodeURIComponent(token)}`, { credentials: 'same-origin', headers: { accept: 'application/json' } })
    const body = (await response.json()) as { status?: string; payload?: { session?: PreviewSession | null } }
    const session = body.status === 'OK' ? body.payload?.session : null
    if (!session) return false
    const { sessionHash, ...fields } = session
    storage.setItem(STORAGE_KEYS.session, JSON.stringify(fields))
    storage.setItem(STORAGE_KEYS.sessionHash, JSON.stringify(sessionHash))
    return true
  } catch {
    return false // the page shows as a guest
  }
}
