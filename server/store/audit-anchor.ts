/**
 * What the audit log is checked against from outside the database, so that whoever can write the
 * database file still cannot rewrite or shorten the log unnoticed:
 *
 * - the **key**: every entry's hash is an HMAC under a key the database does not hold —
 *   `PARLAY_AUDIT_KEY` (env, at least 32 characters) or `<data dir>/audit.key` (created on first
 *   start, mode 0600). Editing a row and recomputing the chain needs the key.
 * - the **anchor**: `<data dir>/audit-anchor-<database id>.json` records the entry count and the
 *   head hash, MAC'd with the same key, written (temp file, fsync, rename) in the same step as every
 *   append. Deleting the last entries leaves the anchor pointing past the end of the log. One anchor
 *   per database (the id the database holds, server/db/identity.ts), so a folder moved from SQLite
 *   to PostgreSQL keeps each database's anchor apart and says which one an anchor belongs to.
 *   `audit-anchor.json` is the anchor of earlier versions (no database named): taken over by the
 *   database whose log it matches, on the first start that finds it.
 * - **checkpoints** (./audit-checkpoint.ts) carry the head out of the folder altogether, because
 *   whoever can put back an older anchor together with a shortened log passes both checks above.
 *
 * Crash safety: an append runs inside a database transaction. Before the commit the anchor is
 * written with the new state as `pending` (the committed state stays); after the commit it is
 * written again with the new state committed. A crash between the two leaves an anchor that
 * accepts exactly the two states the database can be in (before or after that transaction), so a
 * crash never reads as tampering and a truncation never reads as a crash.
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, chmodSync, writeFileSync, writeSync } from 'node:fs'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { join } from 'node:path'

export const AUDIT_KEY_FILE = 'audit.key'
/** The anchor of earlier versions, which named no database. */
export const LEGACY_ANCHOR_FILE = 'audit-anchor.json'
const LEGACY_FORMAT = 'parlay-audit-anchor/1'
const ANCHOR_FORMAT = 'parlay-audit-anchor/2'
const ANCHOR_NAME = /^audit-anchor-([0-9a-f-]{36})\.json$/

/** Which database a log lives in: the id it was given at creation, and its engine. */
export interface DatabaseIdentity {
  id: string
  engine: 'sqlite' | 'postgres'
}

/** The anchor file of one database. */
export const anchorFileOf = (databaseId: string) => `audit-anchor-${databaseId}.json`
const MIN_ENV_KEY = 32

export interface AnchorState {
  entries: number
  head: string
}

export interface AnchorRecord {
  /** The database this anchor belongs to; null for an anchor of earlier versions. */
  database: DatabaseIdentity | null
  committed: AnchorState
  /** The state a transaction in flight will commit; null when none is in flight. */
  pending: AnchorState | null
  /** Entries 1..legacyEntries were written before the key existed: checked by plain SHA-256. */
  legacyEntries: number
}

export interface AuditKey {
  key: Buffer
  source: 'env' | 'file'
  /** The key file was created by this call (first start). */
  created: boolean
  /** The key file was readable by others and was narrowed to 0600. */
  narrowed: boolean
}

export class AuditKeyError extends Error {
  override name = 'AuditKeyError'
}

/** The HMAC key: the env variable, else the data dir's key file (created when `create` is set). */
export function loadAuditKey(dataDir: string, options: { create: boolean; env?: NodeJS.ProcessEnv }): AuditKey {
  const fromEnv = (options.env ?? process.env).PARLAY_AUDIT_KEY
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < MIN_ENV_KEY) throw new AuditKeyError(`PARLAY_AUDIT_KEY must be at least ${MIN_ENV_KEY} characters`)
    return { key: Buffer.from(fromEnv, 'utf8'), source: 'env', created: false, narrowed: false }
  }
  const path = join(dataDir, AUDIT_KEY_FILE)
  if (!existsSync(path)) {
    if (!options.create) throw new AuditKeyError(`no audit key: ${path} does not exist and PARLAY_AUDIT_KEY is not set`)
    writeFileSync(path, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' })
    return { key: readKeyFile(path), source: 'file', created: true, narrowed: false }
  }
  const narrowed = (statSync(path).mode & 0o077) !== 0
  if (narrowed && options.create) chmodSync(path, 0o600)
  return { key: readKeyFile(path), source: 'file', created: false, narrowed }
}

function readKeyFile(path: string): Buffer {
  const text = readFileSync(path, 'utf8').trim()
  if (!/^[0-9a-f]{64}$/.test(text)) throw new AuditKeyError(`${path} is not an audit key (64 hex characters)`)
  return Buffer.from(text, 'hex')
}

