/**
 * The experiment groups last decided on this browser (issue 10: no layout shift). A device keeps
 * its group, so the next page load puts them in the stores before its first render and a test
 * group's banner is there from the first paint instead of being inserted above a form once the
 * experiment client (a lazy chunk, after the first paint) answers; that answer still replaces
 * them. Kept apart from the client so the first-load entry imports only this.
 */
export const LAST_EXPERIMENTS_KEY = 'parlay.experiments.last'

/** The groups last decided on this browser, or nothing (absent, unreadable, not an object). */
export function lastExperiments(storage: Pick<Storage, 'getItem'> | undefined): Record<string, unknown> | undefined {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(LAST_EXPERIMENTS_KEY) ?? 'null')
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
