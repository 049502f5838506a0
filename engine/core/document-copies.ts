/**
 * The document client's last good copies (see ./documents): each document in memory, and in
 * storage so a later visit (or an offline one) still has it. Writes to storage wait for `persist`
 * (the browser's idle time, issue 10) and are skipped when the stored copy is already this one; a
 * large copy waits for the unhurried write the browser makes when the page is hidden or left.
 */
import type { StorageLike } from '../../kernel/core/locale-path'

const STORAGE_PREFIX = 'parlay.doc:'

/** One document as served: where from, its ETag and its body. */
export interface DocumentCopy {
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

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The stored text of a copy. */
const copyText = (entry: DocumentCopy) => JSON.stringify({ url: entry.url, kind: entry.kind, id: entry.id, etag: entry.etag, document: entry.document })

function fromStorage(storage: StorageLike | undefined, key: string): DocumentCopy | undefined {
  try {
    const raw = storage?.getItem(STORAGE_PREFIX + key)
    if (!raw) return undefined
    const entry = JSON.parse(raw) as DocumentCopy
    return isObject(entry) && 'document' in entry ? entry : undefined
  } catch {
    return undefined
  }
}

/** Is the stored copy already this one (same URL and ETag)? Compares the start of the stored
 * text only: no parse, and no rewrite of an unchanged 80 KB bundle on every page load. */
function storedAlready(storage: StorageLike | undefined, key: string, entry: DocumentCopy): boolean {
  if (!entry.etag) return false
  const head = `${JSON.stringify({ url: entry.url, kind: entry.kind, id: entry.id, etag: entry.etag }).slice(0, -1)},"document":`
  try {
    return storage?.getItem(STORAGE_PREFIX + key)?.startsWith(head) ?? false
  } catch {
    return false
  }
}

function store(storage: StorageLike | undefined, key: string, text: string): void {
  try {
    storage?.setItem(STORAGE_PREFIX + key, text)
  } catch {
    // storage full: the memory copy still protects this page
  }
}

export interface DocumentCopies {
  /** The copy this page already holds in memory. */
  inMemory(key: string): DocumentCopy | undefined
  /** Keeps a copy in memory and (not for a preview's `preview:` key) schedules its stored write. */
  remember(key: string, entry: DocumentCopy): void
  /** The copy in memory, else the stored one (then kept in memory too). */
  lastGood(key: string): DocumentCopy | undefined
}

/** The copies of one page, stored in `storage` when given; `persist` schedules the writes (see DocumentClientOptions.persist). */
export function createDocumentCopies(storage: StorageLike | undefined, persist?: (write: (shouldYield?: () => boolean) => void) => void): DocumentCopies {
  const memory = new Map<string, DocumentCopy>()
  const pendingWrites = new Map<string, DocumentCopy>()
  /** Large copies written only by an unhurried write (page hidden or left), as stored text or,
   * for a kind known to be large, as the entry still to compare and stringify. */
  const largeWrites = new Map<string, string | DocumentCopy>()
  function writePending(shouldYield?: () => boolean): void {
    if (!shouldYield)
      for (const [key, large] of largeWrites) {
        largeWrites.delete(key)
        if (typeof large === 'string') store(storage, key, large)
        else if (!storedAlready(storage, key, large)) store(storage, key, copyText(large))
      }
    for (const [key, entry] of pendingWrites) {
      pendingWrites.delete(key)
      largeWrites.delete(key)
      if (shouldYield && LARGE_KINDS.has(entry.kind)) largeWrites.set(key, entry)
      else if (!storedAlready(storage, key, entry)) {
        const text = copyText(entry)
        if (shouldYield && text.length >= LARGE_COPY_CHARS) largeWrites.set(key, text)
        else store(storage, key, text)
      }
      if (pendingWrites.size > 0 && shouldYield?.()) {
        persist?.(writePending)
        return
      }
    }
  }
  return {
    inMemory: (key) => memory.get(key),
    remember(key, entry) {
      memory.set(key, entry)
      if (key.startsWith('preview:') || !storage) return
      const scheduled = pendingWrites.size > 0
      pendingWrites.set(key, entry)
      if (scheduled) return
      if (persist) persist(writePending)
      else writePending()
    },
    lastGood(key) {
      const entry = memory.get(key) ?? fromStorage(storage, key)
      if (entry) memory.set(key, entry)
      return entry
    },
  }
}
