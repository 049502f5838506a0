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
import { registerMigration, type Db } from '../db/database'
import { sha256 } from './sessions'

registerMigration(
  '103-auth-failures',
  `CREATE TABLE auth_failures (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     scope TEXT NOT NULL CHECK (scope IN ('login', 'ip')),
     key TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   CREATE INDEX auth_failures_key ON auth_failures(scope, key, at);`,
)

registerMigration(
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

function countSince(db: Db, scope: string, key: string, since: number): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM auth_login_failures WHERE scope = ? AND key = ? AND at > ?').get(scope, key, since) as { n: number }).n
}

export function throttleState(db: Db, keys: AttemptKeys, now: number): ThrottleState {
  const captchaSince = now - THROTTLE.captchaWindowMs
  const lockSince = now - THROTTLE.lockWindowMs
  return {
    loginFailures: countSince(db, 'login', keyOf.login(keys.login), captchaSince),
    clientFailures: countSince(db, 'client', keyOf.client(keys.client), captchaSince),
    loginFailuresLockWindow: countSince(db, 'login', keyOf.login(keys.login), lockSince),
    accountFailuresLockWindow: keys.accountId === undefined ? 0 : countSince(db, 'account', keyOf.account(keys.accountId), lockSince),
  }
}

export const needsCaptcha = (state: ThrottleState) => state.loginFailures >= THROTTLE.captchaAfter || state.clientFailures >= THROTTLE.captchaAfter
export const isLocked = (state: ThrottleState) => state.loginFailuresLockWindow >= THROTTLE.lockAfter || state.accountFailuresLockWindow >= THROTTLE.lockAfter

/** Records one failure on every scope at once; true when it is the failure that locks the account. */
export function recordFailure(db: Db, keys: AttemptKeys, now: number): { lockedNow: boolean } {
  const insert = db.prepare('INSERT INTO auth_login_failures (scope, key, at) VALUES (?, ?, ?)')
  return db.transaction(() => {
    db.prepare('DELETE FROM auth_login_failures WHERE at <= ?').run(now - Math.max(THROTTLE.captchaWindowMs, THROTTLE.lockWindowMs))
    insert.run('login', keyOf.login(keys.login), now)
    insert.run('client', keyOf.client(keys.client), now)
    if (keys.accountId !== undefined) insert.run('account', keyOf.account(keys.accountId), now)
    const state = throttleState(db, keys, now)
    const lockedNow = keys.accountId !== undefined && (state.accountFailuresLockWindow === THROTTLE.lockAfter || state.loginFailuresLockWindow === THROTTLE.lockAfter)
    return { lockedNow }
  })()
}

/** A right password: forget the identifier's and the account's failures (not the client's). */
export function clearFailures(db: Db, keys: AttemptKeys): void {
  clearAccountFailures(db, keys.accountId, [keys.login])
}

/** Lifts a lock: the account's failures and those of each of its identifiers. */
export function clearAccountFailures(db: Db, accountId: number | undefined, logins: string[]): void {
  const remove = db.prepare('DELETE FROM auth_login_failures WHERE scope = ? AND key = ?')
  db.transaction(() => {
    for (const login of logins) remove.run('login', keyOf.login(login))
    if (accountId !== undefined) remove.run('account', keyOf.account(accountId))
  })()
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
