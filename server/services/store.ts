/**
 * What the third-party services of spec §1/§7 send to Parlay's own endpoints, kept in SQLite so an
 * operator can read a demo session in /admin: analytics events, client and server errors,
 * fingerprint recognitions. Bounded reads only; the tables are append-only.
 *
 * On the query layer (issue 16): one copy of the queries for SQLite and PostgreSQL. The raw-SQL
 * migrations are the history of existing SQLite files; the schema step (q052) is the tables on
 * both engines. Aggregates that SQLite and PostgreSQL spell differently (GROUP_CONCAT and
 * string_agg) are done as two bounded queries instead; account numbers come from the punters store.
 */
import { sql, type Generated, type Kysely } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Tables } from '../db/tables'
import { accountNumbersOf } from '../punters/lookups'
import { chargeIngest, ingestBoundsStep, ingestTransaction, ROW_OVERHEAD } from './ingest-store'

export const sqliteServices1 = sqliteHistory(
  'services-1',
  `CREATE TABLE IF NOT EXISTS analytics_events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     received_at INTEGER NOT NULL,
     device_id TEXT NOT NULL,
     user_id TEXT,
     session_id INTEGER,
     event_type TEXT NOT NULL,
     event_time INTEGER,
     section TEXT,
     properties TEXT NOT NULL
   );
   CREATE INDEX IF NOT EXISTS analytics_events_device ON analytics_events (device_id, id);
   CREATE TABLE IF NOT EXISTS reported_errors (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     received_at INTEGER NOT NULL,
     origin TEXT NOT NULL CHECK (origin IN ('client', 'server')),
     kind TEXT NOT NULL,
     message TEXT NOT NULL,
     frames TEXT NOT NULL,
     request_id TEXT,
     release TEXT,
     url TEXT
   );
   CREATE TABLE IF NOT EXISTS punter_recognitions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     created_at INTEGER NOT NULL,
     punter_id INTEGER NOT NULL,
     visitor_id TEXT NOT NULL,
     algorithm TEXT NOT NULL,
     operation_type TEXT NOT NULL,
     is_mobile_device INTEGER NOT NULL,
     is_mirror INTEGER NOT NULL,
     request_id TEXT NOT NULL
   );
   CREATE INDEX IF NOT EXISTS punter_recognitions_visitor ON punter_recognitions (visitor_id, punter_id);`,
)

interface AnalyticsEventTable {
  id: Generated<number>
  received_at: number
  device_id: string
  user_id: string | null
  session_id: number | null
  event_type: string
  event_time: number | null
  section: string | null
  /** JSON object. */
  properties: string
  /** What the row keeps, in bytes (./ingest-store.ts: the storage budget). */
  stored_bytes: Generated<number>
}

interface ReportedErrorTable {
  id: Generated<number>
  received_at: number
  origin: 'client' | 'server'
  kind: string
  message: string
  /** JSON array of ErrorFrame. */
  frames: string
  request_id: string | null
  release: string | null
  url: string | null
  /** The punter of the reporting session (never a body field); null for a guest or the server. */
  user_id: string | null
  stored_bytes: Generated<number>
}

interface PunterRecognitionTable {
  id: Generated<number>
  created_at: number
  punter_id: number
  visitor_id: string
  algorithm: string
  operation_type: string
  is_mobile_device: number
  is_mirror: number
  request_id: string
}

interface ReplayBatchTable {
  id: Generated<number>
  received_at: number
  device_id: string
  session_id: number
  user_id: string | null
  events: number
  first_timestamp: number
  last_timestamp: number
  bytes: number
  /** The gzip body as received (BLOB on SQLite, bytea on PostgreSQL: a Buffer on both). */
  body: Buffer
  stored_bytes: Generated<number>
}

interface ReplayClickTable {
  id: Generated<number>
  received_at: number
  device_id: string
  session_id: number
  window_start: number
  window_end: number
  page: string
  target: string
  clicks: number
  stored_bytes: Generated<number>
}

