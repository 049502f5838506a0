/**
 * The document client: loads served documents, keeps the last good copy (memory + storage) so a
 * failed fetch never blanks the screen, revalidates with ETags, and watches the site's documents
 * version so an operator's change shows without a reload.
 */
import { DOCUMENTS_API, HEADERS, type Result, type SiteBootstrap } from '../../kernel/core/contracts'
import type { FetchLike } from './gateway'
import type { StorageLike } from '../../kernel/core/locale-path'
import { createDocumentCopies, isObject, type DocumentCopies } from './document-copies'
import { createVersionWatch } from './documents-version'
import { report } from './report'
import { retryOnServerError } from './route-load'

export { LARGE_COPY_CHARS } from './document-copies'
export { VERSION_POLL_MS } from './documents-version'

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

/** The key of a document's copy: by kind, id and locale; a preview's copies under their own `preview:` keys. */
export function documentKey(kind: string, id: string, locale: string, previewToken?: string | null): string {
  return previewToken ? `preview:${previewToken}/${kind}/${id}/${locale}` : `${kind}/${id}/${locale}`
}

/** The URL of a served document in a locale; a preview's carries its token. */
export function documentUrl(kind: string, id: string, locale: string, previewToken?: string | null): string {
  const base = `${DOCUMENTS_API}/${encodeURIComponent(kind)}/${encodeURIComponent(id)}?locale=${encodeURIComponent(locale)}`
  return previewToken ? `${base}&preview=${encodeURIComponent(previewToken)}` : base
}

/** A fresh answer changed the document when a copy was held before and its ETag differs or was never known. */
export const copyChanged = (cached: { etag: string | null } | undefined, etag: string | null): boolean =>
  cached !== undefined && (cached.etag === null || cached.etag !== etag)

type Fetched<T> = Result<LoadedDocument<T>> & { changed?: boolean }

/** One fetch of a document (ETag revalidation, 5xx retries); on failure the last good copy, marked stale. */
async function fetchEntry<T>(options: DocumentClientOptions, copies: DocumentCopies, kind: string, id: string, url: string, key: string): Promise<Fetched<T>> {
  const cached = copies.inMemory(key) ?? (options.carried?.(url) ? undefined : copies.lastGood(key))
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
  copies.remember(key, { url, kind, id, etag, document })
  return { ok: true, value: { document: document as T, stale: false, etag }, changed: copyChanged(cached, etag) }
}

type Loaded = Map<string, { kind: string; id: string; url: string }>

/** Fetches every document loaded on this page again; `onChange` for each that changed. */
async function revalidate(options: DocumentClientOptions, copies: DocumentCopies, loaded: Loaded): Promise<void> {
  for (const [key, { kind, id, url }] of [...loaded]) {
    const result = await fetchEntry(options, copies, kind, id, url, key)
    if (result.ok && result.changed) {
      try {
        options.onChange?.(kind, id)
      } catch (error) {
        report({ kind: 'document', message: `onChange(${kind}/${id}) failed`, detail: error })
      }
    }
  }
}

/** The answer without the revalidation's `changed` mark. */
function withoutChanged<T>({ changed: _changed, ...result }: Fetched<T>): Result<LoadedDocument<T>> {
  return result as Result<LoadedDocument<T>>
}

/** Creates the document client (one per page). */
export function createDocumentClient(options: DocumentClientOptions): DocumentClient {
  const copies = createDocumentCopies(options.storage, options.persist ? (write) => options.persist!(write) : undefined)
  /** Documents loaded on this page, revalidated when the version changes. */
  const loaded: Loaded = new Map()
  const versions = createVersionWatch(options, () => revalidate(options, copies, loaded))
  const locale = () => options.locale?.() ?? 'en'
  const keyOf = (kind: string, id: string, loc: string) => documentKey(kind, id, loc, options.preview?.())
  async function loadAt<T>(kind: string, id: string, url: string, loc: string) {
    const key = keyOf(kind, id, loc)
    loaded.set(key, { kind, id, url })
    return fetchEntry<T>(options, copies, kind, id, url, key)
  }

  return {
    async load<T>(kind: string, id: string) {
      const loc = locale()
      return withoutChanged(await loadAt<T>(kind, id, documentUrl(kind, id, loc, options.preview?.()), loc))
    },
    peek<T>(kind: string, id: string) {
      const entry = copies.lastGood(keyOf(kind, id, locale()))
      return entry ? { document: entry.document as T, stale: false, etag: entry.etag } : undefined
    },
    async loadSite() {
      const loc = locale()
      const url = `/api/site?locale=${encodeURIComponent(loc)}`
      const result = withoutChanged(await loadAt<SiteBootstrap>('site', 'current', url, loc))
      // the site under any address: offline, a page first asked without its locale in the path
      // still knows its site, and says "you are offline" in the site's language (issue 31)
      const anyLocale = keyOf('site', 'current', '*')
      if (result.ok && !result.value.stale) copies.remember(anyLocale, { url, kind: 'site', id: 'current', etag: result.value.etag, document: result.value.document })
      if (!result.ok && result.code === 'NETWORK_ERROR') {
        const kept = copies.lastGood(anyLocale)
        if (kept) return { ok: true, value: { document: kept.document as SiteBootstrap, stale: true, etag: kept.etag } }
      }
      if (result.ok) versions.noteVersion(result.value.document.documentsVersion ?? null)
      return result
    },
    async loadTranslations(loc: string) {
      // a preview page's texts are the preview's (a draft of a texts document), like its documents
      const token = options.preview?.()
      const url = `/api/i18n/${encodeURIComponent(loc)}${token ? `?preview=${encodeURIComponent(token)}` : ''}`
      return withoutChanged(await loadAt<TranslationsResource>('translations', loc, url, loc))
    },
    checkVersion: () => versions.checkVersion(),
    watchVersion: (watchOptions) => versions.watchVersion(watchOptions),
    version: () => versions.version(),
  }
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
