/**
 * The short-lived confirmation tokens a refused login hands out (an unconfirmed e-mail or phone):
 * the sign-up confirmation flow exchanges one to resend or confirm. Their table, issue and use;
 * in a file of their own so the login handlers (./login.ts) and the sign-up e-mail routes use them
 * without importing the router (./router.ts re-exports them).
 */
import { randomBytes } from 'node:crypto'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory } from '../db/schema'
import { sha256 } from './sessions'

export const sqlite105AuthConfirmationTokens = sqliteHistory(
  '105-auth-confirmation-tokens',
  `CREATE TABLE auth_confirmation_tokens (
     token_sha256 TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     kind TEXT NOT NULL CHECK (kind IN ('email', 'phone')),
     expires_at INTEGER NOT NULL
   );`,
)

declare module '../db/tables' {
  interface Tables {
    auth_confirmation_tokens: { token_sha256: string; punter_id: number; kind: 'email' | 'phone'; expires_at: number }
  }
}

// The punter id is not a foreign key here: on PostgreSQL the punters may live elsewhere until
// their store moves (server/db/README.md); SQLite files keep the key their history made.
export const q061AuthConfirmationTokens = schemaStep('q061-auth-confirmation-tokens', async (db) => {
  await db.schema
    .createTable('auth_confirmation_tokens')
    .ifNotExists()
    .addColumn('token_sha256', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['email', 'phone'])))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
})

const CONFIRMATION_TOKEN_MS = 30 * 60_000

/** A short-lived token the confirmation flow (sign-up) exchanges to resend or confirm. */
export async function issueConfirmationToken(data: DataLayer, punterId: number, kind: 'email' | 'phone', now: number): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  await data.db.insertInto('auth_confirmation_tokens').values({ token_sha256: sha256(token), punter_id: punterId, kind, expires_at: now + CONFIRMATION_TOKEN_MS }).execute()
  return token
}

/**
 * Uses up a confirmation token; the punter id it was for, if valid. One conditional delete that
 * hands back the row it removed: of two uses at once, on one instance or two, only the one whose
 * delete removed the row gets the punter (a token of another kind, or expired, is spent all the same).
 */
export async function consumeConfirmationToken(data: DataLayer, token: string, kind: 'email' | 'phone', now: number): Promise<number | undefined> {
  const row = await data.db.deleteFrom('auth_confirmation_tokens').where('token_sha256', '=', sha256(token)).returning(['punter_id', 'kind', 'expires_at']).executeTakeFirst()
  return row && row.kind === kind && row.expires_at > now ? Number(row.punter_id) : undefined
}

/** Forgets a punter's confirmation tokens (a sign-up undone because its mail could not go out). */
export async function dropConfirmationTokens(data: DataLayer, punterId: number): Promise<void> {
  await data.db.deleteFrom('auth_confirmation_tokens').where('punter_id', '=', punterId).execute()
}
