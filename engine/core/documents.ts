/**
 * The document client: loads served documents, keeps the last good copy (memory + storage) so a
 * failed fetch never blanks the screen, revalidates with ETags, and watches the site's documents
 * version so an operator's change shows without a reload.
 */
import { DOCUMENTS_API, HEADERS, type Result, type SiteBootstrap } from '../../kernel/core/contracts'
import type { FetchLike } from './gateway'
import type { StorageLike } from '../../kernel/core/locale-path'
import { report } from './report'
import { retryOnServerError } from './route-load'

/** How often the documents version is polled (ms). */
export const VERSION_POLL_MS = 10_000
const STORAGE_PREFIX = 'parlay.doc:'

export interface LoadedDocument<T> {
  document: T
  /** true when this is the last good copy because the fresh fetch failed. */
  stale: boolean
  etag: string | null
}

export interface TranslationsResource {
  kind: 'translations'
  id: string
  locale?: string
  resources: Record<string, string>
  /** Texts of the fallback locales (site default, then en) for the keys this locale lacks. */
  fallbacks?: Record<string, Record<string, string>>
}

export interface DocumentClientOptions {
  fetch: FetchLike
  storage?: StorageLike
  now?: () => number
  /** Called when a loaded document changed on the server (after a version change). */
  onChange?: (kind: string, id: string) => void
  /** The current locale (sent as ?locale=). */
  locale?: () => string
  /** Extra request headers (source, target, version). */
  headers?: () => Record<string, string>
  setInterval?: (fn: () => void, ms: number) => unknown
  clearInterval?: (handle: unknown) => void
  /** Subscribes to "the page became visible again"; returns unsubscribe. Defaults to the DOM
   * visibilitychange event when a document exists. */
  onVisible?: (fn: () => void) => () => void
  /** An admin preview token (the page's `?preview=`): documents then come from a draft version,
   * and never enter the stored last-good copies punters rely on. */
  preview?: () => string | null
  /** When stored last-good copies are written (issue 10: the browser writes them once the page is
   * idle, not during the first render). Given the write; defaults to writing at once. The memory
   * copy is current either way; a later write of the same document replaces a pending one.
   * The write takes an optional `shouldYield`: asked after each stored copy, and when it says yes
   * the rest is handed to `persist` again (one long task of JSON.stringify + setItem was issue
   * 10's TBT); without it every pending copy is written. A large copy (the translations bundle,
   * LARGE_COPY_CHARS and more: its setItem alone was a ~200 ms task at 4x CPU after the first
   * paint) is never written in an idle slice: it waits for the write without `shouldYield`, which
   * the browser makes when the page is hidden or left (a later visit is what needs the copy). */
  persist?: (write: (shouldYield?: () => boolean) => void) => void
  /** URLs the page itself carries the answer to (issue 10: boot data in the HTML): their first
   * load does not read the stored last-good copy first (a synchronous parse of up to ~80 KB of
   * translations, during boot, for a copy the answer replaces anyway). */
  carried?: (url: string) => boolean
}

export interface DocumentClient {
  /** Loads a document; on failure returns the last good copy marked stale; 404 → NOT_FOUND. */
  load<T = unknown>(kind: string, id: string): Promise<Result<LoadedDocument<T>>>
  /** The last good copy in memory or storage, synchronously (first render without a spinner). */
  peek<T = unknown>(kind: string, id: string): LoadedDocument<T> | undefined
  /** `GET /api/site`: the site bootstrap. */
  loadSite(): Promise<Result<LoadedDocument<SiteBootstrap>>>
  /** `GET /api/i18n/{locale}`: the merged translations of a locale. */
  loadTranslations(locale: string): Promise<Result<LoadedDocument<TranslationsResource>>>
  /** Polls the version now; resolves true when it changed (and revalidation ran). */
  checkVersion(): Promise<boolean>
  /** Starts polling every 10 s and on visibility; returns stop. Call `checkVersion` on navigation. */
  watchVersion(options?: { intervalMs?: number }): () => void
  /** The documents version last seen (from the bootstrap or a poll). */
  version(): string | null
}

interface Entry {
  url: string
  kind: string
  id: string
  etag: string | null
  document: unknown
}

/** A stored copy this long (characters) is written when the page is hidden or left, never in an idle slice. */
export const LARGE_COPY_CHARS = 32_000
/** Kinds whose copy is always large (a locale's whole translations bundle, ~85 KB): an idle slice
 * does not even compare or stringify it (43 ms at 4x CPU, the ~100–250 ms idle task traced on /join
 * when the slice came at its timeout); the unhurried write does. */
