/**
 * A read of the sessions store that the regulation store needs (issue 16: no store's SQL crosses
 * into another store's tables). On the query layer with the rest of the sessions store
 * (./sessions.ts), so it answers the same on every instance.
 */
import type { DataLayer } from '../db/data-layer'

/** When a login session began (ms), or undefined when there is no such session. */
export async function sessionStartedAt(data: DataLayer, sessionId: string): Promise<number | undefined> {
  const row = await data.db.selectFrom('auth_sessions').select('created_at').where('id', '=', sessionId).executeTakeFirst()
  return row?.created_at
}
