/**
 * Loads a served document and keeps it current: re-fetched when its id changes and whenever the
 * server's documents version changes (the shell polls it), so an edited document shows without a
 * reload. While a re-fetch runs, the previous copy stays on screen.
 */
import { startTransition, useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import type { DocumentKindName, DocumentResult } from './runtime'
import { useRuntime } from './runtime'

export type DocumentState<T> = { status: 'loading' } | { status: 'ready'; doc: T } | { status: 'error'; code: string; httpStatus?: number }

export function useDocumentsVersion(): number {
  const runtime = useRuntime()
  return useSyncExternalStore(runtime.subscribeDocuments, runtime.documentsVersion, runtime.documentsVersion)
}

export function useDocument<T>(kind: DocumentKindName, id: string | undefined): DocumentState<T> {
  const runtime = useRuntime()
  const version = useDocumentsVersion()
  const [state, setState] = useState<{ key: string; value: DocumentState<T> }>({ key: '', value: { status: 'loading' } })
  const key = `${kind}/${id ?? ''}`
  const cached = useMemo(() => (id ? runtime.peek<T>(kind, id) : undefined), [runtime, kind, id])
  useEffect(() => {
    if (!id) return
    let cancelled = false
    runtime.load<T>(kind, id).then((result: DocumentResult<T>) => {
      if (cancelled) return
      // a transition: the document's subtree (a whole screen) renders in slices that yield to the
      // browser, not in one blocking task (an update from a promise is otherwise not time-sliced)
      startTransition(() =>
        setState((previous) => {
          if (result.ok) return { key, value: { status: 'ready', doc: result.value } }
          // keep showing the last good copy of this same document when a re-fetch fails
          if (previous.key === key && previous.value.status === 'ready') return previous
          return { key, value: { status: 'error', code: result.code, httpStatus: result.status } }
        }),
      )
    })
    return () => {
      cancelled = true
    }
  }, [runtime, kind, id, key, version])
  if (state.key === key) return state.value
  return cached !== undefined ? { status: 'ready', doc: cached } : { status: 'loading' }
}