const macOf = (key: Buffer, record: AnchorRecord) => {
  const fields = [record.committed.entries, record.committed.head, record.pending?.entries ?? null, record.pending?.head ?? null, record.legacyEntries]
  const body = record.database ? [ANCHOR_FORMAT, record.database.id, record.database.engine, ...fields] : [LEGACY_FORMAT, ...fields]
  return createHmac('sha256', key).update(JSON.stringify(body)).digest('hex')
}

export type AnchorRead = { status: 'missing' } | { status: 'altered'; reason: string } | { status: 'ok'; record: AnchorRecord }

/** The anchor of one database in a folder (`database` null: the anchor of earlier versions). */
export function readAnchor(dataDir: string, key: Buffer, database: DatabaseIdentity | null): AnchorRead {
  const name = database ? anchorFileOf(database.id) : LEGACY_ANCHOR_FILE
  const path = join(dataDir, name)
  if (!existsSync(path)) return { status: 'missing' }
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  } catch {
    return { status: 'altered', reason: `${name} is not valid JSON` }
  }
  const record = recordOf(parsed, database)
  if (!record || typeof parsed.mac !== 'string') return { status: 'altered', reason: `${name} is not an audit anchor` }
  if (database && (record.database?.id !== database.id || record.database.engine !== database.engine))
    return { status: 'altered', reason: `${name} names database ${record.database?.id ?? '(none)'} (${record.database?.engine ?? '?'}), not ${database.id} (${database.engine})` }
  const expected = Buffer.from(macOf(key, record), 'hex')
  const given = Buffer.from(parsed.mac, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 'altered', reason: `${name} does not carry a valid MAC (edited, or written under another key)` }
  return { status: 'ok', record }
}

function recordOf(parsed: Record<string, unknown>, database: DatabaseIdentity | null): AnchorRecord | null {
  const state = (v: unknown): AnchorState | null =>
    v !== null && typeof v === 'object' && Number.isInteger((v as AnchorState).entries) && typeof (v as AnchorState).head === 'string'
      ? { entries: (v as AnchorState).entries, head: (v as AnchorState).head }
      : null
  const committed = state(parsed.committed)
  if (parsed.format !== (database ? ANCHOR_FORMAT : LEGACY_FORMAT) || !committed || !Number.isInteger(parsed.legacyEntries)) return null
  const named = parsed.database as Partial<DatabaseIdentity> | undefined
  const identity = database && named && typeof named.id === 'string' && (named.engine === 'sqlite' || named.engine === 'postgres') ? { id: named.id, engine: named.engine } : null
  if (database && !identity) return null
  return { database: identity, committed, pending: state(parsed.pending), legacyEntries: parsed.legacyEntries as number }
}

/** The anchors of other databases kept in a folder (for the message when this database has none). */
export function otherAnchors(dataDir: string, key: Buffer, databaseId: string): Array<{ id: string; engine: string; entries: number | null }> {
  if (!existsSync(dataDir)) return []
  return readdirSync(dataDir).flatMap((name) => {
    const id = ANCHOR_NAME.exec(name)?.[1]
    if (!id || id === databaseId) return []
    let engine = '?'
    try {
      engine = String((JSON.parse(readFileSync(join(dataDir, name), 'utf8')) as { database?: { engine?: string } }).database?.engine ?? '?')
    } catch {
      // unreadable: named without its engine
    }
    const read = engine === 'sqlite' || engine === 'postgres' ? readAnchor(dataDir, key, { id, engine }) : null
    return [{ id, engine, entries: read?.status === 'ok' ? read.record.committed.entries : null }]
  })
}

/** Removes the anchor of earlier versions once a database has taken it over. */
export function dropLegacyAnchor(dataDir: string): void {
  rmSync(join(dataDir, LEGACY_ANCHOR_FILE), { force: true })
}

/** Writes the anchor durably: temp file, fsync, rename over the old one. */
export function writeAnchor(dataDir: string, key: Buffer, record: AnchorRecord): void {
  const path = join(dataDir, record.database ? anchorFileOf(record.database.id) : LEGACY_ANCHOR_FILE)
  const temp = `${path}.${process.pid}.tmp`
  const { database, ...rest } = record
  const body = JSON.stringify({ format: database ? ANCHOR_FORMAT : LEGACY_FORMAT, ...(database ? { database } : {}), ...rest, mac: macOf(key, record) }, null, 2) + '\n'
  const fd = openSync(temp, 'w', 0o600)
  try {
    writeSync(fd, body)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
}