const LARGE_KINDS: ReadonlySet<string> = new Set(['translations'])

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Creates the document client (one per page). */
export function createDocumentClient(options: DocumentClientOptions): DocumentClient {
  const memory = new Map<string, Entry>()
  /** Documents loaded on this page, revalidated when the version changes. */
  const loaded = new Map<string, { kind: string; id: string; url: string }>()
  let knownVersion: string | null = null
  let versionEtag: string | null = null

  const locale = () => options.locale?.() ?? 'en'

  function fromStorage(key: string): Entry | undefined {
    try {
      const raw = options.storage?.getItem(STORAGE_PREFIX + key)
      if (!raw) return undefined
      const entry = JSON.parse(raw) as Entry
      return isObject(entry) && 'document' in entry ? entry : undefined
    } catch {
      return undefined
    }
  }
  const pendingWrites = new Map<string, Entry>()
  /** Is the stored copy already this one (same URL and ETag)? Compares the start of the stored
   * text only: no parse, and no rewrite of an unchanged 80 KB bundle on every page load. */
  function storedAlready(key: string, entry: Entry): boolean {
    if (!entry.etag) return false
    const head = `${JSON.stringify({ url: entry.url, kind: entry.kind, id: entry.id, etag: entry.etag }).slice(0, -1)},"document":`
    try {
      return options.storage?.getItem(STORAGE_PREFIX + key)?.startsWith(head) ?? false
    } catch {
      return false
    }
  }
  /** Large copies written only by an unhurried write (page hidden or left), as stored text or,
   * for a kind known to be large, as the entry still to compare and stringify. */
  const largeWrites = new Map<string, string | Entry>()
  function store(key: string, text: string): void {
    try {
      options.storage?.setItem(STORAGE_PREFIX + key, text)
    } catch {
      // storage full: the memory copy still protects this page
    }
  }
  function writePending(shouldYield?: () => boolean): void {
    if (!shouldYield)
      for (const [key, large] of largeWrites) {
        largeWrites.delete(key)
        if (typeof large === 'string') store(key, large)
        else if (!storedAlready(key, large)) store(key, JSON.stringify({ url: large.url, kind: large.kind, id: large.id, etag: large.etag, document: large.document }))
      }
    for (const [key, entry] of pendingWrites) {
      pendingWrites.delete(key)
      largeWrites.delete(key)
      if (shouldYield && LARGE_KINDS.has(entry.kind)) largeWrites.set(key, entry)
      else if (!storedAlready(key, entry)) {
        const text = JSON.stringify({ url: entry.url, kind: entry.kind, id: entry.id, etag: entry.etag, document: entry.document })
        if (shouldYield && text.length >= LARGE_COPY_CHARS) largeWrites.set(key, text)
        else store(key, text)
      }
      if (pendingWrites.size > 0 && shouldYield?.()) {
        options.persist?.(writePending)
        return
      }
    }
  }
  function remember(key: string, entry: Entry): void {
    memory.set(key, entry)
    if (key.startsWith('preview:') || !options.storage) return
    const scheduled = pendingWrites.size > 0
    pendingWrites.set(key, entry)
    if (scheduled) return
    if (options.persist) options.persist(writePending)
    else writePending()
  }
  function lastGood(key: string): Entry | undefined {
    const entry = memory.get(key) ?? fromStorage(key)
    if (entry) memory.set(key, entry)
    return entry
  }

  async function fetchEntry<T>(kind: string, id: string, url: string, key: string): Promise<Result<LoadedDocument<T>> & { changed?: boolean }> {
    const cached = memory.get(key) ?? (options.carried?.(url) ? undefined : lastGood(key))
    const staleResult = (code: string): Result<LoadedDocument<T>> => {
      if (cached) {
        report({ kind: 'document', message: `${kind}/${id}: ${code}, showing the last good copy`, detail: { url } })
        return { ok: true, value: { document: cached.document as T, stale: true, etag: cached.etag } }
      }
      report({ kind: 'document', message: `${kind}/${id}: ${code}`, detail: { url } })
      return { ok: false, code }
    }
    const headers: Record<string, string> = { accept: 'application/json', ...(options.headers?.() ?? {}) }
    if (cached?.etag) headers['if-none-match'] = cached.etag
    let response: Response
    try {
      // a 5xx is asked again, up to 3 more times (spec §9 router retries), before the last good copy
      response = await retryOnServerError(() => options.fetch(url, { headers, credentials: 'same-origin' }), (r) => r.status)
    } catch {
      return staleResult('NETWORK_ERROR')
    }
    if (response.status === 304 && cached) {
      return { ok: true, value: { document: cached.document as T, stale: false, etag: cached.etag }, changed: false }
    }
    if (response.status === 404) return { ok: false, code: 'NOT_FOUND' }
    if (!response.ok) return staleResult(response.status >= 500 ? 'INTERNAL_SERVER_ERROR' : String(response.status))
    let document: unknown
    try {
      // json(), not JSON.parse(text()): an answer the page carries is already parsed (boot data)
      document = await response.json()
    } catch {
      return staleResult('INVALID_DOCUMENT')
    }
    if (!isObject(document)) return staleResult('INVALID_DOCUMENT')
    const etag = response.headers.get('etag')
    remember(key, { url, kind, id, etag, document })
    const changed = cached !== undefined && (cached.etag === null || cached.etag !== etag)
    return { ok: true, value: { document: document as T, stale: false, etag }, changed }
  }

  function keyOf(kind: string, id: string, loc: string): string {
    const token = options.preview?.()
    return token ? `preview:${token}/${kind}/${id}/${loc}` : `${kind}/${id}/${loc}`
  }

  async function loadAt<T>(kind: string, id: string, url: string, loc: string) {
    const key = keyOf(kind, id, loc)
    loaded.set(key, { kind, id, url })
    return fetchEntry<T>(kind, id, url, key)
  }

  const documentUrl = (kind: string, id: string, loc: string) => {
    const token = options.preview?.()
    const base = `${DOCUMENTS_API}/${encodeURIComponent(kind)}/${encodeURIComponent(id)}?locale=${encodeURIComponent(loc)}`
    return token ? `${base}&preview=${encodeURIComponent(token)}` : base
  }

  async function revalidate(): Promise<void> {
    for (const [key, { kind, id, url }] of [...loaded]) {
      const result = await fetchEntry(kind, id, url, key)
      if (result.ok && result.changed) {
        try {
          options.onChange?.(kind, id)
        } catch (error) {
          report({ kind: 'document', message: `onChange(${kind}/${id}) failed`, detail: error })
        }
      }
    }
  }

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
    const version = isObject(body) && typeof body.documentsVersion === 'string' ? body.documentsVersion : null
    if (!version) return false
    versionEtag = response.headers.get('etag')
    const previous = knownVersion
    knownVersion = version
    if (previous === null || previous === version) return false
    await revalidate()
    return true
  }

  return {
    async load<T>(kind: string, id: string) {
      const loc = locale()
      const { changed: _changed, ...result } = await loadAt<T>(kind, id, documentUrl(kind, id, loc), loc)
      return result as Result<LoadedDocument<T>>
    },
    peek<T>(kind: string, id: string) {
      const entry = lastGood(keyOf(kind, id, locale()))
      return entry ? { document: entry.document as T, stale: false, etag: entry.etag } : undefined
    },
    async loadSite() {
      const loc = locale()
      const url = `/api/site?locale=${encodeURIComponent(loc)}`
      const { changed: _changed, ...result } = await loadAt<SiteBootstrap>('site', 'current', url, loc)
      // the site under any address: offline, a page first asked without its locale in the path
      // still knows its site, and says "you are offline" in the site's language (issue 31)
      const anyLocale = keyOf('site', 'current', '*')
      if (result.ok && !result.value.stale) remember(anyLocale, { url, kind: 'site', id: 'current', etag: result.value.etag, document: result.value.document })
      if (!result.ok && result.code === 'NETWORK_ERROR') {
        const kept = lastGood(anyLocale)
        if (kept) return { ok: true, value: { document: kept.document as SiteBootstrap, stale: true, etag: kept.etag } }
      }
      if (result.ok && knownVersion === null) knownVersion = result.value.document.documentsVersion ?? null
      return result as Result<LoadedDocument<SiteBootstrap>>
    },
    async loadTranslations(loc: string) {
      // a preview page's texts are the preview's (a draft of a texts document), like its documents
      const token = options.preview?.()
      const url = `/api/i18n/${encodeURIComponent(loc)}${token ? `?preview=${encodeURIComponent(token)}` : ''}`
      const { changed: _changed, ...result } = await loadAt<TranslationsResource>('translations', loc, url, loc)
      return result as Result<LoadedDocument<TranslationsResource>>
    },
    checkVersion() {
      if (!checking) checking = pollVersion().finally(() => (checking = null))
      return checking
    },
    watchVersion({ intervalMs = VERSION_POLL_MS } = {}) {
      const every = options.setInterval ?? ((fn: () => void, ms: number) => globalThis.setInterval(fn, ms))
      const stopEvery = options.clearInterval ?? ((h: unknown) => globalThis.clearInterval(h as ReturnType<typeof setInterval>))
      const check = () => void this.checkVersion()
      const handle = every(check, intervalMs)
      const unsubscribe = (options.onVisible ?? domVisibility)(check)
      return () => {
        stopEvery(handle)
        unsubscribe()
      }
    },
    version: () => knownVersion,
  }
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

/** Header set for document requests (source/target/version, spec §7). */
export function documentHeaders(platform: string, site?: SiteBootstrap | null): Record<string, string> {
  const out: Record<string, string> = { [HEADERS.source]: platform }
  if (site) {
    out[HEADERS.target] = site.site.id
    out[HEADERS.version] = site.version
  }
  return out
}
