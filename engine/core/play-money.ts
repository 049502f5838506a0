/**
 * A guest's play money for demo rounds (issue 31 item 3): this tab's own, in hundredths (exact),
 * in session storage; it never meets the ledger or the header's balance. The demo actions change
 * it, the game page shows it.
 */
import { pageSessionStorage } from './web-storage'

/** Play money a guest starts with, in hundredths (1,000.00). */
export const PLAY_MONEY_START = 100_000
const PLAY_MONEY_KEY = 'parlay.playMoney'

/** The tab's play money in hundredths (a fresh stack when there is none or it is unreadable). */
export function readPlayMoney(): number {
  const stored = pageSessionStorage()?.getItem(PLAY_MONEY_KEY)
  const hundredths = typeof stored === 'string' ? Number(stored) : NaN
  return Number.isInteger(hundredths) && hundredths >= 0 ? hundredths : PLAY_MONEY_START
}

export function writePlayMoney(hundredths: number): void {
  try {
    pageSessionStorage()?.setItem(PLAY_MONEY_KEY, String(hundredths))
  } catch {
    // no storage: the stack lives as long as the page
  }
}
