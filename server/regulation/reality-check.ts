/**
 * Reality check (spec §7 "Reality check", casino and live casino gates): the punter chooses how
 * often to be reminded (the jurisdiction's `regulatory.realityCheck.timeoutsMinutes`); choosing is
 * the punter's agreement to the reality check. While the punter is in casino or live casino the
 * page asks `check`: the play clock of this login session starts at the first ask, and `remind`
 * turns true once the chosen interval has passed since the start or the last `clear` (the punter's
 * "continue"). Time played is whole hours and minutes since the start.
 */
import { registerMigration, type Db } from '../db/database'
import type { Punter } from '../punters/repository'

registerMigration(
  '601-regulation-reality-check',
  `CREATE TABLE regulation_reality_sessions (
     session_id TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     started_at INTEGER NOT NULL,
     reminded_at INTEGER
   );`,
)

export const DEFAULT_REALITY_CHECK_TIMEOUTS = [15, 30, 60, 120]

export function realityCheckTimeouts(jurisdiction: { regulatory?: Record<string, unknown> } | undefined): number[] {
  const given = (jurisdiction?.regulatory?.realityCheck as { timeoutsMinutes?: unknown } | undefined)?.timeoutsMinutes
  return Array.isArray(given) && given.every((n) => Number.isInteger(n) && n > 0) ? (given as number[]) : DEFAULT_REALITY_CHECK_TIMEOUTS
}

export interface RealityCheckSettings {
  /** Minutes between reminders; null until the punter has chosen. */
  timeout: number | null
  accepted: boolean
  timeouts: number[]
}

export function realityCheckSettings(punter: Punter, timeouts: number[]): RealityCheckSettings {
  const chosen = punter.profile.realityCheck
  return { timeout: chosen?.timeoutMinutes ?? null, accepted: chosen !== undefined, timeouts }
}

export function saveRealityCheckTimeout(db: Db, punter: Punter, timeoutMinutes: number, now: number): void {
  const profile = { ...punter.profile, realityCheck: { timeoutMinutes, acceptedAt: now } }
  db.prepare('UPDATE punters SET profile = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(profile), now, punter.id)
}

export interface RealityCheck {
  remind: boolean
  hours: number
  minutes: number
}

/** The reality check of this login session; its play clock starts at the first ask. */
export function checkReality(db: Db, sessionId: string, punter: Punter, now: number): RealityCheck {
  db.prepare('INSERT OR IGNORE INTO regulation_reality_sessions (session_id, punter_id, started_at) VALUES (?, ?, ?)').run(sessionId, punter.id, now)
  const row = db.prepare('SELECT started_at, reminded_at FROM regulation_reality_sessions WHERE session_id = ?').get(sessionId) as { started_at: number; reminded_at: number | null }
  const played = Math.max(0, now - row.started_at)
  const timeout = punter.profile.realityCheck?.timeoutMinutes
  const remind = timeout !== undefined && now - (row.reminded_at ?? row.started_at) >= timeout * 60_000
  const totalMinutes = Math.floor(played / 60_000)
  return { remind, hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 }
}

/** The punter read the reminder and goes on: the next one is a whole interval away. */
export function clearReality(db: Db, sessionId: string, punterId: number, now: number): void {
  db.prepare('INSERT OR IGNORE INTO regulation_reality_sessions (session_id, punter_id, started_at) VALUES (?, ?, ?)').run(sessionId, punterId, now)
  db.prepare('UPDATE regulation_reality_sessions SET reminded_at = ? WHERE session_id = ?').run(now, sessionId)
}
