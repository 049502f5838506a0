/**
 * "This screen has finished rendering for this navigation": one `window` event per settled page
 * (its body, the login-required stand-in or an error page), so tools that drive the site — the
 * browser census, a future analytics page view — wait on a state, never on a timer. Harmless in
 * production: nothing is stored, shown or sent; an event no one listens to costs nothing.
 */
import { useEffect } from 'react'

export const SCREEN_RENDERED_EVENT = 'parlay:screen-rendered'

export interface ScreenRendered {
  /** The screen document id, `login-required`, or `error-<status>`. */
  screen: string
  /** The router's location key of the navigation that rendered it (`history.state.key`). */
  key: string
  path: string
}

function currentKey(): string {
  const state = window.history.state as { key?: unknown } | null
  return typeof state?.key === 'string' ? state.key : 'default'
}

let lastRendered: ScreenRendered | null = null
/** The screen announced last (analytics, loaded after the first screen, counts it as a view). */
export const lastScreenRendered = (): ScreenRendered | null => lastRendered

/** Announces `screen` once it is on the page (null: still loading, nothing to announce). */
export function useRenderedSignal(screen: string | null, locationKey?: string): void {
  // read at render: a page outside the router (the error page) still re-announces per navigation
  const key = locationKey ?? (typeof window === 'undefined' ? 'default' : currentKey())
  useEffect(() => {
    if (screen === null) return
    const detail: ScreenRendered = { screen, key, path: window.location.pathname }
    lastRendered = detail
    window.dispatchEvent(new CustomEvent(SCREEN_RENDERED_EVENT, { detail }))
  }, [screen, key])
}
