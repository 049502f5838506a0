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
 */
import { registerMigration, type Db } from '../db/database'
import { emitPunterEvent } from '../punters/events'
import { findPunterById, type Punter } from '../punters/repository'

registerMigration(
  '602-regulation-session-reminders',
  `CREATE TABLE regulation_session_reminders (
     session_id TEXT PRIMARY KEY,
     confirmed_at INTEGER NOT NULL
   );`,
)

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

function saveAlert(db: Db, punter: Punter, alert: NonNullable<Punter['profile']['regulationAlert']>, now: number): void {
  db.prepare('UPDATE punters SET profile = ?, updated_at = ? WHERE id = ?').run(JSON.stringify({ ...punter.profile, regulationAlert: alert }), now, punter.id)
}

/** Raises an alert for the punter (replacing an older one); shown until confirmed. The punter's
 * open pages get it at once as the socket's `regulationAlert` (the same figures as notification/info),
 * not at their next minute's ask. */
export function raiseRegulationAlert(db: Db, punterId: number, figures: Omit<NotificationInfo, 'status'>, now: number): void {
  const punter = findPunterById(db, punterId)
  if (!punter) return
  saveAlert(db, punter, { status: 'NEED_TO_CONFIRM', ...figures, raisedAt: now, confirmedAt: null }, now)
  const { spentHours, totalBetMinUnit, totalLostMinUnit } = figures
  emitPunterEvent('regulationAlert', { punterId, notificationInfo: { status: 'NEED_TO_CONFIRM', spentHours, totalBetMinUnit, totalLostMinUnit } })
}

/** The punter confirms the alert; confirming twice (a double tap) changes nothing. */
export function confirmRegulationAlert(db: Db, punter: Punter, now: number): NotificationInfo {
  const alert = punter.profile.regulationAlert
  if (alert && alert.confirmedAt === null) saveAlert(db, punter, { ...alert, status: 'CONFIRMED', confirmedAt: now }, now)
  return notificationInfo(findPunterById(db, punter.id)!)
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

export function sessionNotification(db: Db, sessionId: string | undefined, intervalMinutes: number | undefined, now: number): SessionNotification {
  if (!sessionId || intervalMinutes === undefined) return { ...NO_SESSION, intervalMinutes: intervalMinutes ?? null }
  const session = db.prepare('SELECT created_at FROM auth_sessions WHERE id = ?').get(sessionId) as { created_at: number } | undefined
  if (!session) return NO_SESSION
  const confirmed = db.prepare('SELECT confirmed_at FROM regulation_session_reminders WHERE session_id = ?').get(sessionId) as { confirmed_at: number } | undefined
  const due = (confirmed?.confirmed_at ?? session.created_at) + intervalMinutes * 60_000
  return {
    status: now >= due ? 'NEED_TO_CONFIRM_SESSION' : 'SESSION_IS_CONFIRMED',
    intervalMinutes,
    minutesPlayed: Math.floor(Math.max(0, now - session.created_at) / 60_000),
    nextReminderAt: due,
  }
}

export function confirmSession(db: Db, sessionId: string, now: number): void {
  db.prepare('INSERT INTO regulation_session_reminders (session_id, confirmed_at) VALUES (?, ?) ON CONFLICT(session_id) DO UPDATE SET confirmed_at = excluded.confirmed_at').run(sessionId, now)
}
