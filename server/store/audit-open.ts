/**
 * Taking the audit log over at start, and accepting one explicitly (issue 30 item 5).
 *
 * At start the key is loaded (or created), the log walked entry by entry, and its end compared
 * with this database's anchor in the data folder and with a signed checkpoint when one is given
 * (`PARLAY_AUDIT_CHECKPOINT`). A log that fails is refused: the server never appends to, and so
 * never re-anchors, a log it cannot vouch for. The cases:
 *
 * - the anchor matches (or a crash left it one transaction behind, pending): taken over;
 * - an anchor of earlier versions (`audit-anchor.json`, no database named) that matches this log
 *   is taken over and rewritten as this database's; one that does not, beside an empty log, is
 *   another database's (a folder moved from SQLite to PostgreSQL) and is left alone;
 * - a log from before anchors existed is adopted once, on the start that creates the key, if its
 *   plain hash chain is intact;
 * - no anchor for this database and a non-empty log: a new instance cannot tell a complete log
 *   from one whose last entries were removed (the folder replaced, the log shortened). On
 *   PostgreSQL it joins only a log still being born (first entry under 10 minutes old: replicas
 *   starting together) or one that holds the checkpoint it was given; otherwise, and always on
 *   SQLite, it refuses to start and names the command that accepts the log explicitly
 *   (`npm run audit:accept`, audited).
 */
import { hostname, userInfo } from 'node:os'
import type { DataLayer } from '../db/data-layer'
import { databaseIdentity } from '../db/identity'
import { audit, AuditLogError, auditRows, GENESIS_HASH, sharedLog, takeOverChain, verifyAuditChain, walkChain, type AuditChain, type AuditRow } from './audit'
import { dropLegacyAnchor, loadAuditKey, otherAnchors, readAnchor, type AnchorRead, type AnchorState, type AuditKey, type DatabaseIdentity } from './audit-anchor'
import { compareWithCheckpoint, readCheckpoint, type AuditCheckpoint } from './audit-checkpoint'

/** A new instance joins a shared log without a checkpoint only while its first entry is this young. */
export const JOIN_WINDOW_MS = 10 * 60_000

export interface OpenOptions {
  now: number
  /** A signed checkpoint's text (`PARLAY_AUDIT_CHECKPOINT`): the log must still hold it. */
  checkpoint?: string
}

export interface OpenedAuditLog {
  key: AuditKey
  database: DatabaseIdentity
  /** Entries adopted from before the key existed (first start of an old log). */
  adopted: number
  /** Entries of a shared log this instance joined without an anchor of its own. */
  joined: number
  /** Other databases' anchors in this folder (an anchor of earlier versions that did not match, too). */
  others: string[]
}

const acceptCommand = (dataDir: string) => `npm run audit:accept -- ${dataDir}`

/** The checkpoint given, read with the key; a file that is not one, or signed under another key, stops the start. */
export function checkpointOf(text: string | undefined, key: Buffer): AuditCheckpoint | undefined {
  if (text === undefined) return undefined
  const read = readCheckpoint(text, key)
  if (read.status === 'altered') throw new AuditLogError(`the audit checkpoint given cannot be used: ${read.reason}`)
  return read.checkpoint
}

