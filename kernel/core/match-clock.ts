/**
 * The minute a live match's clock shows (issue 14): whole minutes played, never past the match's
 * playing time; in added time the regular time plus the minute of added time ("90+2"), as football
 * shows it. Shared by the server's lists and the browser's scoreboard so both say the same.
 */
export function matchMinute(elapsedMs: number, durationMs: number, regularMs?: number): string {
  const played = Math.max(0, Math.min(elapsedMs, durationMs))
  if (regularMs === undefined || played < regularMs) return String(Math.floor(played / 60_000))
  const regular = Math.floor(regularMs / 60_000)
  return `${regular}+${Math.min(Math.floor((played - regularMs) / 60_000) + 1, Math.ceil((durationMs - regularMs) / 60_000))}`
}
