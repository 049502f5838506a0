/**
 * Which PostgreSQL errors mean "the store cannot serve right now" (answered 503 STORAGE_UNAVAILABLE
 * with Retry-After, never a 500), beside SQLite's in ./database.ts.
 *
 * Only errors that came out of the query layer's PostgreSQL pool count (./data-layer.ts tags them):
 * a connection refused by some other service is not a storage fault.
 */

/** Set by the data layer on every error raised by the PostgreSQL pool or one of its connections. */
export const FROM_POSTGRES = Symbol.for('parlay.storage.postgres')

/**
 * SQLSTATE classes and codes: 08 connection exceptions, 53 insufficient resources (too many
 * connections, disk full, out of memory), 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
 * connect now (starting up or in recovery), 58 system errors (I/O), 25006 a read-only transaction
 * (a hot standby, or a primary made read-only: `default_transaction_read_only`, PostgreSQL's
 * counterpart of SQLITE_READONLY; found by tests/http/storage.test.ts in the PostgreSQL pass, where
 * it was a 500), 55P03 lock_not_available (a lock held longer than `lock_timeout`, ./data-layer.ts:
 * PostgreSQL's counterpart of SQLITE_BUSY).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|25006|53...|55P03|57P0[123]|58...)$/
/** The network failing under the pool: refused, reset, timed out, a socket that vanished. */
const UNAVAILABLE_NETWORK = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOENT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND)$/
/** pg's own messages for a connection lost mid-query or a pool that could not connect in time. */
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed/i

export function tagPostgresError(error: unknown): unknown {
  if (error && typeof error === 'object') Object.defineProperty(error, FROM_POSTGRES, { value: true, enumerable: false })
  return error
}

/** Does this PostgreSQL error mean the database cannot serve (503), rather than a bug (500)? */
export function isPostgresUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !(error as Record<symbol, unknown>)[FROM_POSTGRES]) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NETWORK.test(code))) return true
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)
}

/**
 * Did a unique index refuse the write, on either engine? The index is the final guard where two
 * instances check the same name at once (a nickname, an e-mail): the loser's write fails with
 * this, and the caller answers the same clear code its own check would have. SQLite: the
 * constraint codes of better-sqlite3; PostgreSQL: SQLSTATE 23505 (unique_violation).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