/** Loads the key, checks the log against the anchor (and the checkpoint) and takes the chain over. */
export async function openAuditLog(data: DataLayer, dataDir: string, options: OpenOptions): Promise<OpenedAuditLog> {
  const key = loadAuditKey(dataDir, { create: true })
  const database = await databaseIdentity(data)
  const checkpoint = checkpointOf(options.checkpoint, key.key)
  // under the audit lock: another instance on the same database does not append meanwhile
  return data.transaction(async (tx) => {
    const rows = await auditRows(tx)
    const head: AnchorState = { entries: rows.at(-1)?.seq ?? 0, head: rows.at(-1)?.hash ?? GENESIS_HASH }
    const chain: AuditChain = { key: key.key, legacyEntries: 0, dataDir, database, committed: head }
    const found = findAnchor(rows, dataDir, key.key, database, sharedLog(data))
    const others = otherAnchors(dataDir, key.key, database.id).map((a) => `${a.id} (${a.engine}${a.entries === null ? '' : `, ${a.entries} entries`})`)
    if (found.legacyElsewhere) others.push(`audit-anchor.json (from before anchors named their database, ${found.legacyElsewhere} entries)`)
    let adopted = 0
    let joined = 0
    if (found.anchor.status !== 'missing' || head.entries === 0) {
      const verified = verifyAuditChain(rows, key.key, found.anchor, { shared: sharedLog(data) })
      if (!verified.ok) throw new AuditLogError(`the audit log fails verification at entry #${verified.firstBadSeq}: ${verified.reason}`)
      if (found.anchor.status === 'ok') chain.legacyEntries = found.anchor.record.legacyEntries
    } else if (key.created && walkChain(rows, key.key, head.entries).ok) {
      chain.legacyEntries = adopted = head.entries // a log from before the key: plain SHA-256 links
    } else {
      joined = joinWithoutAnchor(rows, key.key, { shared: sharedLog(data), checkpoint, now: options.now, dataDir, database, others })
    }
    if (checkpoint) {
      const rolledBack = compareWithCheckpoint(rows, database, checkpoint)
      if (rolledBack) throw new AuditLogError(`the audit log fails verification against the checkpoint given: ${rolledBack.reason}`)
    }
    takeOverChain(data, chain)
    if (found.takeOverLegacy) dropLegacyAnchor(dataDir)
    return { key, database, adopted, joined, others }
  }, { serialiseOn: 'audit' })
}

/** This database's anchor; or the anchor of earlier versions when it matches this log. */
function findAnchor(rows: AuditRow[], dataDir: string, key: Buffer, database: DatabaseIdentity, shared: boolean): { anchor: AnchorRead; takeOverLegacy: boolean; legacyElsewhere?: number } {
  const anchor = readAnchor(dataDir, key, database)
  if (anchor.status !== 'missing') return { anchor, takeOverLegacy: false }
  const legacy = readAnchor(dataDir, key, null)
  if (legacy.status !== 'ok') return { anchor: legacy.status === 'altered' && rows.length > 0 ? legacy : anchor, takeOverLegacy: false }
  if (verifyAuditChain(rows, key, legacy, { shared }).ok) return { anchor: legacy, takeOverLegacy: true }
  // SQLite: the folder's old anchor was this very file's, so its verdict (entries removed…) stands
  if (!shared && rows.length > 0) return { anchor: legacy, takeOverLegacy: false }
  return { anchor, takeOverLegacy: false, legacyElsewhere: legacy.record.committed.entries }
}

interface JoinContext {
  shared: boolean
  checkpoint: AuditCheckpoint | undefined
  now: number
  dataDir: string
  database: DatabaseIdentity
  others: string[]
}

/** A non-empty log with no anchor for this database: joined (answers its entries) or refused. */
function joinWithoutAnchor(rows: AuditRow[], key: Buffer, context: JoinContext): number {
  const walked = walkChain(rows, key, 0)
  if (!walked.ok) throw new AuditLogError(`the audit log has ${rows.length} entries, this folder holds no anchor for it, and entry #${walked.firstBadSeq} ${walked.reason}`)
  const young = rows[0].at > context.now - JOIN_WINDOW_MS
  const covered = context.checkpoint !== undefined && compareWithCheckpoint(rows, context.database, context.checkpoint) === null
  if (context.shared && (young || covered)) return rows.length
  const elsewhere = context.others.length > 0 ? ` The anchors in this folder belong to other databases: ${context.others.join('; ')}.` : ''
  throw new AuditLogError(
    `this data folder holds no audit anchor for database ${context.database.id} (${context.database.engine}), whose log already has ${rows.length} entries (the first of ${new Date(rows[0].at).toISOString()}): ` +
      `the server cannot tell a complete log from one whose last entries were removed.${elsewhere} ` +
      `${context.shared ? 'Start it with PARLAY_AUDIT_CHECKPOINT=<a checkpoint downloaded from /admin>, or accept' : 'Accept'} the log as it is: \`${acceptCommand(context.dataDir)}\` (recorded in the audit log)`,
  )
}

