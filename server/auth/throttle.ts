/**
 * Failed-login throttling (ASVS 2.2.1, NIST 800-63B 5.2.2).
 *
 * Failures are counted per login (whatever it is: existing or not, so counting reveals nothing)
 * and per client IP inside a sliding window. Past CAPTCHA_AFTER failures on either, a login needs a
 * solved proof-of-work captcha; past LOCK_AFTER failures per login within the lock window the
 * login is refused with the wrong-password answer even when the password is right.
 *
 * An attempt is recorded as a failure *before* the password is checked (synchronously, while no
 * other request can run) and withdrawn on success, so N parallel wrong attempts cannot all slip
 * under the limit while the argon2 verifies are in flight.
 */
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

export const THROTTLE = {
  captchaAfter: 5,
  captchaWindowMs: 15 * 60_000,
  lockAfter: 20,
  lockWindowMs: 60 * 60_000,
} as const

export interface ThrottleState {
  loginFailures: number
  ipFailures: number
  loginFailuresLockWindow: number
}

const loginKey = (login: string) => sha256('login:' + login.toLowerCase())
const ipKey = (ip: string) => sha256('ip:' + ip)

export function throttleState(db: Db, login: string, ip: string, now: number): ThrottleState {
  const count = db.prepare('SELECT COUNT(*) AS n FROM auth_failures WHERE scope = ? AND key = ? AND at > ?')
  const n = (scope: string, key: string, window: number) => (count.get(scope, key, now - window) as { n: number }).n
  return {
    loginFailures: n('login', loginKey(login), THROTTLE.captchaWindowMs),
    ipFailures: n('ip', ipKey(ip), THROTTLE.captchaWindowMs),
    loginFailuresLockWindow: n('login', loginKey(login), THROTTLE.lockWindowMs),
  }
}

export const needsCaptcha = (state: ThrottleState) => state.loginFailures >= THROTTLE.captchaAfter || state.ipFailures >= THROTTLE.captchaAfter
export const isLocked = (state: ThrottleState) => state.loginFailuresLockWindow >= THROTTLE.lockAfter

/** Records the attempt as a failure now; returns the row ids to withdraw if it succeeds. */
export function reserveFailure(db: Db, login: string, ip: string, now: number): number[] {
  const insert = db.prepare('INSERT INTO auth_failures (scope, key, at) VALUES (?, ?, ?)')
  return db.transaction(() => [Number(insert.run('login', loginKey(login), now).lastInsertRowid), Number(insert.run('ip', ipKey(ip), now).lastInsertRowid)])()
}

/** A right password: withdraw this attempt and forget the login's earlier failures. */
export function clearFailures(db: Db, login: string, reserved: number[]): void {
  db.transaction(() => {
    for (const id of reserved) db.prepare('DELETE FROM auth_failures WHERE id = ?').run(id)
    db.prepare("DELETE FROM auth_failures WHERE scope = 'login' AND key = ?").run(loginKey(login))
  })()
}

/** Housekeeping: drop rows older than the longest window. */
export function pruneFailures(db: Db, now: number): void {
  db.prepare('DELETE FROM auth_failures WHERE at <= ?').run(now - Math.max(THROTTLE.captchaWindowMs, THROTTLE.lockWindowMs))
}
