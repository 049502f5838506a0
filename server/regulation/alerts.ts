/**
 * Regulation alerts (spec §7 `regulation/punter/alerts/notification/info|confirm`) and Spain's
 * session reminder (spec §4: NO_ACTIVE_SESSION, SESSION_IS_CONFIRMED, NEED_TO_CONFIRM_SESSION).
 *
 * An alert tells the punter how long they have played and how much they have bet and lost (minor
 * units); it stays until the punter confirms having read it. Other parts raise one with
 * `raiseRegulationAlert`; a demo punter starts with one.
 *
 * The session reminder runs while a login session does, at the jurisdiction's interval
 * (`regulatory.sessionReminderIntervalMinutes`, only where `sessionReminder` is on): once the
 * interval has passed since the login or the last confirmation the session needs confirming, and
 * only then may it be confirmed.
 *
 * On the query layer (issue 16): the reminders' table has one copy of its queries for SQLite and
 * PostgreSQL (schema step q053); the alert lives in the punter's profile and the session's start in
 * the sessions store, both read and written through those stores' functions, never joined.
 */
import type { Kysely } from 'kysely'
import { sessionStartedAt } from '../auth/session-lookups'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'
import { emitPunterEvent } from '../punters/events'
import { setProfileField } from '../punters/lookups'
import { findPunterById, type Punter } from '../punters/repository'

export const sqlite602RegulationSessionReminders = sqliteHistory(
  '602-regulation-session-reminders',
  `CREATE TABLE regulation_session_reminders (
     session_id TEXT PRIMARY KEY,
     confirmed_at INTEGER NOT NULL
   );`,
)

declare module '../db/tables' {
  interface Tables {
    regulation_session_reminders: { session_id: string; confirmed_at: number }
  }
}

export const q053RegulationSessionReminders = schemaStep('q053-regulation-session-reminders', async (db) => {
  await db.schema
    .createTable('regulation_session_reminders')
    .ifNotExists()
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('confirmed_at', 'bigint', (c) => c.notNull())
    .execute()
})

export type AlertStatus = 'NEED_TO_CONFIRM' | 'CONFIRMED' | 'NO_ALERT'

export interface NotificationInfo {
  status: AlertStatus
  spentHours: number
  totalBetMinUnit: number
  totalLostMinUnit: number
}

export function notificationInfo(punter: Punter): NotificationInfo {
  const alert = punter.profile.regulationAlert
  if (!alert) return { status: 'NO_ALERT', spentHours: 0, totalBetMinUnit: 0, totalLostMinUnit: 0 }
  return {
    status: alert.confirmedAt === null ? 'NEED_TO_CONFIRM' : 'CONFIRMED',
    spentHours: alert.spentHours,
    totalBetMinUnit: alert.totalBetMinUnit,
    totalLostMinUnit: alert.totalLostMinUnit,
  }
}

function saveAlert(data: DataLayer, punter: Punter, alert: NonNullable<Punter['profile']['regulationAlert']>, now: number): Promise<void> {
  return setProfileField(data, punter.id, 'regulationAlert', alert, now)
}

/** Raises an alert for the punter (replacing an older one); shown until confirmed. The punter's
 * open pages get it at once as the socket's `regulationAlert` (the same figures as notification/info),
 * not at their next minute's ask. */
export async function raiseRegulationAlert(data: DataLayer, punterId: number, figures: Omit<NotificationInfo, 'status'>, now: number): Promise<void> {
  const punter = await findPunterById(data, punterId)
  if (!punter) return
  await saveAlert(data, punter, { status: 'NEED_TO_CONFIRM', ...figures, raisedAt: now, confirmedAt: null }, now)
  const { spentHours, totalBetMinUnit, totalLostMinUnit } = figures
  emitPunterEvent('regulationAlert', { punterId, notificationInfo: { status: 'NEED_TO_CONFIRM', spentHours, totalBetMinUnit, totalLostMinUnit } })
}

/** The punter confirms the alert; confirming twice (a double tap) changes nothing. */
export async function confirmRegulationAlert(data: DataLayer, punter: Punter, now: number): Promise<NotificationInfo> {
  const alert = punter.profile.regulationAlert
  if (alert && alert.confirmedAt === null) await saveAlert(data, punter, { ...alert, status: 'CONFIRMED', confirmedAt: now }, now)
  return notificationInfo((await findPunterById(data, punter.id))!)
}

export type SessionNotificationStatus = 'NO_ACTIVE_SESSION' | 'SESSION_IS_CONFIRMED' | 'NEED_TO_CONFIRM_SESSION'

export interface SessionNotification {
  status: SessionNotificationStatus
  intervalMinutes: number | null
  /** Whole minutes since the login. */
  minutesPlayed: number
  /** When the next confirmation is due (ms, server clock); null without a reminder. */
  nextReminderAt: number | null
}

/** The reminder interval of a jurisdiction, in minutes; undefined where there is none. */
export function sessionReminderInterval(jurisdiction: { regulatory?: Record<string, unknown> } | undefined): number | undefined {
  const regulatory = jurisdiction?.regulatory
  const minutes = regulatory?.sessionReminderIntervalMinutes
  return regulatory?.sessionReminder === true && typeof minutes === 'number' && minutes > 0 ? minutes : undefined
}

const NO_SESSION: SessionNotification = { status: 'NO_ACTIVE_SESSION', intervalMinutes: null, minutesPlayed: 0, nextReminderAt: null }

/** `sessions`: the sessions store (the session's start); `db`: the query layer (the reminders). */
export async function sessionNotification(sessions: DataLayer, db: Kysely<Tables>, sessionId: string | undefined, intervalMinutes: number | undefined, now: number): Promise<SessionNotification> {
  if (!sessionId || intervalMinutes === undefined) return { ...NO_SESSION, intervalMinutes: intervalMinutes ?? null }
  const startedAt = await sessionStartedAt(sessions, sessionId)
  if (startedAt === undefined) return NO_SESSION
  const confirmed = await db.selectFrom('regulation_session_reminders').select('confirmed_at').where('session_id', '=', sessionId).executeTakeFirst()
  const due = (confirmed?.confirmed_at ?? startedAt) + intervalMinutes * 60_000
  return {
    status: now >= due ? 'NEED_TO_CONFIRM_SESSION' : 'SESSION_IS_CONFIRMED',
    intervalMinutes,
    minutesPlayed: Math.floor(Math.max(0, now - startedAt) / 60_000),
    nextReminderAt: due,
  }
}

export async function confirmSession(db: Kysely<Tables>, sessionId: string, now: number): Promise<void> {
  await db
    .insertInto('regulation_session_reminders')
    .values({ session_id: sessionId, confirmed_at: now })
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ confirmed_at: now }))
    .execute()
}
