/**
 * The scroll position across in-app navigation (issue 31 item 2): the hook the shell runs, and the
 * loader of ./scroll-keeper.ts, which does the work and is fetched once the shell has mounted (the
 * first paint does not need it). Until it is in, a new page still starts at the top.
 */
import { useEffect, useLayoutEffect, useRef } from 'react'
import { useLocation, useNavigationType } from 'react-router-dom'
import type { Navigation, ScrollKeeper } from './scroll-keeper'

let keeper: ScrollKeeper | undefined

export function useScrollRestoration(): void {
  const location = useLocation()
  const type = useNavigationType()
  const previousPath = useRef<string | null>(null)
  const current = useRef<Navigation | null>(null)
  // a page loaded whole has no router key yet: its address files its position
  const entry = location.key === 'default' ? `default:${location.pathname}${location.search}` : location.key
  useLayoutEffect(() => {
    const navigation: Navigation = { key: location.key, entry, hash: location.hash, type, samePage: previousPath.current === location.pathname }
    previousPath.current = location.pathname
    current.current = navigation
    if (keeper) return keeper.navigated(navigation)
    if (type === 'PUSH' || (type === 'REPLACE' && !navigation.samePage)) window.scrollTo(0, 0)
    return undefined
  }, [entry]) // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    void import('./scroll-keeper').then((module) => {
      keeper ??= module.startScrollKeeper(current.current!)
    })
  }, [])
}