export interface AcceptOptions {
  now: number
  reason: string
  checkpoint?: string
  actor?: string
}

/**
 * `npm run audit:accept`: an operator accepts the log as it stands (a restored backup, a new data
 * folder) — the chain must still verify under the key, and hold the checkpoint when one is given.
 * The anchor is written at its head, and the acceptance is the next entry of the log, with the
 * anchor it replaced, so the decision (and any rollback it accepts) is itself on record.
 */
export async function acceptAuditLog(data: DataLayer, dataDir: string, options: AcceptOptions): Promise<{ entries: number; previous: AnchorState | null }> {
  const key = loadAuditKey(dataDir, { create: false })
  const database = await databaseIdentity(data)
  const checkpoint = checkpointOf(options.checkpoint, key.key)
  const accepted = await data.transaction(async (tx) => {
    const rows = await auditRows(tx)
    const previous = readAnchor(dataDir, key.key, database)
    const legacyEntries = previous.status === 'ok' ? previous.record.legacyEntries : 0
    const walked = walkChain(rows, key.key, legacyEntries)
    if (!walked.ok) throw new AuditLogError(`the audit log cannot be accepted: entry #${walked.firstBadSeq} ${walked.reason}`)
    const rolledBack = checkpoint && compareWithCheckpoint(rows, database, checkpoint)
    if (rolledBack) throw new AuditLogError(`the audit log cannot be accepted: ${rolledBack.reason}`)
    const head: AnchorState = { entries: walked.entries, head: walked.head }
    takeOverChain(data, { key: key.key, legacyEntries, dataDir, database, committed: head })
    return { entries: head.entries, previous: previous.status === 'ok' ? previous.record.committed : null, previousStatus: previous.status }
  }, { serialiseOn: 'audit' })
  const actor = options.actor ?? `${userInfo().username}@${hostname()}`
  await audit(data, options.now, actor, 'audit.log-accepted', 'audit', {
    entries: accepted.entries,
    previousAnchor: accepted.previous,
    previousAnchorStatus: accepted.previousStatus,
    checkpoint: checkpoint ? { entries: checkpoint.entries, at: checkpoint.at } : null,
    reason: options.reason,
  })
  return { entries: accepted.entries, previous: accepted.previous }
}

/**
 * The audit log as an operator's tool (`npm run admin:*`, `audit:accept`) writes to it. SQLite: as
 * the server opens it (the data folder is the database's). PostgreSQL: with the instances' key
 * (`PARLAY_AUDIT_KEY`) and no anchor of its own — the instances' anchors take its entries in, as
 * they take each other's.
 */
export async function openAuditLogForTool(data: DataLayer, dataDir: string, now: number): Promise<void> {
  if (!sharedLog(data)) return void (await openAuditLog(data, dataDir, { now }))
  const key = loadAuditKey(dataDir, { create: false })
  const database = await databaseIdentity(data)
  await data.transaction(async (tx) => {
    const rows = await auditRows(tx)
    const walked = walkChain(rows, key.key, 0)
    if (!walked.ok) throw new AuditLogError(`the audit log fails verification at entry #${walked.firstBadSeq}: ${walked.reason}`)
    takeOverChain(data, { key: key.key, legacyEntries: 0, dataDir: null, database, committed: { entries: walked.entries, head: walked.head } })
  }, { serialiseOn: 'audit' })
}
