/**
 * Scrolling across in-app navigation as browsers do it for whole pages (issue 31 item 2), loaded
 * once the shell has mounted (./scroll-restoration.ts is its hook): a new page (a link, `nav.go`)
 * starts at the top or at its `#anchor`; back and forward put the page where the punter left it.
 *
 * The browser's own restoration is turned off (`history.scrollRestoration = 'manual'`): it would
 * restore before the screen's data has rendered. Positions are kept per history entry as the
 * punter scrolls, and in session storage so a reload and a return from another site find them
 * too. A restore waits for the screen of that entry to announce it has rendered
 * (./rendered-signal.ts), so the page is tall enough to be scrolled there. Framework-free.
 */
import { pageSessionStorage } from '../../core/web-storage'
import { SCREEN_RENDERED_EVENT, type ScreenRendered } from './rendered-signal'

const STORAGE_KEY = 'parlay.scroll'
/** History entries whose positions are kept (the oldest go first). */
const KEPT = 50

export interface Navigation {
  /** The router's location key (what the rendered-screen event names). */
  key: string
  /** Where positions are filed: the key, or for a page loaded whole its address. */
  entry: string
  hash: string
  type: 'POP' | 'PUSH' | 'REPLACE'
  /** The same page as before (a replace that only keeps a query in step). */
  samePage: boolean
}

type Positions = Record<string, number>

function readPositions(): Positions {
  try {
    const parsed = JSON.parse(pageSessionStorage()?.getItem(STORAGE_KEY) ?? '{}') as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Positions) : {}
  } catch {
    return {}
  }
}

function writePositions(positions: Positions): void {
  const keys = Object.keys(positions)
  const kept = keys.length > KEPT ? Object.fromEntries(keys.slice(-KEPT).map((key) => [key, positions[key]])) : positions
  try {
    pageSessionStorage()?.setItem(STORAGE_KEY, JSON.stringify(kept))
  } catch {
    // storage full or off: positions live for this page only
  }
}

/** Scrolls to the element the hash names, or to the top. */
export function scrollToStart(hash: string): void {
  const id = hash.startsWith('#') ? decodeURIComponent(hash.slice(1)) : ''
  const target = id ? document.getElementById(id) : null
  if (target) target.scrollIntoView({ block: 'start' })
  else window.scrollTo(0, 0)
}

/** Runs `then` once the screen of this history entry has rendered (again). */
function whenRendered(key: string, then: () => void): () => void {
  const onRendered = (event: Event) => {
    if ((event as CustomEvent<ScreenRendered>).detail?.key === key) then()
  }
  window.addEventListener(SCREEN_RENDERED_EVENT, onRendered)
  return () => window.removeEventListener(SCREEN_RENDERED_EVENT, onRendered)
}

export interface ScrollKeeper {
  /** A navigation has committed (before paint); answers how to stop waiting for its screen. */
  navigated(navigation: Navigation): () => void
}

/** Starts keeping positions, from the page's current history entry on. */
export function startScrollKeeper(current: Navigation): ScrollKeeper {
  const positions = readPositions()
  let entry = current.entry
  window.history.scrollRestoration = 'manual'
  // scroll events are dispatched at the next frame, after a navigation's commit has moved
  // `entry` on: a position is always filed under the entry it belongs to
  window.addEventListener('scroll', () => void (positions[entry] = window.scrollY), { passive: true })
  window.addEventListener('pagehide', () => writePositions(positions))
  const keeper: ScrollKeeper = {
    navigated(navigation) {
      entry = navigation.entry
      if (navigation.type !== 'POP') {
        if (navigation.type === 'REPLACE' && navigation.samePage) return () => {}
        scrollToStart(navigation.hash)
        // an anchor on a screen still loading: once it has rendered
        return navigation.hash ? whenRendered(navigation.key, () => scrollToStart(navigation.hash)) : () => {}
      }
      const saved = positions[navigation.entry]
      if (saved === undefined) return navigation.hash ? whenRendered(navigation.key, () => scrollToStart(navigation.hash)) : () => {}
      window.scrollTo(0, saved)
      return whenRendered(navigation.key, () => window.scrollTo(0, saved))
    },
  }
  // a reload or a return from another site: this entry's position, now that its screen is in;
  // else where the punter has scrolled to before this module arrived
  if (current.type === 'POP' && positions[current.entry] !== undefined) window.scrollTo(0, positions[current.entry])
  else positions[entry] = window.scrollY
  return keeper
}
