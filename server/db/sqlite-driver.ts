/**
 * The query layer's SQLite driver (issue 30 item 4): a write waits for the file's lock WITHOUT
 * blocking the event loop, and a read never waits behind a write.
 *
 * better-sqlite3 is synchronous. With a 5 s busy_timeout, a write blocked by another process (a
 * second instance on the same file, a backup holding the lock) froze the whole process for up to
 * 5 s per write: /ping.json took 10.4 s. Now:
 * - the writer's busy_timeout is a slice of BUSY_SLICE_MS; a write takes the file's write lock with
 *   BEGIN IMMEDIATE and, while another connection holds it, tries again on a timer (backing off to
 *   MAX_PAUSE_MS) until its bound (`boundMs()`: the data layer's lock timeout, 5 s, longer while
 *   the instance starts), then fails with SQLITE_BUSY, which answers 503 STORAGE_UNAVAILABLE;
 * - a statement outside a transaction that only reads runs at once on a second, read-only
 *   connection (WAL: a reader sees the last commit and never waits for the writer);
 * - a write outside a transaction runs in an IMMEDIATE transaction of its own (the same wait);
 * - one transaction at a time on the writer (a queue, as Kysely's own SQLite driver has): its
 *   statements run between awaits, and nothing else may land inside it;
 * - a rollback after SQLite already ended the transaction itself (SQLITE_FULL, IOERR, …) is skipped,
 *   so the caller sees the storage error, not "cannot rollback - no transaction is active".
 * An in-memory or read-only database has no second connection: its reads take the queue, as before.
 */
import Database from 'better-sqlite3'
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'
import type { Db } from './database'

/** How long one attempt may block the event loop waiting for a lock inside SQLite. */
export const BUSY_SLICE_MS = 10
/** The longest pause between two attempts at the write lock. */
const MAX_PAUSE_MS = 50

const isBusy = (error: unknown) => /^SQLITE_BUSY/.test(String((error as { code?: unknown } | null)?.code))
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** A FIFO lock: the writer serves one transaction (or one lone write) at a time. */
class Queue {
  #tail: Promise<void> = Promise.resolve()
  acquire(): Promise<() => void> {
    let release!: () => void
    const turn = new Promise<void>((done) => (release = done))
    const ready = this.#tail.then(() => release)
    this.#tail = this.#tail.then(() => turn)
    return ready
  }
}

function run<R>(statement: Database.Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] }
  const { changes, lastInsertRowid } = statement.run(parameters)
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
}

export class SqliteFileDriver implements Driver {
  readonly reader: Db | undefined
  readonly queue = new Queue()

  constructor(
    readonly writer: Db,
    readonly boundMs: () => number,
  ) {
    writer.pragma(`busy_timeout = ${BUSY_SLICE_MS}`)
    this.reader = writer.memory || writer.readonly ? undefined : new Database(writer.name, { readonly: true, fileMustExist: true })
    this.reader?.pragma(`busy_timeout = ${BUSY_SLICE_MS}`)
  }

  /** BEGIN IMMEDIATE, tried again on a timer while another connection holds the lock, until the bound. */
  async takeWriteLock(deadline: number): Promise<void> {
    for (let wait = 1; ; wait = Math.min(wait * 2, MAX_PAUSE_MS)) {
      try {
        this.writer.exec('BEGIN IMMEDIATE')
        return
      } catch (error) {
        if (!isBusy(error) || Date.now() + wait > deadline) throw error
      }
      await pause(wait)
    }
  }

  /** Rolls back what SQLite has not already rolled back itself. */
  rollback(): void {
    if (this.writer.inTransaction) this.writer.exec('ROLLBACK')
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<FileConnection> {
    return new FileConnection(this)
  }
  async beginTransaction(connection: FileConnection): Promise<void> {
    await connection.begin()
  }
  async commitTransaction(): Promise<void> {
    this.writer.exec('COMMIT')
  }
  async rollbackTransaction(): Promise<void> {
    this.rollback()
  }
  async releaseConnection(connection: FileConnection): Promise<void> {
    connection.release()
  }
  /** The writer is ./database.ts's to close; the reader is this driver's. */
  async destroy(): Promise<void> {
    if (this.reader?.open) this.reader.close()
  }
}

/** One use of the database: a transaction (it holds the writer) or single statements. */
class FileConnection implements DatabaseConnection {
  #release: (() => void) | undefined
  constructor(private readonly driver: SqliteFileDriver) {}

  /** Takes the writer (after the transactions before it) and the file's write lock. */
  async begin(): Promise<void> {
    const deadline = Date.now() + this.driver.boundMs()
    const release = await this.driver.queue.acquire()
    try {
      await this.driver.takeWriteLock(deadline)
    } catch (error) {
      release()
      throw error
    }
    this.#release = release
  }

  release(): void {
    this.#release?.()
    this.#release = undefined
  }

  async executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    const { writer, reader } = this.driver
    if (this.#release) return run<R>(writer.prepare(sql), parameters)
    const onReader = reader?.prepare(sql)
    if (onReader?.readonly) return run<R>(onReader, parameters)
    const statement = writer.prepare(sql)
    if (statement.readonly) {
      const release = await this.driver.queue.acquire()
      try {
        return run<R>(statement, parameters)
      } finally {
        release()
      }
    }
    await this.begin()
    try {
      const result = run<R>(statement, parameters)
      writer.exec('COMMIT')
      return result
    } catch (error) {
      this.driver.rollback()
      throw error
    } finally {
      this.release()
    }
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiledQuery)
  }
}
