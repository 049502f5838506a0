/**
 * How a route's loads fail (spec §8 Router, §9): a screen document or screen data answered 5xx is
 * asked again, up to 3 more times, at once; a 404 with the data source's notFound flag shows the
 * 404 page (ScreenRoute); any other failure of a route load is a hard navigation to the same
 * address (the browser loads the page afresh from the server). A hard navigation is made once per
 * address in a short window, so a server that keeps failing shows the error page instead of
 * reloading for ever.
 */
import type { StorageLike } from '../../kernel/core/locale-path'

/** Router data fetch retries on 5xx (spec §9). */
export const ROUTE_LOAD_RETRIES = 3
/** sessionStorage key of the last hard navigation: `{ href, at }`. */
export const HARD_NAVIGATION_KEY = 'parlay.hardNavigation'
/** A second failure of the same address within this window shows the error page. */
export const HARD_NAVIGATION_WINDOW_MS = 30_000

/** Runs `load` again while its answer is a 5xx, at most ROUTE_LOAD_RETRIES more times. */
export async function retryOnServerError<T>(load: () => Promise<T>, statusOf: (answer: T) => number | undefined, retries = ROUTE_LOAD_RETRIES): Promise<T> {
  let answer = await load()
  for (let attempt = 0; attempt < retries; attempt++) {
    const status = statusOf(answer)
    if (status === undefined || status < 500) return answer
    answer = await load()
  }
  return answer
}

/**
 * Decides a hard navigation for a failed route load of `href`: true (and remembered) unless the
 * same address was hard-navigated within the window, when the caller shows its error page.
 */
export function claimHardNavigation(href: string, storage: StorageLike | undefined, now: number): boolean {
  let last: { href?: string; at?: number } = {}
  try {
    last = JSON.parse(storage?.getItem(HARD_NAVIGATION_KEY) ?? '{}') ?? {}
  } catch {
    // a damaged entry counts as none
  }
  if (last.href === href && typeof last.at === 'number' && now - last.at < HARD_NAVIGATION_WINDOW_MS) return false
  storage?.setItem(HARD_NAVIGATION_KEY, JSON.stringify({ href, at: now }))
  return true
}
