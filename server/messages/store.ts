/**
 * Punter messages as rows (spec §3 "Messages", issue 15 item 1). A message is written once
 * (texts per locale, source web/global/club, kind INBOX or EXTERNAL) and delivered by one row per
 * punter that receives it; read state lives on that delivery row, so it follows the punter across
 * devices. A mass message (a segment or everyone) waits in PENDING_APPROVAL until a second admin
 * approves it; only then are delivery rows written. Nothing is deleted.
 */
import { registerMigration, type Db } from '../db/database'

registerMigration(
  'messages-1501-punter-messages',
  `CREATE TABLE punter_messages (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     source TEXT NOT NULL,
     kind TEXT NOT NULL,
     texts TEXT NOT NULL,
     icon_url TEXT,
     audience TEXT NOT NULL,
     status TEXT NOT NULL,
     author TEXT NOT NULL,
     approver TEXT,
     decision_comment TEXT,
     created_at INTEGER NOT NULL,
     delivered_at INTEGER,
     recipients INTEGER NOT NULL DEFAULT 0,
     demo_key TEXT UNIQUE
   );
   CREATE TABLE punter_message_deliveries (
     message_id INTEGER NOT NULL REFERENCES punter_messages(id),
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     delivered_at INTEGER NOT NULL,
     read_at INTEGER,
     PRIMARY KEY (punter_id, message_id)
   );
   CREATE INDEX punter_message_deliveries_inbox ON punter_message_deliveries (punter_id, delivered_at);`,
)

export const MESSAGE_SOURCES = ['web', 'global', 'club'] as const
export type MessageSource = (typeof MESSAGE_SOURCES)[number]
export const MESSAGE_KINDS = ['INBOX', 'EXTERNAL'] as const
export type MessageKind = (typeof MESSAGE_KINDS)[number]
export type MessageStatus = 'PENDING_APPROVAL' | 'DELIVERED' | 'REJECTED'

/** Who a message goes to: one punter, a segment (any of jurisdiction, state, tier), or everyone. */
export type Audience =
  | { type: 'punter'; punterId: number; accountNumber: string }
  | { type: 'segment'; jurisdiction?: string; state?: string; tier?: string }
  | { type: 'everyone' }

export interface StoredMessage {
  id: number
  source: MessageSource
  kind: MessageKind
  texts: Record<string, string>
  iconUrl: string | null
  audience: Audience
  status: MessageStatus
  author: string
  approver: string | null
  decisionComment: string | null
  createdAt: number
  deliveredAt: number | null
  recipients: number
}

interface MessageRow {
  id: number
  source: MessageSource
  kind: MessageKind
  texts: string
  icon_url: string | null
  audience: string
  status: MessageStatus
  author: string
  approver: string | null
  decision_comment: string | null
  created_at: number
  delivered_at: number | null
  recipients: number
}

const fromRow = (row: MessageRow): StoredMessage => ({
  id: row.id,
  source: row.source,
  kind: row.kind,
  texts: JSON.parse(row.texts) as Record<string, string>,
  iconUrl: row.icon_url,
  audience: JSON.parse(row.audience) as Audience,
  status: row.status,
  author: row.author,
  approver: row.approver,
  decisionComment: row.decision_comment,
  createdAt: row.created_at,
  deliveredAt: row.delivered_at,
  recipients: row.recipients,
})

export interface NewMessage {
  source: MessageSource
  kind: MessageKind
  texts: Record<string, string>
  iconUrl?: string | null
  audience: Audience
  author: string
  demoKey?: string
}

/** A mass message waits for a second admin; a message to one punter goes out at once. */
export const needsApproval = (audience: Audience) => audience.type !== 'punter'

export function insertMessage(db: Db, message: NewMessage, now: number): StoredMessage {
  const info = db
    .prepare(
      `INSERT INTO punter_messages (source, kind, texts, icon_url, audience, status, author, created_at, demo_key)
       VALUES (?, ?, ?, ?, ?, 'PENDING_APPROVAL', ?, ?, ?)`,
    )
    .run(message.source, message.kind, JSON.stringify(message.texts), message.iconUrl ?? null, JSON.stringify(message.audience), message.author, now, message.demoKey ?? null)
  return findMessage(db, Number(info.lastInsertRowid))!
}

export function findMessage(db: Db, id: number): StoredMessage | undefined {
  const row = db.prepare('SELECT * FROM punter_messages WHERE id = ?').get(id) as MessageRow | undefined
  return row && fromRow(row)
}

export function listMessages(db: Db, limit = 100): StoredMessage[] {
  return (db.prepare('SELECT * FROM punter_messages WHERE demo_key IS NULL ORDER BY id DESC LIMIT ?').all(limit) as MessageRow[]).map(fromRow)
}

/** The punters an audience names (ids), read from the punters table now. */
export function recipientsOf(db: Db, audience: Audience): number[] {
  if (audience.type === 'punter') return [audience.punterId]
  const where: string[] = []
  const params: string[] = []
  if (audience.type === 'segment') {
    if (audience.jurisdiction) where.push('jurisdiction = ?'), params.push(audience.jurisdiction)
    if (audience.state) where.push('state = ?'), params.push(audience.state)
    if (audience.tier) where.push("COALESCE(json_extract(profile, '$.loyalty.tier'), 'Common') = ?"), params.push(audience.tier)
  }
  const sql = `SELECT id FROM punters${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id`
  return (db.prepare(sql).all(...params) as { id: number }[]).map((r) => r.id)
}

