/**
 * Punter messages as rows (spec §3 "Messages", issue 15 item 1). A message is written once
 * (texts per locale, source web/global/club, kind INBOX or EXTERNAL) and delivered by one row per
 * punter that receives it; read state lives on that delivery row, so it follows the punter across
 * devices. A mass message (a segment or everyone) waits in PENDING_APPROVAL until a second admin
 * approves it; only then are delivery rows written. Nothing is deleted.
 *
 * On the query layer (issue 16): one copy of the queries for SQLite and PostgreSQL. The raw-SQL
 * migration is the history of existing SQLite files; the schema step (q051) is the tables on both
 * engines, without foreign keys to punters (that store may live in another database while the
 * stores move). Who a segment reaches is asked of the punters store (server/punters/lookups.ts).
 */
import { expressionBuilder, type Expression, type Generated, type Kysely, type Selectable } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Tables } from '../db/tables'
import { punterIdsInSegment } from '../punters/lookups'

export const sqliteMessages1501PunterMessages = sqliteHistory(
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

interface PunterMessageTable {
  id: Generated<number>
  source: MessageSource
  kind: MessageKind
  /** JSON: the text per locale. */
  texts: string
  icon_url: string | null
  /** JSON: the Audience. */
  audience: string
  status: MessageStatus
  author: string
  approver: string | null
  decision_comment: string | null
  created_at: number
  delivered_at: number | null
  recipients: Generated<number>
  demo_key: string | null
}

interface PunterMessageDeliveryTable {
  message_id: number
  punter_id: number
  delivered_at: number
  read_at: number | null
}

declare module '../db/tables' {
  interface Tables {
    punter_messages: PunterMessageTable
    punter_message_deliveries: PunterMessageDeliveryTable
  }
}

export const q051PunterMessages = schemaStep('q051-punter-messages', async (db, engine) => {
  await db.schema
    .createTable('punter_messages')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('texts', 'text', (c) => c.notNull())
    .addColumn('icon_url', 'text')
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('approver', 'text')
    .addColumn('decision_comment', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('recipients', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('demo_key', 'text', (c) => c.unique())
    .execute()
  await db.schema
    .createTable('punter_message_deliveries')
    .ifNotExists()
    .addColumn('message_id', surrogateKeyType(engine), (c) => c.notNull().references('punter_messages.id'))
    .addColumn('punter_id', 'integer', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .addPrimaryKeyConstraint('punter_message_deliveries_pkey', ['punter_id', 'message_id'])
    .execute()
  await db.schema.createIndex('punter_message_deliveries_inbox').ifNotExists().on('punter_message_deliveries').columns(['punter_id', 'delivered_at']).execute()
})

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

type MessageRow = Selectable<PunterMessageTable>

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

const newRow = (message: NewMessage, now: number) => ({
  source: message.source,
  kind: message.kind,
  texts: JSON.stringify(message.texts),
  icon_url: message.iconUrl ?? null,
  audience: JSON.stringify(message.audience),
  status: 'PENDING_APPROVAL' as const,
  author: message.author,
  approver: null,
  decision_comment: null,
  created_at: now,
  delivered_at: null,
  demo_key: message.demoKey ?? null,
})

export async function insertMessage(db: Kysely<Tables>, message: NewMessage, now: number): Promise<StoredMessage> {
  return fromRow(await db.insertInto('punter_messages').values(newRow(message, now)).returningAll().executeTakeFirstOrThrow())
}

/** A demo message, once per demo key however many instances seed at once (the unique demo_key):
 * undefined when another start wrote it first. */
export async function insertDemoMessage(db: Kysely<Tables>, message: NewMessage & { demoKey: string }, now: number): Promise<StoredMessage | undefined> {
  const row = await db.insertInto('punter_messages').values(newRow(message, now)).onConflict((oc) => oc.column('demo_key').doNothing()).returningAll().executeTakeFirst()
  return row && fromRow(row)
}

export async function findMessage(db: Kysely<Tables>, id: number): Promise<StoredMessage | undefined> {
  const row = await db.selectFrom('punter_messages').selectAll().where('id', '=', id).executeTakeFirst()
  return row && fromRow(row)
}

export async function listMessages(db: Kysely<Tables>, limit = 100): Promise<StoredMessage[]> {
  const rows = await db.selectFrom('punter_messages').selectAll().where('demo_key', 'is', null).orderBy('id', 'desc').limit(limit).execute()
  return rows.map(fromRow)
}

/** The punters an audience names (ids), asked of the punters store now. */
export async function recipientsOf(data: DataLayer, audience: Audience): Promise<number[]> {
  if (audience.type === 'punter') return [audience.punterId]
  return punterIdsInSegment(data, audience.type === 'segment' ? audience : {})
}

/** Delivery rows per insert statement (3 parameters each: far under both engines' limits). */
const DELIVERY_BATCH = 500

/**
 * Marks a pending message DELIVERED and writes its delivery rows; returns the punters it reached
 * (undefined when this call did not deliver it: not pending, or another delivery won). The recipients are read first (from the punters store, outside
 * the transaction: a transaction body awaits only its own database); the status change is a
 * conditional update inside it, so when two admins (or two instances) deliver at once exactly one
 * does, and a punter never gets a message twice (the delivery's primary key).
 */
export async function deliver(data: DataLayer, id: number, approver: string | null, now: number): Promise<number[] | undefined> {
  const message = await findMessage(data.db, id)
  if (!message || message.status !== 'PENDING_APPROVAL') return undefined
  const reached = await recipientsOf(data, message.audience)
  return data.transaction(async (tx) => {
    const claimed = await tx
      .updateTable('punter_messages')
      .set({ status: 'DELIVERED', approver, delivered_at: now, recipients: reached.length })
      .where('id', '=', id)
      .where('status', '=', 'PENDING_APPROVAL')
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) !== 1) return undefined
    for (let i = 0; i < reached.length; i += DELIVERY_BATCH) {
      const rows = reached.slice(i, i + DELIVERY_BATCH).map((punterId) => ({ message_id: id, punter_id: punterId, delivered_at: now }))
      await tx.insertInto('punter_message_deliveries').values(rows).onConflict((oc) => oc.columns(['punter_id', 'message_id']).doNothing()).execute()
    }
    return reached
  })
}

export async function reject(db: Kysely<Tables>, id: number, approver: string, comment: string | null): Promise<boolean> {
  const result = await db.updateTable('punter_messages').set({ status: 'REJECTED', approver, decision_comment: comment }).where('id', '=', id).where('status', '=', 'PENDING_APPROVAL').executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Marks every delivery of a message read (the demo inbox's older messages). */
export async function markDeliveriesRead(db: Kysely<Tables>, messageId: number, now: number): Promise<void> {
  await db.updateTable('punter_message_deliveries').set({ read_at: now }).where('message_id', '=', messageId).execute()
}

/** Whether the demo message of this key is there already. */
export async function hasDemoMessage(db: Kysely<Tables>, demoKey: string): Promise<boolean> {
  return (await db.selectFrom('punter_messages').select('id').where('demo_key', '=', demoKey).executeTakeFirst()) !== undefined
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

/** The punter's deliveries joined to their messages (both tables of this store). */
const deliveries = (db: Kysely<Tables>, punterId: number) =>
  db
    .selectFrom('punter_message_deliveries as d')
    .innerJoin('punter_messages as m', 'm.id', 'd.message_id')
    .select(['m.id', 'm.source', 'm.kind', 'm.texts', 'm.icon_url', 'd.delivered_at', 'd.read_at'])
    .where('d.punter_id', '=', punterId)

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

export async function messageFor(db: Kysely<Tables>, punterId: number, messageId: number, locale: string): Promise<PunterMessage | undefined> {
  const row: DeliveryRow | undefined = await deliveries(db, punterId).where('d.message_id', '=', messageId).executeTakeFirst()
  return row && view(row, locale)
}

export interface InboxStatistics {
  totalMessagesCount: number
  unreadMessagesCount: number
}

/**
 * The inbox counts of one punter as two scalar subqueries, so a caller can put them into a larger
 * statement (the heartbeat reads them with the session and the punter row in one round trip:
 * server/auth/sessions.ts authenticatePunter) and `inboxStatistics` reads them alone.
 */
export function inboxStatisticsColumns(punterId: Expression<number>) {
  const inbox = () => expressionBuilder<Tables, never>().selectFrom('punter_message_deliveries as d').innerJoin('punter_messages as m', 'm.id', 'd.message_id').where('d.punter_id', '=', punterId).where('m.kind', '=', 'INBOX')
  return [
    inbox()
      .select((sub) => sub.fn.countAll<number>().as('n'))
      .$asScalar()
      .as('inbox_total'),
    inbox()
      .select((sub) => sub.fn.countAll<number>().as('n'))
      .where('d.read_at', 'is', null)
      .$asScalar()
      .as('inbox_unread'),
  ] as const
}

/** The row of `inboxStatisticsColumns` as the API's numbers (count(*) is a string on PostgreSQL). */
export const toInboxStatistics = (row: { inbox_total: number | string | null; inbox_unread: number | string | null }): InboxStatistics => ({
  totalMessagesCount: Number(row.inbox_total ?? 0),
  unreadMessagesCount: Number(row.inbox_unread ?? 0),
})

export async function inboxStatistics(db: Kysely<Tables>, punterId: number): Promise<InboxStatistics> {
  return toInboxStatistics(await db.selectNoFrom((eb) => inboxStatisticsColumns(eb.val(punterId))).executeTakeFirstOrThrow())
}

/** One page of the inbox (INBOX messages), newest first; pageNumber counts from 0. */
export async function inboxPage(db: Kysely<Tables>, punterId: number, pageNumber: number, pageSize: number, locale: string) {
  const stats = await inboxStatistics(db, punterId)
  const rows: DeliveryRow[] = await deliveries(db, punterId)
    .where('m.kind', '=', 'INBOX')
    .orderBy('d.delivered_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(pageSize)
    .offset(pageNumber * pageSize)
    .execute()
  return {
    content: rows.map((row) => view(row, locale)),
    pageData: { pageNumber, pageSize, totalPages: Math.ceil(stats.totalMessagesCount / pageSize), totalElements: stats.totalMessagesCount, hasNext: (pageNumber + 1) * pageSize < stats.totalMessagesCount, hasPrevious: pageNumber > 0 },
    totalMessagesCount: stats.totalMessagesCount,
    unreadMessagesCount: stats.unreadMessagesCount,
  }
}

/** The unread EXTERNAL messages of some sources: what the page shows as notifications or popups. */
export async function activeMessages(db: Kysely<Tables>, punterId: number, sources: MessageSource[], locale: string): Promise<PunterMessage[]> {
  const rows: DeliveryRow[] = await deliveries(db, punterId)
    .where('m.kind', '=', 'EXTERNAL')
    .where('d.read_at', 'is', null)
    .where('m.source', 'in', sources)
    .orderBy('d.delivered_at')
    .orderBy('m.id')
    .limit(20)
    .execute()
  return rows.map((row) => view(row, locale))
}

/**
 * Marks the punter's messages of one source read; ids of other punters or sources change nothing.
 * One statement: an id read twice at once (two devices, two instances) is counted once.
 */
export async function markRead(db: Kysely<Tables>, punterId: number, source: MessageSource, ids: number[], now: number): Promise<number> {
  const result = await db
    .updateTable('punter_message_deliveries')
    .set({ read_at: now })
    .where('punter_id', '=', punterId)
    .where('message_id', 'in', ids)
    .where('read_at', 'is', null)
    .where('message_id', 'in', (eb) => eb.selectFrom('punter_messages').select('id').where('source', '=', source))
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}
