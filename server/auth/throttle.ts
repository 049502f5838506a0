/**
 * Failed-login throttling (ASVS 2.2.1, NIST 800-63B 5.2.2).
 *
 * Only failures count: a wrong password (or an unknown login) is recorded per login identifier,
 * per account (all its identifiers together) and per client address. Past CAPTCHA_AFTER failures
 * of the identifier or of the client inside the captcha window, a login needs a solved
 * proof-of-work captcha; an unsolved or invalid captcha is refused before anything is checked or
 * counted. Past LOCK_AFTER failures of the identifier or of the account inside the lock window,
 * the login answers like a wrong password even with the right one; attempts while locked are not
 * counted, so the lock ends at most a window after the failures stop, and the owner can lift it
 * at once with the unlock link sent when it engaged (./unlock.ts).
 *
 * Attempts on one account (or, for unknown logins, one identifier) run one at a time (`lanes`),
 * so parallel wrong passwords see each other's failures without in-flight attempts counting as
 * failures — parallel right passwords never push each other into the captcha.
 */
import { isIPv6 } from 'node:net'
import type { Generated, Kysely } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Tables } from '../db/tables'
import { sha256 } from './sessions'

// The first store on the query layer (issue 16): the same queries on SQLite and PostgreSQL, so
// failures counted by one instance count on all. The raw-SQL migrations below are the history of
// existing SQLite files; the schema step after them is the table on both engines.

export const sqlite103AuthFailures = sqliteHistory(
  '103-auth-failures',
  `CREATE TABLE auth_failures (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     scope TEXT NOT NULL CHECK (scope IN ('login', 'ip')),
     key TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   CREATE INDEX auth_failures_key ON auth_failures(scope, key, at);`,
)

export const sqlite106AuthLoginFailures = sqliteHistory(
  '106-auth-login-failures',
  `CREATE TABLE auth_login_failures (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     scope TEXT NOT NULL CHECK (scope IN ('login', 'account', 'client')),
     key TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   INSERT INTO auth_login_failures (scope, key, at) SELECT CASE scope WHEN 'ip' THEN 'client' ELSE scope END, key, at FROM auth_failures;
   DROP TABLE auth_failures;
   CREATE INDEX auth_login_failures_key ON auth_login_failures(scope, key, at);
   CREATE INDEX auth_login_failures_at ON auth_login_failures(at);`,
)

const SCOPES = ['login', 'account', 'client'] as const
type Scope = (typeof SCOPES)[number]

interface LoginFailureTable {
  id: Generated<number>
  scope: Scope
  /** SHA-256 of the scope's subject (the identifier, the account id, the client's address or /64). */
  key: string
  at: number
}

declare module '../db/tables' {
  interface Tables {
    auth_login_failures: LoginFailureTable
  }
}

export const q001AuthLoginFailures = schemaStep('q001-auth-login-failures', async (db, engine) => {
  await db.schema
    .createTable('auth_login_failures')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('scope', 'text', (c) => c.notNull().check(oneOf('scope', SCOPES)))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('auth_login_failures_key').ifNotExists().on('auth_login_failures').columns(['scope', 'key', 'at']).execute()
  await db.schema.createIndex('auth_login_failures_at').ifNotExists().on('auth_login_failures').column('at').execute()
})

export const THROTTLE = {
  /** Failures of one identifier or one client before the captcha is needed. */
  captchaAfter: 5,
  captchaWindowMs: 15 * 60_000,
  /** Failures of one identifier or one account before the lock (ASVS 2.2.1: at most 100 an hour). */
  lockAfter: 20,
  lockWindowMs: 60 * 60_000,
} as const

/** Who an attempt is about: the identifier as typed (classified), the account if any, the client. */
export interface AttemptKeys {
  login: string
  accountId?: number
  client: string
}

export interface ThrottleState {
  loginFailures: number
  clientFailures: number
  loginFailuresLockWindow: number
  accountFailuresLockWindow: number
}

/** IPv6 clients are counted by their /64: one subscriber usually holds the whole block. */
export function clientAddress(ip: string): string {
  const plain = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '')
  if (!isIPv6(plain)) return plain
  const [head, tail = ''] = plain.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = plain.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  return groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':') + '::/64'
}

const keyOf = {
  login: (login: string) => sha256('login:' + login.toLowerCase()),
  account: (accountId: number) => sha256('account:' + accountId),
  client: (ip: string) => sha256('ip:' + clientAddress(ip)),
}

/** Failures are kept as long as the longer window needs them. */
const KEEP_MS = Math.max(THROTTLE.captchaWindowMs, THROTTLE.lockWindowMs)