/** Writes the delivery rows and marks the message DELIVERED; returns the punters it reached. */
export function deliver(db: Db, id: number, approver: string | null, now: number): number[] {
  return db.transaction(() => {
    const message = findMessage(db, id)
    if (!message || message.status !== 'PENDING_APPROVAL') return []
    const punters = recipientsOf(db, message.audience)
    const insert = db.prepare('INSERT OR IGNORE INTO punter_message_deliveries (message_id, punter_id, delivered_at) VALUES (?, ?, ?)')
    for (const punterId of punters) insert.run(id, punterId, now)
    db.prepare("UPDATE punter_messages SET status = 'DELIVERED', approver = ?, delivered_at = ?, recipients = ? WHERE id = ?").run(approver, now, punters.length, id)
    return punters
  })()
}

export function reject(db: Db, id: number, approver: string, comment: string | null): boolean {
  return db.prepare("UPDATE punter_messages SET status = 'REJECTED', approver = ?, decision_comment = ? WHERE id = ? AND status = 'PENDING_APPROVAL'").run(approver, comment, id).changes === 1
}

// ---- the punter's side ---------------------------------------------------------------------------

export interface PunterMessage {
  punterMessageId: number
  source: MessageSource
  kind: MessageKind
  localizedMessage: string
  iconUrlMobile: string | null
  createdAt: string
  read: boolean
}

interface DeliveryRow {
  id: number
  source: MessageSource
  kind: MessageKind
  texts: string
  icon_url: string | null
  delivered_at: number
  read_at: number | null
}

/** The text in the punter's locale, else English, else the first one written. */
export function localized(texts: Record<string, string>, locale: string): string {
  return texts[locale] ?? texts.en ?? Object.values(texts)[0] ?? ''
}

const view = (row: DeliveryRow, locale: string): PunterMessage => ({
  punterMessageId: row.id,
  source: row.source,
  kind: row.kind,
  localizedMessage: localized(JSON.parse(row.texts) as Record<string, string>, locale),
  iconUrlMobile: row.icon_url,
  createdAt: new Date(row.delivered_at).toISOString(),
  read: row.read_at !== null,
})

const DELIVERY_SELECT = `SELECT m.id, m.source, m.kind, m.texts, m.icon_url, d.delivered_at, d.read_at
  FROM punter_message_deliveries d JOIN punter_messages m ON m.id = d.message_id`

export function messageFor(db: Db, punterId: number, messageId: number, locale: string): PunterMessage | undefined {
  const row = db.prepare(`${DELIVERY_SELECT} WHERE d.punter_id = ? AND d.message_id = ?`).get(punterId, messageId) as DeliveryRow | undefined
  return row && view(row, locale)
}

export interface InboxStatistics {
  totalMessagesCount: number
  unreadMessagesCount: number
}

export function inboxStatistics(db: Db, punterId: number): InboxStatistics {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS total, COALESCE(SUM(d.read_at IS NULL), 0) AS unread
       FROM punter_message_deliveries d JOIN punter_messages m ON m.id = d.message_id
       WHERE d.punter_id = ? AND m.kind = 'INBOX'`,
    )
    .get(punterId) as { total: number; unread: number }
  return { totalMessagesCount: row.total, unreadMessagesCount: row.unread }
}

/** One page of the inbox (INBOX messages), newest first; pageNumber counts from 0. */
export function inboxPage(db: Db, punterId: number, pageNumber: number, pageSize: number, locale: string) {
  const stats = inboxStatistics(db, punterId)
  const rows = db
    .prepare(`${DELIVERY_SELECT} WHERE d.punter_id = ? AND m.kind = 'INBOX' ORDER BY d.delivered_at DESC, m.id DESC LIMIT ? OFFSET ?`)
    .all(punterId, pageSize, pageNumber * pageSize) as DeliveryRow[]
  return {
    content: rows.map((row) => view(row, locale)),
    pageData: { pageNumber, pageSize, totalPages: Math.ceil(stats.totalMessagesCount / pageSize), totalElements: stats.totalMessagesCount, hasNext: (pageNumber + 1) * pageSize < stats.totalMessagesCount, hasPrevious: pageNumber > 0 },
    totalMessagesCount: stats.totalMessagesCount,
    unreadMessagesCount: stats.unreadMessagesCount,
  }
}

/** The unread EXTERNAL messages of some sources: what the page shows as notifications or popups. */
export function activeMessages(db: Db, punterId: number, sources: MessageSource[], locale: string): PunterMessage[] {
  const rows = db
    .prepare(`${DELIVERY_SELECT} WHERE d.punter_id = ? AND m.kind = 'EXTERNAL' AND d.read_at IS NULL AND m.source IN (${sources.map(() => '?').join(', ')}) ORDER BY d.delivered_at, m.id LIMIT 20`)
    .all(punterId, ...sources) as DeliveryRow[]
  return rows.map((row) => view(row, locale))
}

/** Marks the punter's messages of one source read; ids of other punters or sources change nothing. */
export function markRead(db: Db, punterId: number, source: MessageSource, ids: number[], now: number): number {
  const mark = db.prepare(
    `UPDATE punter_message_deliveries SET read_at = ?
     WHERE punter_id = ? AND message_id = ? AND read_at IS NULL
       AND message_id IN (SELECT id FROM punter_messages WHERE source = ?)`,
  )
  return db.transaction(() => ids.reduce((count, id) => count + mark.run(now, punterId, id, source).changes, 0))()
}
