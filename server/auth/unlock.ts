/**
 * The owner's way out of a login lock (ASVS 2.2.1: a lock must not become a denial of service).
 * When failures lock an account, its owner gets one single-use unlock link through the message
 * sender (e-mail, else SMS); opening it clears the account's failures and those of each of its
 * identifiers, so the owner can log in at once while whoever caused the lock cannot.
 *
 * One link per lock: while an unused, unexpired link exists no other is sent, so failed logins
 * cannot be used to flood the owner's inbox or to pump SMS.
 *
 * On the query layer (issue 16): a link issued by one instance is the one link on all, and a link
 * opened on one is spent on all, on SQLite or PostgreSQL.
 */
import { randomBytes } from 'node:crypto'
import { type Db } from '../db/database'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Logger } from '../log'
import type { Punter } from '../punters/repository'
import type { MessageSender } from '../signup/outbox'
import { sha256 } from './sessions'
import { clearAccountFailures } from './throttle'

export const sqlite107AuthUnlockTokens = sqliteHistory(
  '107-auth-unlock-tokens',
  `CREATE TABLE auth_unlock_tokens (
     token_sha256 TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX auth_unlock_tokens_punter ON auth_unlock_tokens(punter_id, expires_at);`,
)

declare module '../db/tables' {
  interface Tables {
    auth_unlock_tokens: { token_sha256: string; punter_id: number; expires_at: number }
  }
}

// The punter id is not a foreign key here: on PostgreSQL the punters may live elsewhere until
// their store moves (server/db/README.md); SQLite files keep the key their history made.
export const q014AuthUnlockTokens = schemaStep('q014-auth-unlock-tokens', async (db) => {
  await db.schema
    .createTable('auth_unlock_tokens')
    .ifNotExists()
    .addColumn('token_sha256', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('auth_unlock_tokens_punter').ifNotExists().on('auth_unlock_tokens').columns(['punter_id', 'expires_at']).execute()
})

/** An unlock link stays valid a day: the owner may read the message long after the lock. */
export const UNLOCK_TOKEN_MS = 24 * 3_600_000

const senders = new WeakMap<Db, MessageSender>()

/** The sign-up module registers its sender here, so the accounts module sends through the same one. */
export function useMessageSender(db: Db, sender: MessageSender): void {
  senders.set(db, sender)
}

/** The message sender the sign-up module registered for this database, if any (credential messages use it too). */
export function messageSenderFor(db: Db): MessageSender | undefined {
  return senders.get(db)
}

/** Every identifier a punter can log in with, as the login call classifies them. */
export function loginIdentifiers(punter: Pick<Punter, 'email' | 'phone' | 'accountNumber' | 'nickname'>): string[] {
  return [
    punter.email && `email:${punter.email}`,
    punter.phone && `phone_number:${punter.phone}`,
    `account_number:${punter.accountNumber}`,
    punter.nickname && `nickname:${punter.nickname}`,
  ].filter((id): id is string => typeof id === 'string')
}

/** The unlock message: the e-mail's subject and body, and the SMS (no e-mail address); each carries the link. */
export interface UnlockMessage {
  subject: string
  email: string
  sms: string
}

/** Issues and sends the unlock link, worded by `compose` (in the owner's language), unless one is
 * pending; false when nothing was sent. */
export async function sendUnlockLink(
  deps: { db: Db; data: DataLayer; log: Logger; now: () => number },
  punter: Punter,
  linkBase: string,
  compose: (link: string) => UnlockMessage,
): Promise<boolean> {
  const { db, data, log } = deps
  const now = deps.now()
  const sender = senders.get(db)
  const to = punter.email ?? punter.phone
  if (!sender || !to) {
    log.warn('auth.unlock.unsendable', { punterId: punter.id, reason: sender ? 'no-contact' : 'no-sender' })
    return false
  }
  const token = randomBytes(24).toString('base64url')
  // one pending link per punter, whichever instance saw the lock: serialised on the punter
  const issued = await data.transaction(
    async (tx) => {
      await tx.deleteFrom('auth_unlock_tokens').where('expires_at', '<=', now).execute()
      if (await tx.selectFrom('auth_unlock_tokens').select('punter_id').where('punter_id', '=', punter.id).executeTakeFirst()) return false
      await tx.insertInto('auth_unlock_tokens').values({ token_sha256: sha256(token), punter_id: punter.id, expires_at: now + UNLOCK_TOKEN_MS }).execute()
      return true
    },
    { serialiseOn: 'auth-unlock:' + punter.id },
  )
  if (!issued) return false
  const link = `${linkBase}?token=${encodeURIComponent(token)}`
  const message = compose(link)
  const body = punter.email ? message.email : message.sms
  try {
    await sender.send({ channel: punter.email ? 'email' : 'sms', to, body, subject: message.subject, jurisdiction: punter.jurisdiction })
    log.info('auth.unlock.sent', { punterId: punter.id, channel: punter.email ? 'email' : 'sms' })
    return true
  } catch (error) {
    log.error('auth.unlock.send-failed', { punterId: punter.id, error: (error as Error).message })
    await data.db.deleteFrom('auth_unlock_tokens').where('token_sha256', '=', sha256(token)).execute()
    return false
  }
}

/**
 * Uses up an unlock token: clears the lock of its punter; the punter id, if the token was valid.
 * The lock is lifted before the token is spent (recipe step 6 of server/db/README.md: the punter
 * it names is read from another store, the idempotent clearing comes first, the single use last):
 * if lifting fails the link still works, and two uses at once lift it once each but only one of
 * them spends the token.
 */
export async function useUnlockToken(
  deps: { data: DataLayer; now: () => number },
  token: string,
  punterOf: (id: number) => Punter | undefined | Promise<Punter | undefined>,
): Promise<number | undefined> {
  const { db } = deps.data
  const hash = sha256(token)
  const row = await db.selectFrom('auth_unlock_tokens').select(['punter_id', 'expires_at']).where('token_sha256', '=', hash).executeTakeFirst()
  const punter = row && row.expires_at > deps.now() ? await punterOf(Number(row.punter_id)) : undefined
  if (!punter) {
    if (row) await db.deleteFrom('auth_unlock_tokens').where('token_sha256', '=', hash).execute() // expired: gone, as before
    return undefined
  }
  await clearAccountFailures(db, punter.id, loginIdentifiers(punter))
  const spent = await db.deleteFrom('auth_unlock_tokens').where('token_sha256', '=', hash).executeTakeFirst()
  return Number(spent.numDeletedRows) === 1 ? punter.id : undefined
}
