/**
 * The cookie-consent banner (spec §3: cookie 'ConsentCookie', 182 days, both from the footer
 * document's page settings). It appears on a first visit and again from the footer's "manage
 * cookies"; "accept all" or "necessary only" is stored in the cookie. A fixed bottom sheet that
 * never moves the page: a spacer of its height at the end of the page keeps the last content
 * reachable above it, and it sits under popups and the sheets a punter opens (menus, profile panel,
 * slip), so a menu opened before answering is whole. A labelled region with plain buttons.
 */
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { useStore } from 'zustand'
import { consentStore, type ConsentSettings, type CookieJar } from '../../core/consent'
import { useRuntime } from '../runtime'

/** The page's cookies; also read by the browser boot, so the banner is in React's first render
 * (browser-runtime.ts), as it is in the server's markup of the first screen. */
export const documentCookies = (): CookieJar => ({
  read: () => document.cookie,
  write: (cookie) => {
    document.cookie = cookie
  },
  secure: window.location.protocol === 'https:',
})

/** The sheet's height, kept current, so the spacer matches it whatever the locale's text wraps to.
 * Read from the ResizeObserver, which reports the first size after the browser's own layout: a
 * getBoundingClientRect in the layout effect forced a whole-page layout inside React's commit
 * (issue 10: the longest task after the lobby's first paint). The spacer is at the page's end,
 * below the fold, so its late height moves nothing in view. */
function useHeight(ref: React.RefObject<HTMLElement | null>, active: boolean): number {
  const [height, setHeight] = useState(0)
  useEffect(() => {
    const element = ref.current
    if (!active || !element) return
    if (typeof ResizeObserver === 'undefined') {
      setHeight(element.getBoundingClientRect().height)
      return
    }
    const observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.borderBoxSize?.[0]
      setHeight(box ? box.blockSize : element.getBoundingClientRect().height)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [active, ref])
  return active ? height : 0
}

export function CookieConsent({ settings, policy }: { settings?: Partial<ConsentSettings>; policy?: string }) {
  const runtime = useRuntime()
  const store = consentStore(runtime.stores)
  const open = useStore(store, (s) => s.loaded && s.bannerOpen)
  const ref = useRef<HTMLElement>(null)
  const height = useHeight(ref, open)
  useEffect(() => {
    store.getState().load(documentCookies(), settings)
  }, [store, settings?.cookieName, settings?.expiryDays]) // eslint-disable-line react-hooks/exhaustive-deps
  if (!open) return null
  return (
    <>
      {/* no style attribute until it has a height: the server's markup carries none (CSP style-src 'self') */}
      <div className="cookie-consent__spacer" aria-hidden="true" style={height > 0 ? { height } : undefined} />
      <section ref={ref} className="cookie-consent" role="region" aria-labelledby="cookie-consent-title" data-testid="cookie-consent">
        <h2 id="cookie-consent-title" className="cookie-consent__title">
          {runtime.t('consent.title')}
        </h2>
        <p className="cookie-consent__body">
          {runtime.t('consent.body')}{' '}
          {policy && <Link to={runtime.href(policy)}>{runtime.t('consent.policy')}</Link>}
        </p>
        <div className="cookie-consent__actions">
          <button type="button" className="button" data-variant="secondary" data-testid="consent-necessary" onClick={() => store.getState().choose('necessary')}>
            {runtime.t('consent.necessaryOnly')}
          </button>
          <button type="button" className="button" data-testid="consent-accept-all" onClick={() => store.getState().choose('all')}>
            {runtime.t('consent.acceptAll')}
          </button>
        </div>
      </section>
    </>
  )
}
