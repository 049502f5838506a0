/**
 * Reality check (spec §7 "Reality check", casino and live casino gates): the punter chooses how
 * often to be reminded (the jurisdiction's `regulatory.realityCheck.timeoutsMinutes`); choosing is
 * the punter's agreement to the reality check. While the punter is in casino or live casino the
 * page asks `check`: the play clock of this login session starts at the first ask, and `remind`
 * turns true once the chosen interval has passed since the start or the last `clear` (the punter's
 * "continue"). Time played is whole hours and minutes since the start.
 *
 * On the query layer (issue 16): one copy of the queries for SQLite and PostgreSQL (schema step
 * q054, no foreign key to punters: that store may live in another database while the stores move);
 * the chosen interval lives in the punter's profile, written through the punters store.
 */
import type { Kysely } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'
import { setProfileField } from '../punters/lookups'
import type { Punter } from '../punters/repository'

export const sqlite601RegulationRealityCheck = sqliteHistory(
  '601-regulation-reality-check',
  `CREATE TABLE regulation_reality_sessions (
     session_id TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     started_at INTEGER NOT NULL,
     reminded_at INTEGER
   );`,
)

declare module '../db/tables' {
  interface Tables {
    regulation_reality_sessions: { session_id: string; punter_id: number; started_at: number; reminded_at: number | null }
  }
}

export const q054RegulationRealitySessions = schemaStep('q054-regulation-reality-sessions', async (db) => {
  await db.schema
    .createTable('regulation_reality_sessions')
    .ifNotExists()
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('reminded_at', 'bigint')
    .execute()
})

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

export function saveRealityCheckTimeout(data: DataLayer, punter: Punter, timeoutMinutes: number, now: number): Promise<void> {
  return setProfileField(data, punter.id, 'realityCheck', { timeoutMinutes, acceptedAt: now }, now)
}

export interface RealityCheck {
  remind: boolean
  hours: number
  minutes: number
}

/** The reality check of this login session; its play clock starts at the first ask. */
export async function checkReality(db: Kysely<Tables>, sessionId: string, punter: Punter, now: number): Promise<RealityCheck> {
  // the first ask starts the clock; asks at once (two tabs, two instances) keep the first start
  await db.insertInto('regulation_reality_sessions').values({ session_id: sessionId, punter_id: punter.id, started_at: now, reminded_at: null }).onConflict((oc) => oc.column('session_id').doNothing()).execute()
  const row = await db.selectFrom('regulation_reality_sessions').select(['started_at', 'reminded_at']).where('session_id', '=', sessionId).executeTakeFirstOrThrow()
  const played = Math.max(0, now - row.started_at)
  const timeout = punter.profile.realityCheck?.timeoutMinutes
  const remind = timeout !== undefined && now - (row.reminded_at ?? row.started_at) >= timeout * 60_000
  const totalMinutes = Math.floor(played / 60_000)
  return { remind, hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 }
}

/** The punter read the reminder and goes on: the next one is a whole interval away. */
export async function clearReality(db: Kysely<Tables>, sessionId: string, punterId: number, now: number): Promise<void> {
  await db
    .insertInto('regulation_reality_sessions')
    .values({ session_id: sessionId, punter_id: punterId, started_at: now, reminded_at: now })
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ reminded_at: now }))
    .execute()
}
