/**
 * What the third-party services of spec §1/§7 send to Parlay's own endpoints, kept in SQLite so an
 * operator can read a demo session in /admin: analytics events, client and server errors,
 * fingerprint recognitions. Bounded reads only; the tables are append-only.
 */
import { registerMigration, type Db } from '../db/database'

registerMigration(
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

export interface IngestedEvent {
  deviceId: string
  userId: string | null
  sessionId: number | null
  eventType: string
  time: number | null
  section: string | null
  properties: Record<string, unknown>
}

/** Stores a batch in one transaction; returns how many were stored. */
export function storeEvents(db: Db, events: IngestedEvent[], now: number): number {
  const insert = db.prepare(
    'INSERT INTO analytics_events (received_at, device_id, user_id, session_id, event_type, event_time, section, properties) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  db.transaction(() => {
    for (const e of events) insert.run(now, e.deviceId, e.userId, e.sessionId, e.eventType, e.time, e.section, JSON.stringify(e.properties))
  })()
  return events.length
}

export interface StoredEvent extends IngestedEvent {
  id: number
  receivedAt: number
}

export function listEvents(db: Db, filter: { deviceId?: string; limit: number }): StoredEvent[] {
  const rows = (
    filter.deviceId
      ? db.prepare('SELECT * FROM analytics_events WHERE device_id = ? ORDER BY id DESC LIMIT ?').all(filter.deviceId, filter.limit)
      : db.prepare('SELECT * FROM analytics_events ORDER BY id DESC LIMIT ?').all(filter.limit)
  ) as Array<Record<string, unknown>>
  return rows.map((r) => ({
    id: r.id as number,
    receivedAt: r.received_at as number,
    deviceId: r.device_id as string,
    userId: (r.user_id as string | null) ?? null,
    sessionId: (r.session_id as number | null) ?? null,
    eventType: r.event_type as string,
    time: (r.event_time as number | null) ?? null,
    section: (r.section as string | null) ?? null,
    properties: JSON.parse(r.properties as string) as Record<string, unknown>,
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
  kind: string
  message: string
  frames: ErrorFrame[]
  requestId: string | null
  release: string | null
  url: string | null
}

export function storeError(db: Db, error: ReportedError, now: number): number {
  const result = db
    .prepare('INSERT INTO reported_errors (received_at, origin, kind, message, frames, request_id, release, url) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(now, error.origin, error.kind.slice(0, 100), error.message.slice(0, 2000), JSON.stringify(error.frames.slice(0, 50)), error.requestId, error.release, error.url)
  return Number(result.lastInsertRowid)
}

export function listErrors(db: Db, limit: number): Array<ReportedError & { id: number; receivedAt: number }> {
  const rows = db.prepare('SELECT * FROM reported_errors ORDER BY id DESC LIMIT ?').all(limit) as Array<Record<string, unknown>>
  return rows.map((r) => ({
    id: r.id as number,
    receivedAt: r.received_at as number,
    origin: r.origin as 'client' | 'server',
    kind: r.kind as string,
    message: r.message as string,
    frames: JSON.parse(r.frames as string) as ErrorFrame[],
    requestId: (r.request_id as string | null) ?? null,
    release: (r.release as string | null) ?? null,
    url: (r.url as string | null) ?? null,
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

export function storeRecognition(db: Db, recognition: Recognition, now: number): number {
  const r = recognition
  const result = db
    .prepare('INSERT INTO punter_recognitions (created_at, punter_id, visitor_id, algorithm, operation_type, is_mobile_device, is_mirror, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(now, r.punterId, r.visitorId, r.algorithm, r.operationType, r.isMobileDevice ? 1 : 0, r.isMirror ? 1 : 0, r.requestId)
  return Number(result.lastInsertRowid)
}

export function listRecognitions(db: Db, limit: number): Array<Recognition & { id: number; createdAt: number; accountNumber: string | null }> {
  const rows = db
    .prepare('SELECT r.*, p.account_number FROM punter_recognitions r LEFT JOIN punters p ON p.id = r.punter_id ORDER BY r.id DESC LIMIT ?')
    .all(limit) as Array<Record<string, unknown>>
  return rows.map((r) => ({
    id: r.id as number,
    createdAt: r.created_at as number,
    punterId: r.punter_id as number,
    accountNumber: (r.account_number as string | null) ?? null,
    visitorId: r.visitor_id as string,
    algorithm: r.algorithm as string,
    operationType: r.operation_type as string,
    isMobileDevice: r.is_mobile_device === 1,
    isMirror: r.is_mirror === 1,
    requestId: r.request_id as string,
  }))
}

/** Multi-accounting: visitor ids (one browser) seen with more than one punter. */
export function sharedVisitors(db: Db, limit: number): Array<{ visitorId: string; punterIds: number[]; lastSeen: number }> {
  const rows = db
    .prepare(
      `SELECT visitor_id, GROUP_CONCAT(DISTINCT punter_id) AS punters, MAX(created_at) AS last_seen
         FROM punter_recognitions GROUP BY visitor_id HAVING COUNT(DISTINCT punter_id) > 1
         ORDER BY last_seen DESC LIMIT ?`,
    )
    .all(limit) as Array<{ visitor_id: string; punters: string; last_seen: number }>
  return rows.map((r) => ({ visitorId: r.visitor_id, punterIds: r.punters.split(',').map(Number).sort((a, b) => a - b), lastSeen: r.last_seen }))
}

registerMigration(
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

registerMigration('services-3-replay-retention', 'CREATE INDEX IF NOT EXISTS replay_batches_received ON replay_batches (received_at);')

/**
 * How long a replay is kept: 30 days. The spec does not say; a replay shows what a punter did on
 * the site, so it is kept only as long as support needs it to answer a complaint or a fault report
 * (GDPR art. 5(1)(e), storage limitation). Older batches are deleted on the next write and never shown.
 */
export const REPLAY_RETENTION_MS = 30 * 24 * 3600_000

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

export function storeReplayBatch(db: Db, batch: ReplayBatchRecord, now: number): number {
  const b = batch
  db.prepare('DELETE FROM replay_batches WHERE received_at <= ?').run(now - REPLAY_RETENTION_MS)
  const result = db
    .prepare('INSERT INTO replay_batches (received_at, device_id, session_id, user_id, events, first_timestamp, last_timestamp, bytes, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(now, b.deviceId, b.sessionId, b.userId, b.events, Math.round(b.firstTimestamp), Math.round(b.lastTimestamp), b.bytes, b.compressed)
  return Number(result.lastInsertRowid)
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

/** Recorded sessions still within retention, the latest first. */
export function listReplaySessions(db: Db, limit: number, now: number): ReplaySessionSummary[] {
  const rows = db
    .prepare(
      `SELECT device_id, session_id, GROUP_CONCAT(DISTINCT user_id) AS users, COUNT(*) AS batches, SUM(events) AS events, SUM(bytes) AS bytes,
              MIN(first_timestamp) AS started, MAX(last_timestamp) AS ended, MAX(id) AS latest
         FROM replay_batches WHERE received_at > ? GROUP BY device_id, session_id ORDER BY latest DESC LIMIT ?`,
    )
    .all(now - REPLAY_RETENTION_MS, limit) as Array<{ device_id: string; session_id: number; users: string | null; batches: number; events: number; bytes: number; started: number; ended: number }>
  return rows.map((r) => ({
    deviceId: r.device_id,
    sessionId: r.session_id,
    userIds: r.users ? r.users.split(',') : [],
    batches: r.batches,
    events: r.events,
    bytes: r.bytes,
    startedAt: r.started,
    endedAt: r.ended,
  }))
}

/** The stored batches of one session still within retention, in order (gzip bodies), at most `limit`. */
export function replayBatchesOf(db: Db, deviceId: string, sessionId: number, limit: number, now: number): Buffer[] {
  const rows = db
    .prepare('SELECT body FROM replay_batches WHERE device_id = ? AND session_id = ? AND received_at > ? ORDER BY id LIMIT ?')
    .all(deviceId, sessionId, now - REPLAY_RETENTION_MS, limit) as Array<{ body: Buffer }>
  return rows.map((r) => r.body)
}

registerMigration(
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

/** Stores one window's counts (one row per page × element); kept as long as replays are. */
export function storeClickWindow(db: Db, window: ClickWindowRecord, now: number): number {
  const insert = db.prepare('INSERT INTO replay_clicks (received_at, device_id, session_id, window_start, window_end, page, target, clicks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  return db.transaction(() => {
    db.prepare('DELETE FROM replay_clicks WHERE received_at <= ?').run(now - REPLAY_RETENTION_MS)
    for (const c of window.clicks) insert.run(now, window.deviceId, window.sessionId, window.windowStart, window.windowEnd, c.page, c.target, c.clicks)
    return window.clicks.length
  })()
}

export interface PageClicks {
  page: string
  target: string
  clicks: number
  sessions: number
}

/** The most tapped elements per page within retention, most taps first. */
export function listPageClicks(db: Db, limit: number, now: number): PageClicks[] {
  return db
    .prepare(
      `SELECT page, target, SUM(clicks) AS clicks, COUNT(DISTINCT device_id || ':' || session_id) AS sessions
         FROM replay_clicks WHERE received_at > ? GROUP BY page, target ORDER BY clicks DESC, page, target LIMIT ?`,
    )
    .all(now - REPLAY_RETENTION_MS, limit) as PageClicks[]
}
