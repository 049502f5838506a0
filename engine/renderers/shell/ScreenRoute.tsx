/**
 * One screen: loads its document (re-fetched on navigation and when the server's documents
 * change), evaluates its guard, runs `onEnter`, loads its `data` sources (URL placeholders such as
 * `{locale}` or `{query.id}` filled for this page), then renders the body, or the 404 page when a
 * source marked `notFound` answered 404 (an event link naming no event).
 * A login-only screen opens the login popup for guests instead of its body (the navigation is
 * deferred until the login; dismissing the popup blocks it and restores history: the login
 * popup's `onClose` goes back, or home when the guarded page was the first).
 */
import { startTransition, useEffect, useRef, useState } from 'react'
import { Navigate, useLocation, useParams } from 'react-router-dom'
import { useStore } from 'zustand'
import { claimHardNavigation, DATA_NOT_FOUND, fillDataUrl, isLoggedIn, sectionOf } from '../../core'
import { pageLocalStorage, pageSessionStorage } from '../../core/web-storage'
import { rememberLandingVisit } from '../../core/stored-keys'
import type { RouteEntry } from '../../../kernel/core/contracts'
import type { ScreenDocument } from '../../../kernel/documents/types'
import { RenderNodes } from '../RenderNode'
import { useEvaluate, useRuntime } from '../runtime'
import { useDocument } from '../use-document'
import { ErrorPage } from './ErrorPage'
import { OfflinePage } from './OfflinePage'
import { useRenderedSignal } from './rendered-signal'

export const FIRST_RENDER_MARK = 'parlay:first-render'

function markFirstRender() {
  if (typeof performance === 'undefined' || performance.getEntriesByName(FIRST_RENDER_MARK).length > 0) return
  performance.mark(FIRST_RENDER_MARK)
}

type FilledSource = { url: string; notFound?: boolean }

/** The screen's data sources with their URL placeholders filled for this page. */
function useFilledSources(doc: ScreenDocument | null): Record<string, FilledSource> {
  const runtime = useRuntime()
  const location = useLocation()
  const params = useParams()
  const locale = runtime.stores.site.getState().locale
  const query = Object.fromEntries(new URLSearchParams(location.search))
  const routeParams = Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === 'string')) as Record<string, string>
  const sources = (doc?.data ?? {}) as Record<string, FilledSource>
  return Object.fromEntries(Object.entries(sources).map(([name, source]) => [name, { url: fillDataUrl(source.url, { locale, query, params: routeParams }), notFound: source.notFound }]))
}

/**
 * Loads the screen's data sources into `data.<name>` (null until loaded or when a load fails).
 * `missing`: a source marked `notFound` answered 404, so this page is the 404 page.
 */
function useScreenData(doc: ScreenDocument | null, navigationKey: string): { ready: boolean; missing: boolean } {
  const runtime = useRuntime()
  const sources = useFilledSources(doc)
  const sourcesKey = JSON.stringify(sources)
  const key = doc ? `${doc.id}|${navigationKey}|${sourcesKey}` : ''
  // the first screen's data is in before the first render (the server rendered the page with it,
  // the browser boot put it in the store): ready at once, so React's first commit matches the
  // server's markup instead of a loading line
  const [readyFor, setReadyFor] = useState<string | null>(() =>
    doc && Object.values(sources).every((source) => runtime.peekData?.(source.url) !== undefined) ? key : null,
  )
  const [missingFor, setMissingFor] = useState<string | null>(null)
  useEffect(() => {
    if (!doc) return
    let cancelled = false
    const screenData = runtime.stores.screenData.getState()
    const entries = Object.entries(sources)
    // keep what is on screen during a re-fetch of the same screen; start clean on a new one
    if (readyFor === null || !readyFor.startsWith(`${doc.id}|`)) {
      screenData.clearData()
      for (const [name] of entries) screenData.setData(name, null)
    }
    Promise.all(
      entries.map(async ([name, source]) => {
        const value = await runtime.fetchData(source.url)
        if (!cancelled) runtime.stores.screenData.getState().setData(name, value === DATA_NOT_FOUND ? null : value)
        return value === DATA_NOT_FOUND && source.notFound === true
      }),
    ).then((missing) => {
      // the screen's body renders in a transition, in slices that yield to the browser
      if (!cancelled)
        startTransition(() => {
          setMissingFor(missing.includes(true) ? key : null)
          setReadyFor(key)
        })
    })
    return () => {
      cancelled = true
    }
  }, [key]) // eslint-disable-line react-hooks/exhaustive-deps
  return { ready: readyFor !== null && (readyFor === key || readyFor.startsWith(`${doc?.id}|`)), missing: missingFor === key && readyFor === key }
}

/** Claims the hard navigation of a failed screen load for this address (route-load.ts): true when
 * the page is reloading from the server, false when it already did (the error page shows). */