declare module '../db/tables' {
  interface Tables {
    analytics_events: AnalyticsEventTable
    reported_errors: ReportedErrorTable
    punter_recognitions: PunterRecognitionTable
    replay_batches: ReplayBatchTable
    replay_clicks: ReplayClickTable
  }
}

export const q052Services = schemaStep('q052-services', async (db, engine) => {
  const id = surrogateKeyType(engine)
  const key = surrogateKey(engine)
  await db.schema
    .createTable('analytics_events')
    .ifNotExists()
    .addColumn('id', id, key)
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('session_id', 'bigint')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_time', 'bigint')
    .addColumn('section', 'text')
    .addColumn('properties', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('analytics_events_device').ifNotExists().on('analytics_events').columns(['device_id', 'id']).execute()
  await db.schema
    .createTable('reported_errors')
    .ifNotExists()
    .addColumn('id', id, key)
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull().check(oneOf('origin', ['client', 'server'])))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('frames', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('release', 'text')
    .addColumn('url', 'text')
    .execute()
  await db.schema
    .createTable('punter_recognitions')
    .ifNotExists()
    .addColumn('id', id, key)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('punter_id', 'integer', (c) => c.notNull())
    .addColumn('visitor_id', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('operation_type', 'text', (c) => c.notNull())
    .addColumn('is_mobile_device', 'integer', (c) => c.notNull())
    .addColumn('is_mirror', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('punter_recognitions_visitor').ifNotExists().on('punter_recognitions').columns(['visitor_id', 'punter_id']).execute()
  await db.schema
    .createTable('replay_batches')
    .ifNotExists()
    .addColumn('id', id, key)
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('events', 'integer', (c) => c.notNull())
    .addColumn('first_timestamp', 'bigint', (c) => c.notNull())
    .addColumn('last_timestamp', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('body', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('replay_batches_session').ifNotExists().on('replay_batches').columns(['device_id', 'session_id', 'id']).execute()
  await db.schema.createIndex('replay_batches_received').ifNotExists().on('replay_batches').column('received_at').execute()
  await db.schema
    .createTable('replay_clicks')
    .ifNotExists()
    .addColumn('id', id, key)
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'bigint', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_end', 'bigint', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('replay_clicks_received').ifNotExists().on('replay_clicks').column('received_at').execute()
})

// after q052, whose tables it alters (issue 30: the sizes and usage the storage budget counts)
export const q091ServicesIngestBounds = schemaStep('q091-services-ingest-bounds', ingestBoundsStep)

export interface IngestedEvent {
  deviceId: string
  userId: string | null
  sessionId: number | null
  eventType: string
  time: number | null
  section: string | null
  properties: Record<string, unknown>
}

/** Rows per insert statement (at most 9 parameters each: far under both engines' limits). */
const BATCH = 500

const textBytes = (...texts: Array<string | null>) => texts.reduce((sum, t) => sum + (t?.length ?? 0), ROW_OVERHEAD)

/** Stores a batch in one transaction, within the storage budget; returns how many were stored. */
export async function storeEvents(data: DataLayer, events: IngestedEvent[], now: number, budgetBytes: number): Promise<number> {
  const rows = events.map((e) => {
    const properties = JSON.stringify(e.properties)
    return { received_at: now, device_id: e.deviceId, user_id: e.userId, session_id: e.sessionId, event_type: e.eventType, event_time: e.time, section: e.section, properties, stored_bytes: textBytes(properties, e.eventType, e.deviceId) }
  })
  await ingestTransaction(data, async (tx) => {
    for (let i = 0; i < rows.length; i += BATCH) await tx.insertInto('analytics_events').values(rows.slice(i, i + BATCH)).execute()
    await chargeIngest(tx, 'events', rows.reduce((sum, r) => sum + r.stored_bytes, 0), rows.length, budgetBytes)
  })
  return events.length
}

export interface StoredEvent extends IngestedEvent {
  id: number
  receivedAt: number
}

export async function listEvents(db: Kysely<Tables>, filter: { deviceId?: string; limit: number }): Promise<StoredEvent[]> {
  let query = db.selectFrom('analytics_events').selectAll().orderBy('id', 'desc').limit(filter.limit)
  if (filter.deviceId) query = query.where('device_id', '=', filter.deviceId)
  const rows = await query.execute()
  return rows.map((r) => ({
    id: r.id,
    receivedAt: r.received_at,
    deviceId: r.device_id,
    userId: r.user_id ?? null,
    sessionId: r.session_id ?? null,
    eventType: r.event_type,
    time: r.event_time ?? null,
    section: r.section ?? null,
    properties: JSON.parse(r.properties) as Record<string, unknown>,
  }))
}

export interface ErrorFrame {
  file: string
  line: number
  column: number
  function?: string
}

export interface ReportedError {
  origin: 'client' | 'server'
  /** The punter of the session that reported it (null: a guest, or the server itself). */
  userId?: string | null
  kind: string
  message: string
  frames: ErrorFrame[]
  requestId: string | null
  release: string | null
  url: string | null
}

export async function storeError(data: DataLayer, error: ReportedError, now: number, budgetBytes: number): Promise<number> {
  const message = error.message.slice(0, 2000)
  const frames = JSON.stringify(error.frames.slice(0, 50))
  const storedBytes = textBytes(message, frames, error.url)
  return ingestTransaction(data, async (tx) => {
    const row = await tx
      .insertInto('reported_errors')
      .values({ received_at: now, origin: error.origin, kind: error.kind.slice(0, 100), message, frames, request_id: error.requestId, release: error.release, url: error.url, user_id: error.userId ?? null, stored_bytes: storedBytes })
      .returning('id')
      .executeTakeFirstOrThrow()
    await chargeIngest(tx, 'errors', storedBytes, 1, budgetBytes)
    return row.id
  })
}

export async function listErrors(db: Kysely<Tables>, limit: number): Promise<Array<ReportedError & { id: number; receivedAt: number }>> {
  const rows = await db.selectFrom('reported_errors').selectAll().orderBy('id', 'desc').limit(limit).execute()
  return rows.map((r) => ({
    id: r.id,
    receivedAt: r.received_at,
    origin: r.origin,
    kind: r.kind,
    message: r.message,
    frames: JSON.parse(r.frames) as ErrorFrame[],
    requestId: r.request_id ?? null,
    release: r.release ?? null,
    url: r.url ?? null,
    userId: r.user_id ?? null,
  }))
}

export interface Recognition {
  punterId: number
  visitorId: string
  algorithm: string
  operationType: string
  isMobileDevice: boolean
  isMirror: boolean
  requestId: string
}

export async function storeRecognition(db: Kysely<Tables>, recognition: Recognition, now: number): Promise<number> {
  const r = recognition
  const row = await db
    .insertInto('punter_recognitions')
    .values({ created_at: now, punter_id: r.punterId, visitor_id: r.visitorId, algorithm: r.algorithm, operation_type: r.operationType, is_mobile_device: r.isMobileDevice ? 1 : 0, is_mirror: r.isMirror ? 1 : 0, request_id: r.requestId })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** The recognition of this request for this punter, if stored already (a link is idempotent). */
export async function findRecognition(db: Kysely<Tables>, requestId: string, punterId: number): Promise<{ id: number } | undefined> {
  return db.selectFrom('punter_recognitions').select('id').where('request_id', '=', requestId).where('punter_id', '=', punterId).executeTakeFirst()
}

/** The latest recognitions, each with its punter's account number (asked of the punters store). */
export async function listRecognitions(data: DataLayer, limit: number): Promise<Array<Recognition & { id: number; createdAt: number; accountNumber: string | null }>> {
  const rows = await data.db.selectFrom('punter_recognitions').selectAll().orderBy('id', 'desc').limit(limit).execute()
  const accounts = await accountNumbersOf(data, rows.map((r) => r.punter_id))
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    punterId: r.punter_id,
    accountNumber: accounts.get(r.punter_id) ?? null,
    visitorId: r.visitor_id,
    algorithm: r.algorithm,
    operationType: r.operation_type,
    isMobileDevice: r.is_mobile_device === 1,
    isMirror: r.is_mirror === 1,
    requestId: r.request_id,
  }))
}

/** Multi-accounting: visitor ids (one browser) seen with more than one punter. */
export async function sharedVisitors(db: Kysely<Tables>, limit: number): Promise<Array<{ visitorId: string; punterIds: number[]; lastSeen: number }>> {
  const visitors = await db
    .selectFrom('punter_recognitions')
    .select((eb) => ['visitor_id', eb.fn.max('created_at').as('last_seen')])
    .groupBy('visitor_id')
    .having((eb) => eb.fn.count('punter_id').distinct(), '>', 1)
    .orderBy('last_seen', 'desc')
    .limit(limit)
    .execute()
  if (visitors.length === 0) return []
  const pairs = await db
    .selectFrom('punter_recognitions')
    .select(['visitor_id', 'punter_id'])
    .distinct()
    .where('visitor_id', 'in', visitors.map((v) => v.visitor_id))
    .execute()
  return visitors.map((v) => ({
    visitorId: v.visitor_id,
    punterIds: pairs.filter((p) => p.visitor_id === v.visitor_id).map((p) => p.punter_id).sort((a, b) => a - b),
    lastSeen: Number(v.last_seen),
  }))
}

export const sqliteServices2Replays = sqliteHistory(
  'services-2-replays',
  `CREATE TABLE IF NOT EXISTS replay_batches (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     received_at INTEGER NOT NULL,
     device_id TEXT NOT NULL,
     session_id INTEGER NOT NULL,
     user_id TEXT,
     events INTEGER NOT NULL,
     first_timestamp INTEGER NOT NULL,
     last_timestamp INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     body BLOB NOT NULL
   );
   CREATE INDEX IF NOT EXISTS replay_batches_session ON replay_batches (device_id, session_id, id);`,
)

export const sqliteServices3ReplayRetention = sqliteHistory('services-3-replay-retention', 'CREATE INDEX IF NOT EXISTS replay_batches_received ON replay_batches (received_at);')

export interface ReplayBatchRecord {
  deviceId: string
  sessionId: number
  userId: string | null
  events: number
  firstTimestamp: number
  lastTimestamp: number
  /** Unpacked JSON bytes. */
  bytes: number
  /** The gzip body as received. */
  compressed: Buffer
}

/**
 * Stores one batch within the storage budget (one transaction). Batches past their retention (30
 * days by default: what support needs to answer a complaint; GDPR art. 5(1)(e)) are deleted by the
 * sweep (./ingest-sweep.ts) and never shown (the reads take `since`).
 */
export async function storeReplayBatch(data: DataLayer, batch: ReplayBatchRecord, now: number, budgetBytes: number): Promise<number> {
  const b = batch
  const storedBytes = b.compressed.length + b.deviceId.length + ROW_OVERHEAD
  return ingestTransaction(data, async (tx) => {
    const row = await tx
      .insertInto('replay_batches')
      .values({ received_at: now, device_id: b.deviceId, session_id: b.sessionId, user_id: b.userId, events: b.events, first_timestamp: Math.round(b.firstTimestamp), last_timestamp: Math.round(b.lastTimestamp), bytes: b.bytes, body: b.compressed, stored_bytes: storedBytes })
      .returning('id')
      .executeTakeFirstOrThrow()
    await chargeIngest(tx, 'replays', storedBytes, 1, budgetBytes)
    return row.id
  })
}

export interface ReplaySessionSummary {
  deviceId: string
  sessionId: number
  userIds: string[]
  batches: number
  events: number
  bytes: number
  startedAt: number
  endedAt: number
}

/** Recorded sessions received after `since` (the start of retention), the latest first. */
export async function listReplaySessions(db: Kysely<Tables>, limit: number, since: number): Promise<ReplaySessionSummary[]> {
  const rows = await db
    .selectFrom('replay_batches')
    .select((eb) => [
      'device_id',
      'session_id',
      eb.fn.countAll<number>().as('batches'),
      eb.fn.sum<number>('events').as('events'),
      eb.fn.sum<number>('bytes').as('bytes'),
      eb.fn.min('first_timestamp').as('started'),
      eb.fn.max('last_timestamp').as('ended'),
      eb.fn.max('id').as('latest'),
    ])
    .where('received_at', '>', since)
    .groupBy(['device_id', 'session_id'])
    .orderBy('latest', 'desc')
    .limit(limit)
    .execute()
  if (rows.length === 0) return []
  // the punters seen in each session, in a second bounded query (GROUP_CONCAT is SQLite's spelling only)
  const users = await db
    .selectFrom('replay_batches')
    .select(['device_id', 'session_id', 'user_id'])
    .distinct()
    .where('received_at', '>', since)
    .where('user_id', 'is not', null)
    .where('device_id', 'in', [...new Set(rows.map((r) => r.device_id))])
    .execute()
  return rows.map((r) => ({
    deviceId: r.device_id,
    sessionId: Number(r.session_id),
    userIds: users.filter((u) => u.device_id === r.device_id && Number(u.session_id) === Number(r.session_id)).map((u) => u.user_id!),
    batches: Number(r.batches),
    events: Number(r.events),
    bytes: Number(r.bytes),
    startedAt: Number(r.started),
    endedAt: Number(r.ended),
  }))
}

/** The stored batches of one session received after `since`, in order (gzip bodies), at most `limit`. */
export async function replayBatchesOf(db: Kysely<Tables>, deviceId: string, sessionId: number, limit: number, since: number): Promise<Buffer[]> {
  const rows = await db
    .selectFrom('replay_batches')
    .select('body')
    .where('device_id', '=', deviceId)
    .where('session_id', '=', sessionId)
    .where('received_at', '>', since)
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map((r) => Buffer.from(r.body))
}

export const sqliteServices4ClickWindows = sqliteHistory(
  'services-4-click-windows',
  `CREATE TABLE IF NOT EXISTS replay_clicks (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     received_at INTEGER NOT NULL,
     device_id TEXT NOT NULL,
     session_id INTEGER NOT NULL,
     window_start INTEGER NOT NULL,
     window_end INTEGER NOT NULL,
     page TEXT NOT NULL,
     target TEXT NOT NULL,
     clicks INTEGER NOT NULL
   );
   CREATE INDEX IF NOT EXISTS replay_clicks_received ON replay_clicks (received_at);`,
)

export interface ClickWindowRecord {
  deviceId: string
  sessionId: number
  windowStart: number
  windowEnd: number
  clicks: Array<{ page: string; target: string; clicks: number }>
}

/** Stores one window's counts (one row per page × element) within the storage budget. */
export async function storeClickWindow(data: DataLayer, window: ClickWindowRecord, now: number, budgetBytes: number): Promise<number> {
  const rows = window.clicks.map((c) => ({ received_at: now, device_id: window.deviceId, session_id: window.sessionId, window_start: window.windowStart, window_end: window.windowEnd, page: c.page, target: c.target, clicks: c.clicks, stored_bytes: textBytes(c.page, c.target, window.deviceId) }))
  return ingestTransaction(data, async (tx) => {
    for (let i = 0; i < rows.length; i += BATCH) await tx.insertInto('replay_clicks').values(rows.slice(i, i + BATCH)).execute()
    await chargeIngest(tx, 'clicks', rows.reduce((sum, r) => sum + r.stored_bytes, 0), rows.length, budgetBytes)
    return rows.length
  })
}

export interface PageClicks {
  page: string
  target: string
  clicks: number
  sessions: number
}

/** The most tapped elements per page received after `since`, most taps first. */
export async function listPageClicks(db: Kysely<Tables>, limit: number, since: number): Promise<PageClicks[]> {
  const rows = await db
    .selectFrom('replay_clicks')
    .select((eb) => ['page', 'target', eb.fn.sum<number>('clicks').as('clicks'), sql<number>`count(distinct ${sql.ref('device_id')} || ':' || ${sql.ref('session_id')})`.as('sessions')])
    .where('received_at', '>', since)
    .groupBy(['page', 'target'])
    .orderBy('clicks', 'desc')
    .orderBy('page')
    .orderBy('target')
    .limit(limit)
    .execute()
  return rows.map((r) => ({ page: r.page, target: r.target, clicks: Number(r.clicks), sessions: Number(r.sessions) }))
}
