/**
 * What the ingest may keep (issue 30 item 2): every stored row of analytics events, reported
 * errors, replay batches and tap windows carries its size (`stored_bytes`: the body it keeps plus
 * a fixed row overhead), and `ingest_usage` keeps each kind's total, changed in the same
 * transaction as the rows. Past the storage budget the oldest rows go first, whatever their kind,
 * in the transaction that went over it — so no flood, however spread, grows the tables past the
 * budget. A sweep deletes each kind's rows past its retention (server/services/ingest-sweep.ts).
 *
 * Serialised on 'ingest' (an advisory lock on PostgreSQL; SQLite writers are serial anyway), so
 * instances sharing one database never evict twice or count a row twice.
 */
import { sql, type Kysely, type Transaction } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import type { Tables } from '../db/tables'
import { INGEST_KINDS, type IngestKind } from './ingest-policy'

interface IngestUsageTable {
  kind: IngestKind
  bytes: number
  rows: number
}

declare module '../db/tables' {
  interface Tables {
    ingest_usage: IngestUsageTable
  }
}

/** The table of each kind of ingest row. */
export const INGEST_TABLES = { events: 'analytics_events', errors: 'reported_errors', replays: 'replay_batches', clicks: 'replay_clicks' } as const satisfies Record<IngestKind, keyof Tables>

/** What a row costs besides its body: ids, times, device and session (an estimate, the same on both engines). */
export const ROW_OVERHEAD = 64

/** A row's size from its stored body, written with it (the backfill below uses the same sums). */
const SIZE_OF: Record<IngestKind, string> = {
  events: `length(properties) + length(event_type) + length(device_id) + ${ROW_OVERHEAD}`,
  errors: `length(message) + length(frames) + coalesce(length(url), 0) + ${ROW_OVERHEAD}`,
  replays: `length(body) + length(device_id) + ${ROW_OVERHEAD}`,
  clicks: `length(page) + length(target) + length(device_id) + ${ROW_OVERHEAD}`,
}

/**
 * The step `q091-services-ingest-bounds`: sizes on every ingest row, the usage counts, the indexes
 * retention needs. Registered by ./store.ts right after the tables' own step (q052): migrations
 * run in the order registered, and this one alters those tables.
 */
export async function ingestBoundsStep(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const kind of INGEST_KINDS) {
    const table = INGEST_TABLES[kind]
    await db.schema.alterTable(table).addColumn('stored_bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute()
    await sql`UPDATE ${sql.table(table)} SET stored_bytes = ${sql.raw(SIZE_OF[kind])}`.execute(db)
  }
  // the punter of an error comes from the reporting session, as for events and replays
  await db.schema.alterTable('reported_errors').addColumn('user_id', 'text').execute()
  await db.schema.createIndex('analytics_events_received').ifNotExists().on('analytics_events').column('received_at').execute()
  await db.schema.createIndex('reported_errors_received').ifNotExists().on('reported_errors').column('received_at').execute()
  await db.schema.createTable('ingest_usage').ifNotExists().addColumn('kind', 'text', (c) => c.primaryKey()).addColumn('bytes', 'bigint', (c) => c.notNull()).addColumn('rows', 'bigint', (c) => c.notNull()).execute()
  for (const kind of INGEST_KINDS) {
    const table = INGEST_TABLES[kind]
    await sql`INSERT INTO ingest_usage (kind, bytes, rows) SELECT ${sql.lit(kind)}, coalesce(sum(stored_bytes), 0), count(*) FROM ${sql.table(table)}`.execute(db)
  }
}

type Tx = Transaction<Tables>

/** Runs an ingest write serialised with every other (one usage count, one eviction at a time). */
export const ingestTransaction = <T>(data: DataLayer, work: (tx: Tx) => Promise<T>) => data.transaction(work, { serialiseOn: 'ingest' })

/** Counts rows just stored, then evicts the oldest rows while the total is over the budget. */
export async function chargeIngest(tx: Tx, kind: IngestKind, bytes: number, rows: number, budgetBytes: number): Promise<void> {
  await tx.updateTable('ingest_usage').set((eb) => ({ bytes: eb('bytes', '+', bytes), rows: eb('rows', '+', rows) })).where('kind', '=', kind).execute()
  let over = (await totalBytes(tx)) - budgetBytes
  // each round deletes the oldest rows of the kind whose oldest row is oldest; a few rounds at most
  for (let round = 0; over > 0 && round < 50; round++) over -= await evictOldest(tx, over)
}

async function totalBytes(tx: Tx): Promise<number> {
  const row = await tx.selectFrom('ingest_usage').select((eb) => eb.fn.sum<number>('bytes').as('bytes')).executeTakeFirst()
  return Number(row?.bytes ?? 0)
}

/** Deletes up to 500 of the oldest rows (of the kind holding the oldest row) worth at least `bytes`; answers the bytes freed. */
async function evictOldest(tx: Tx, bytes: number): Promise<number> {
  let oldest: { kind: IngestKind; at: number } | undefined
  for (const kind of INGEST_KINDS) {
    const row = await tx.selectFrom(INGEST_TABLES[kind]).select('received_at').orderBy('id').limit(1).executeTakeFirst()
    if (row && (!oldest || Number(row.received_at) < oldest.at)) oldest = { kind, at: Number(row.received_at) }
  }
  if (!oldest) return bytes // nothing left to evict: the count is off, let the caller stop
  const table = INGEST_TABLES[oldest.kind]
  const candidates = await tx.selectFrom(table).select(['id', 'stored_bytes']).orderBy('id').limit(500).execute()
  let freed = 0
  let last = candidates[0].id
  let count = 0
  for (const row of candidates) {
    freed += Number(row.stored_bytes)
    last = row.id
    count++
    if (freed >= bytes) break
  }
  await tx.deleteFrom(table).where('id', '<=', last).execute()
  await tx.updateTable('ingest_usage').set((eb) => ({ bytes: eb('bytes', '-', freed), rows: eb('rows', '-', count) })).where('kind', '=', oldest.kind).execute()
  return freed
}

/** Deletes a kind's rows received at or before `cutoff`; answers how many. */
export async function deleteOlderThan(data: DataLayer, kind: IngestKind, cutoff: number): Promise<number> {
  const table = INGEST_TABLES[kind]
  return ingestTransaction(data, async (tx) => {
    const gone = await tx.selectFrom(table).select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.sum<number>('stored_bytes').as('bytes')]).where('received_at', '<=', cutoff).executeTakeFirst()
    const rows = Number(gone?.rows ?? 0)
    if (rows === 0) return 0
    await tx.deleteFrom(table).where('received_at', '<=', cutoff).execute()
    await tx.updateTable('ingest_usage').set((eb) => ({ bytes: eb('bytes', '-', Number(gone?.bytes ?? 0)), rows: eb('rows', '-', rows) })).where('kind', '=', kind).execute()
    return rows
  })
}

/** Each kind's stored bytes and rows, as counted. */
export async function ingestUsage(data: DataLayer): Promise<Record<IngestKind, { bytes: number; rows: number }>> {
  const rows = await data.db.selectFrom('ingest_usage').selectAll().execute()
  return Object.fromEntries(INGEST_KINDS.map((kind) => {
    const row = rows.find((r) => r.kind === kind)
    return [kind, { bytes: Number(row?.bytes ?? 0), rows: Number(row?.rows ?? 0) }]
  })) as Record<IngestKind, { bytes: number; rows: number }>
}
