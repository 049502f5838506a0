/**
 * The owner's way out of a login lock (ASVS 2.2.1: a lock must not become a denial of service).
 * When failures lock an account, its owner gets one single-use unlock link through the message
 * sender (e-mail, else SMS); opening it clears the account's failures and those of each of its
 * identifiers, so the owner can log in at once while whoever caused the lock cannot.
 *
 * One link per lock: while an unused, unexpired link exists no other is sent, so failed logins
 * cannot be used to flood the owner's inbox or to pump SMS.
 */
import { randomBytes } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'
import type { DataLayer } from '../db/data-layer'
import type { Logger } from '../log'
import type { Punter } from '../punters/repository'
import type { MessageSender } from '../signup/outbox'
import { sha256 } from './sessions'
import { unlockMessage } from './unlock-messages'
import { clearAccountFailures } from './throttle'

registerMigration(
  '107-auth-unlock-tokens',
  `CREATE TABLE auth_unlock_tokens (
     token_sha256 TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX auth_unlock_tokens_punter ON auth_unlock_tokens(punter_id, expires_at);`,
)

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

/** Issues and sends the unlock link, in `locale` (the owner's language), unless one is pending;
 * false when nothing was sent. */
export async function sendUnlockLink(
  deps: { db: Db; log: Logger; now: () => number },
  punter: Punter,
  linkBase: string,
  locale = 'en',
): Promise<boolean> {
  const { db, log } = deps
  const now = deps.now()
  const sender = senders.get(db)
  const to = punter.email ?? punter.phone
  if (!sender || !to) {
    log.warn('auth.unlock.unsendable', { punterId: punter.id, reason: sender ? 'no-contact' : 'no-sender' })
    return false
  }
  const token = randomBytes(24).toString('base64url')
  const issued = db.transaction(() => {
    db.prepare('DELETE FROM auth_unlock_tokens WHERE expires_at <= ?').run(now)
    if (db.prepare('SELECT 1 FROM auth_unlock_tokens WHERE punter_id = ?').get(punter.id)) return false
    db.prepare('INSERT INTO auth_unlock_tokens (token_sha256, punter_id, expires_at) VALUES (?, ?, ?)').run(sha256(token), punter.id, now + UNLOCK_TOKEN_MS)
    return true
  })()
  if (!issued) return false
  const link = `${linkBase}?token=${encodeURIComponent(token)}`
  const message = unlockMessage(locale, link)
  const body = punter.email ? message.email : message.sms
  try {
    await sender.send({ channel: punter.email ? 'email' : 'sms', to, body, subject: message.subject, jurisdiction: punter.jurisdiction })
    log.info('auth.unlock.sent', { punterId: punter.id, channel: punter.email ? 'email' : 'sms' })
    return true
  } catch (error) {
    log.error('auth.unlock.send-failed', { punterId: punter.id, error: (error as Error).message })
    db.prepare('DELETE FROM auth_unlock_tokens WHERE token_sha256 = ?').run(sha256(token))
    return false
  }
}

/**
 * Uses up an unlock token: clears the lock of its punter; the punter id, if the token was valid.
 * The lock is lifted before the token is spent (the failures live in the query layer, the tokens
 * in SQLite): if lifting fails the link still works, and two uses at once lift it once each but
 * only one of them spends the token.
 */
export async function useUnlockToken(
  deps: { db: Db; data: DataLayer; now: () => number },
  token: string,
  punterOf: (id: number) => Punter | undefined,
): Promise<number | undefined> {
  const { db } = deps
  const hash = sha256(token)
  const row = db.prepare('SELECT punter_id, expires_at FROM auth_unlock_tokens WHERE token_sha256 = ?').get(hash) as { punter_id: number; expires_at: number } | undefined
  const punter = row && row.expires_at > deps.now() ? punterOf(row.punter_id) : undefined
  if (!punter) {
    if (row) db.prepare('DELETE FROM auth_unlock_tokens WHERE token_sha256 = ?').run(hash) // expired: gone, as before
    return undefined
  }
  await clearAccountFailures(deps.data.db, punter.id, loginIdentifiers(punter))
  return db.prepare('DELETE FROM auth_unlock_tokens WHERE token_sha256 = ?').run(hash).changes === 1 ? punter.id : undefined
}
