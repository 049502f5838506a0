/**
 * Stored keys of spec §9 that are written by small hooks rather than a store: "landing visited"
 * (the first time this browser opened a landing page, /landings…) and "pow puzzle run" (the last
 * proof-of-work puzzle this browser solved: when, and how many numbers it tried). Both live in
 * localStorage; without storage the page carries on without them.
 */
import type { StorageLike } from '../../kernel/core/locale-path'

export const LANDING_VISITED_KEY = 'parlay.landingVisited'
export const POW_PUZZLE_RUN_KEY = 'parlay.powPuzzleRun'

/** Remembers the first visit of a landing page (path without its locale prefix); later visits keep it. */
export function rememberLandingVisit(path: string, storage: StorageLike | undefined, now: number): void {
  if (!/^\/landings(\/|$)/.test(path)) return
  try {
    if (storage && storage.getItem(LANDING_VISITED_KEY) === null) storage.setItem(LANDING_VISITED_KEY, JSON.stringify({ at: now, path }))
  } catch {
    // storage full or refused: nothing to remember
  }
}

/** Records a solved proof-of-work puzzle. */
export function rememberPowPuzzleRun(tried: number, storage: StorageLike | undefined, now: number): void {
  try {
    storage?.setItem(POW_PUZZLE_RUN_KEY, JSON.stringify({ at: now, tried }))
  } catch {
    // storage full or refused
  }
}
