/**
 * What the audit log is checked against from outside the database, so that whoever can write the
 * database file still cannot rewrite or shorten the log unnoticed:
 *
 * - the **key**: every entry's hash is an HMAC under a key the database does not hold —
 *   `PARLAY_AUDIT_KEY` (env, at least 32 characters) or `<data dir>/audit.key` (created on first
 *   start, mode 0600). Editing a row and recomputing the chain needs the key.
 * - the **anchor**: `<data dir>/audit-anchor.json` records the entry count and the head hash,
 *   MAC'd with the same key, written (temp file, fsync, rename) in the same step as every append.
 *   Deleting the last entries leaves the anchor pointing past the end of the log.
 *
 * Crash safety: an append runs inside a database transaction. Before the commit the anchor is
 * written with the new state as `pending` (the committed state stays); after the commit it is
 * written again with the new state committed. A crash between the two leaves an anchor that
 * accepts exactly the two states the database can be in (before or after that transaction), so a
 * crash never reads as tampering and a truncation never reads as a crash.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, statSync, chmodSync, writeFileSync, writeSync } from 'node:fs'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { join } from 'node:path'

export const AUDIT_KEY_FILE = 'audit.key'
export const AUDIT_ANCHOR_FILE = 'audit-anchor.json'
const ANCHOR_FORMAT = 'parlay-audit-anchor/1'
const MIN_ENV_KEY = 32

export interface AnchorState {
  entries: number
  head: string
}

export interface AnchorRecord {
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

const macOf = (key: Buffer, record: AnchorRecord) =>
  createHmac('sha256', key)
    .update(JSON.stringify([ANCHOR_FORMAT, record.committed.entries, record.committed.head, record.pending?.entries ?? null, record.pending?.head ?? null, record.legacyEntries]))
    .digest('hex')

export type AnchorRead = { status: 'missing' } | { status: 'altered'; reason: string } | { status: 'ok'; record: AnchorRecord }

export function readAnchor(dataDir: string, key: Buffer): AnchorRead {
  const path = join(dataDir, AUDIT_ANCHOR_FILE)
  if (!existsSync(path)) return { status: 'missing' }
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  } catch {
    return { status: 'altered', reason: `${AUDIT_ANCHOR_FILE} is not valid JSON` }
  }
  const state = (v: unknown): AnchorState | null =>
    v !== null && typeof v === 'object' && Number.isInteger((v as AnchorState).entries) && typeof (v as AnchorState).head === 'string'
      ? { entries: (v as AnchorState).entries, head: (v as AnchorState).head }
      : null
  const committed = state(parsed.committed)
  const legacyEntries = parsed.legacyEntries
  if (parsed.format !== ANCHOR_FORMAT || !committed || !Number.isInteger(legacyEntries) || typeof parsed.mac !== 'string')
    return { status: 'altered', reason: `${AUDIT_ANCHOR_FILE} is not an audit anchor` }
  const record: AnchorRecord = { committed, pending: state(parsed.pending), legacyEntries: legacyEntries as number }
  const expected = Buffer.from(macOf(key, record), 'hex')
  const given = Buffer.from(parsed.mac, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 'altered', reason: `${AUDIT_ANCHOR_FILE} does not carry a valid MAC (edited, or written under another key)` }
  return { status: 'ok', record }
}

/** Writes the anchor durably: temp file, fsync, rename over the old one. */
export function writeAnchor(dataDir: string, key: Buffer, record: AnchorRecord): void {
  const path = join(dataDir, AUDIT_ANCHOR_FILE)
  const temp = `${path}.${process.pid}.tmp`
  const body = JSON.stringify({ format: ANCHOR_FORMAT, ...record, mac: macOf(key, record) }, null, 2) + '\n'
  const fd = openSync(temp, 'w', 0o600)
  try {
    writeSync(fd, body)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
}