/** The four counts in one query: per scope, failures inside the captcha window and inside the lock window. */
export async function throttleState(db: Kysely<Tables>, keys: AttemptKeys, now: number): Promise<ThrottleState> {
  const captchaSince = now - THROTTLE.captchaWindowMs
  const lockSince = now - THROTTLE.lockWindowMs
  const subjects: [Scope, string][] = [
    ['login', keyOf.login(keys.login)],
    ['client', keyOf.client(keys.client)],
  ]
  if (keys.accountId !== undefined) subjects.push(['account', keyOf.account(keys.accountId)])
  const rows = await db
    .selectFrom('auth_login_failures')
    .select((eb) => [
      'scope',
      eb.fn.sum<number>(eb.case().when('at', '>', captchaSince).then(1).else(0).end()).as('captchaWindow'),
      eb.fn.sum<number>(eb.case().when('at', '>', lockSince).then(1).else(0).end()).as('lockWindow'),
    ])
    .where((eb) => eb.or(subjects.map(([scope, key]) => eb.and([eb('scope', '=', scope), eb('key', '=', key)]))))
    .where('at', '>', Math.min(captchaSince, lockSince))
    .groupBy('scope')
    .execute()
  const count = (scope: Scope, window: 'captchaWindow' | 'lockWindow') => Number(rows.find((r) => r.scope === scope)?.[window] ?? 0)
  return {
    loginFailures: count('login', 'captchaWindow'),
    clientFailures: count('client', 'captchaWindow'),
    loginFailuresLockWindow: count('login', 'lockWindow'),
    accountFailuresLockWindow: count('account', 'lockWindow'),
  }
}

export const needsCaptcha = (state: ThrottleState) => state.loginFailures >= THROTTLE.captchaAfter || state.clientFailures >= THROTTLE.captchaAfter
export const isLocked = (state: ThrottleState) => state.loginFailuresLockWindow >= THROTTLE.lockAfter || state.accountFailuresLockWindow >= THROTTLE.lockAfter

/**
 * Records one failure on every scope at once; true when it is the failure that locks the account.
 * Serialised per account (or per unknown identifier) across instances, so exactly one failure
 * sees the count reach the lock and exactly one unlock link is sent.
 */
export async function recordFailure(data: DataLayer, keys: AttemptKeys, now: number): Promise<{ lockedNow: boolean }> {
  const rows: { scope: Scope; key: string; at: number }[] = [
    { scope: 'login', key: keyOf.login(keys.login), at: now },
    { scope: 'client', key: keyOf.client(keys.client), at: now },
  ]
  if (keys.accountId !== undefined) rows.push({ scope: 'account', key: keyOf.account(keys.accountId), at: now })
  const subject = keys.accountId !== undefined ? rows[2].key : rows[0].key
  return data.transaction(
    async (tx) => {
      await tx.deleteFrom('auth_login_failures').where('at', '<=', now - KEEP_MS).execute()
      await tx.insertInto('auth_login_failures').values(rows).execute()
      const state = await throttleState(tx, keys, now)
      const lockedNow = keys.accountId !== undefined && (state.accountFailuresLockWindow === THROTTLE.lockAfter || state.loginFailuresLockWindow === THROTTLE.lockAfter)
      return { lockedNow }
    },
    { serialiseOn: 'auth-failures:' + subject },
  )
}

/** A right password: forget the identifier's and the account's failures (not the client's). */
export function clearFailures(db: Kysely<Tables>, keys: AttemptKeys): Promise<void> {
  return clearAccountFailures(db, keys.accountId, [keys.login])
}

/** Lifts a lock: the account's failures and those of each of its identifiers (one statement). */
export async function clearAccountFailures(db: Kysely<Tables>, accountId: number | undefined, logins: string[]): Promise<void> {
  const loginKeys = logins.map(keyOf.login)
  await db
    .deleteFrom('auth_login_failures')
    .where((eb) => {
      const scopes = [eb.and([eb('scope', '=', 'login'), eb('key', 'in', loginKeys.length ? loginKeys : [''])])]
      if (accountId !== undefined) scopes.push(eb.and([eb('scope', '=', 'account'), eb('key', '=', keyOf.account(accountId))]))
      return eb.or(scopes)
    })
    .execute()
}

/** Runs tasks of one key one after another (tasks of different keys in parallel). One process. */
export function createLanes() {
  const tails = new Map<string, Promise<unknown>>()
  return function inLane<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve()
    const run = previous.then(task, task)
    const tail = run.catch(() => undefined)
    tails.set(key, tail)
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key)
    })
    return run
  }
}
