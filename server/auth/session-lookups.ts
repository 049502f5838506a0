/**
 * A read of the sessions store that the regulation store needs (issue 16: no store's SQL crosses
 * into another store's tables; while the stores move one by one, sessions may live in another
 * database than the regulation reminders). Belongs to the sessions store and moves with it to the
 * query layer (server/db/stores.ts lists it there). Already async, so the move changes no caller.
 */
import type { Db } from '../db/database'

/** When a login session began (ms), or undefined when there is no such session. */
export async function sessionStartedAt(db: Db, sessionId: string): Promise<number | undefined> {
  const row = db.prepare('SELECT created_at FROM auth_sessions WHERE id = ?').get(sessionId) as { created_at: number } | undefined
  return row?.created_at
}