const claimed = new Map<string, boolean>()
function hardNavigation(locationKey: string): boolean {
  if (typeof window === 'undefined') return false // the server's render shows the error page
  const href = window.location.href
  const key = `${locationKey}|${href}`
  if (!claimed.has(key)) {
    const go = claimHardNavigation(href, pageSessionStorage(), Date.now())
    claimed.set(key, go)
    if (go) window.location.assign(href)
  }
  return claimed.get(key)!
}

function ScreenBody({ doc }: { doc: ScreenDocument }) {
  useEffect(markFirstRender, [])
  return <RenderNodes nodes={doc.body} />
}

export function ScreenRoute({ entry }: { entry: RouteEntry }) {
  const runtime = useRuntime()
  const location = useLocation()
  const params = useParams()
  const { text, when } = useEvaluate()
  const state = useDocument<ScreenDocument>('screen', entry.screen)
  const loggedIn = useStore(runtime.stores.session, isLoggedIn)
  // a reloaded punter's session is restoring: a login-only screen waits (no guest flash, no empty name)
  const restoring = useStore(runtime.stores.session, (s) => s.status === 'restoring')
  const doc = state.status === 'ready' ? state.doc : null
  const { ready: dataReady, missing } = useScreenData(doc, location.key)
  const entered = useRef<string | null>(null)

  // the route store mirrors the address bar (path without its locale prefix)
  useEffect(() => {
    const bare = stripPrefix(location.pathname, runtime)
    const query = Object.fromEntries(new URLSearchParams(location.search))
    const routeParams = Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === 'string')) as Record<string, string>
    runtime.stores.route.getState().setRoute({ path: bare, section: doc?.section ?? entry.section ?? sectionOf(bare), params: routeParams, query })
    rememberLandingVisit(bare, pageLocalStorage(), Date.now())
  }, [location.pathname, location.search, doc?.section]) // eslint-disable-line react-hooks/exhaustive-deps

  const loginOnly = doc?.guard?.login ?? entry.login
  const needsLogin = loginOnly && !loggedIn
  const waitsForSession = Boolean(loginOnly && restoring)
  const guardHolds = !doc?.guard?.when || when(doc.guard.when)

  useEffect(() => {
    // a session that just ended here shows session-expired (which offers the login) on top, not under it
    const ui = runtime.stores.ui.getState()
    // `guarded`: the popup stands for this page's guard; dismissing it goes back (schemas/popups/login.json onClose)
    if (needsLogin && !ui.popups.some((p) => p.id === 'session-expired')) ui.openPopup({ id: 'login', params: { guarded: true } })
  }, [needsLogin, runtime])

  useEffect(() => {
    if (!doc || needsLogin || waitsForSession || !guardHolds) return
    const enterKey = `${doc.id}|${location.key}`
    if (entered.current === enterKey) return
    entered.current = enterKey
    if (doc.onEnter) void runtime.run(doc.onEnter)
  }, [doc, needsLogin, waitsForSession, guardHolds, location.key, runtime])

  useEffect(() => {
    if (doc?.title) document.title = `${text(doc.title)} · ${runtime.t('shell.brand')}`
  }, [doc, text, runtime])

  // what this navigation settled on (the error page announces itself)
  const settled = state.status === 'error' || missing || !doc || waitsForSession || !guardHolds ? null : needsLogin ? 'login-required' : dataReady ? doc.id : null
  useRenderedSignal(settled, location.key)

  // a screen this device never loaded, asked offline: the offline page, not a 500 (issue 10);
  // any other failure after the retries is a hard navigation, once (spec §8 Router)
  if (state.status === 'error') {
    if (state.code === 'NETWORK_ERROR') return <OfflinePage />
    const notFound = state.httpStatus === 404 || state.code === 'NOT_FOUND'
    if (!notFound && hardNavigation(location.key)) return <p className="loading" aria-busy="true">{runtime.t('shell.loading')}</p>
    return <ErrorPage status={notFound ? 404 : 500} />
  }
  if (!doc) return <p className="loading" aria-busy="true">{runtime.t('shell.loading')}</p>
  if (waitsForSession)
    return (
      <p className="loading" aria-busy="true" data-testid="session-restoring">
        {runtime.t('shell.loading')}
      </p>
    )
  if (!guardHolds) return <Navigate to={runtime.href(doc.guard?.redirect ?? '/')} replace />
  if (needsLogin)
    return (
      <div data-testid="login-required">
        {doc.title && <h1 className="text-title">{text(doc.title)}</h1>}
      </div>
    )
  if (!dataReady) return <p className="loading" aria-busy="true">{runtime.t('shell.loading')}</p>
  if (missing) return <ErrorPage status={404} />
  return (
    <div className="screen" data-screen={doc.id}>
      <ScreenBody doc={doc} />
    </div>
  )
}

function stripPrefix(pathname: string, runtime: ReturnType<typeof useRuntime>): string {
  const locales = runtime.stores.site.getState().bootstrap?.site.locales ?? []
  const first = pathname.split('/')[1] ?? ''
  if (locales.includes(first)) return pathname.slice(first.length + 1) || '/'
  return pathname
}
