/**
 * Published documents reach every instance (issue 16: within 2 s). Every change of the published
 * set bumps one counter row in the same transaction (database triggers on `store_published`, so
 * no writer can forget it). Each instance serves the set of the generation it last installed; it
 * looks at the row at once when another instance says "documents published", and by a poll (one
 * primary-key read): on PostgreSQL the trigger itself sends a NOTIFY on commit, heard on a
 * dedicated connection (LISTEN, reconnecting), so the row is polled every POLL_MS only while that
 * connection is down, and every LISTENING_POLL_MS as a safety net while it is up; on SQLite (one
 * file, instances on one host) the bus message and the POLL_MS poll do it, as before.
 */
import pg from 'pg'
import { sql } from 'kysely'
import '../store/store' // the store's tables exist before the triggers on them
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Executor } from '../store/store'
import type { Logger } from '../log'
import type { Bus } from './bus'

export const sqliteScale901PublishGeneration = sqliteHistory(
  'scale-901-publish-generation',
  `CREATE TABLE store_publish_generation (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL);
   INSERT INTO store_publish_generation (id, generation) VALUES (1, 0);
   CREATE TRIGGER store_published_generation_insert AFTER INSERT ON store_published
     BEGIN UPDATE store_publish_generation SET generation = generation + 1 WHERE id = 1; END;
   CREATE TRIGGER store_published_generation_update AFTER UPDATE ON store_published
     BEGIN UPDATE store_publish_generation SET generation = generation + 1 WHERE id = 1; END;
   CREATE TRIGGER store_published_generation_delete AFTER DELETE ON store_published
     BEGIN UPDATE store_publish_generation SET generation = generation + 1 WHERE id = 1; END;`,
)

/** The channel PostgreSQL's trigger notifies on (payload: the new generation). */
export const PUBLISHED_CHANNEL = 'parlay_documents_published'

declare module '../db/tables' {
  interface Tables {
    store_publish_generation: { id: number; generation: number }
  }
}

// The rule "every change of the published set bumps the generation", as each engine writes a
// trigger: SQLite's are in scale-901 above; PostgreSQL's also notifies the listeners.
export const q032PublishGeneration = schemaStep('q032-publish-generation', async (db, engine) => {
  await db.schema
    .createTable('store_publish_generation')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .execute()
  await db.insertInto('store_publish_generation').values({ id: 1, generation: 0 }).onConflict((oc) => oc.column('id').doNothing()).execute()
  if (engine !== 'postgres') return
  await sql`CREATE OR REPLACE FUNCTION store_published_generation() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE next bigint;
    BEGIN
      UPDATE store_publish_generation SET generation = generation + 1 WHERE id = 1 RETURNING generation INTO next;
      PERFORM pg_notify(${sql.lit(PUBLISHED_CHANNEL)}, next::text);
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER store_published_generation AFTER INSERT OR UPDATE OR DELETE ON store_published FOR EACH ROW EXECUTE FUNCTION store_published_generation()`.execute(db)
})

/** How often an instance looks for a publish made elsewhere (the notification is faster). */
export const POLL_MS = 1_000
/**
 * The poll while LISTEN is up (PostgreSQL): NOTIFY already brings every publish, so the poll is only
 * a safety net for a notification lost without the connection dropping.
 */
export const LISTENING_POLL_MS = 30_000
/** How long a dropped LISTEN connection waits before it reconnects (the poll covers the gap). */
export const RELISTEN_MS = 1_000

export async function publishGeneration(db: Executor): Promise<number> {
  return (await db.selectFrom('store_publish_generation').select('generation').where('id', '=', 1).executeTakeFirst())?.generation ?? 0
}

export interface DocumentsSync {
  /** The served set was just installed here, as of `generation` (read in the transaction that published it). */
  installed(generation?: number): void
  stop(): Promise<void>
}

export interface DocumentsSyncOptions {
  data: DataLayer
  bus: Bus
  log: Logger
  /** Serves the published set again (the store's `serve(publishedRecords())`). */
  reload: () => Promise<void>
  /** The PostgreSQL URL of `data` (LISTEN needs its own connection); absent on SQLite. */
  databaseUrl?: string
  isOpen: () => boolean
  pollMs?: number
  /** How publishes are heard besides the poll (tests); default: LISTEN on PostgreSQL with `databaseUrl`, none on SQLite. */
  listen?: (heard: () => void, log: Logger) => PublishListener
}

/** A connection that hears publishes; while it is `listening`, the poll slows to LISTENING_POLL_MS. */
export interface PublishListener {
  listening(): boolean
  stop(): Promise<void>
}

/** Follows the publish generation; answers once the current one is known. */
export async function syncPublishedDocuments(options: DocumentsSyncOptions): Promise<DocumentsSync> {
  const { data, bus, log, reload, isOpen } = options
  let served = await publishGeneration(data.db)
  let announced = served
  let looking: Promise<void> | null = null
  let again = false
  const lookOnce = async () => {
    const now = await publishGeneration(data.db)
    if (now === served) return
    served = now
    await reload()
    log.info('documents.reloaded', { generation: now })
  }
  // one look at a time; a call during a look makes one more after it
  const look = (): void => {
    if (!isOpen()) return
    if (looking) return void (again = true)
    looking = lookOnce()
      .catch((error: unknown) => log.warn('documents.sync.failed', { error: (error as Error).message }))
      .finally(() => {
        looking = null
        if (again) (again = false), look()
      })
  }
  const { databaseUrl } = options
  const listen = options.listen ?? (data.engine === 'postgres' && databaseUrl ? (heard, logger) => listenForPublishes(databaseUrl, heard, logger) : undefined)
  const listener = listen?.(look, log)
  // every tick while nothing listens; while LISTEN is up, only every LISTENING_POLL_MS
  const pollMs = options.pollMs ?? POLL_MS
  const ticksWhileListening = Math.max(1, Math.round(LISTENING_POLL_MS / pollMs))
  let quietTicks = 0
  const timer = setInterval(() => {
    if (listener?.listening() && ++quietTicks < ticksWhileListening) return
    quietTicks = 0
    look()
  }, pollMs)
  timer.unref()
  const unsubscribe = bus.subscribe('documents-published', ({ from }) => {
    if (from !== bus.instanceId) look()
  })
  const announce = () =>
    setImmediate(() => {
      if (served === announced || !isOpen()) return
      announced = served
      bus.publish('documents-published', { generation: served })
    })
  return {
    installed(generation) {
      if (!isOpen()) return
      // after the commit, tell the others (the poll would find it within POLL_MS anyway)
      if (generation !== undefined) return void ((served = Math.max(served, generation)), announce())
      publishGeneration(data.db).then(
        (now) => ((served = now), announce()),
        (error: unknown) => log.warn('documents.sync.failed', { error: (error as Error).message }),
      )
    },
    async stop() {
      clearInterval(timer)
      unsubscribe()
      await listener?.stop()
    },
  }
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries): every notification
 * calls `heard`. A dropped connection is logged and opened again after RELISTEN_MS, with one look
 * on reconnect (a publish during the gap is found then, or by the poll, at POLL_MS meanwhile).
 */
function listenForPublishes(databaseUrl: string, heard: () => void, log: Logger): PublishListener {
  let stopped = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined
  // true from the LISTEN's acknowledgement until the connection drops
  let listening = false
  const connect = async () => {
    if (stopped) return
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 })
    client = next
    const reconnect = (error?: Error) => {
      if (client !== next || stopped) return
      client = undefined
      listening = false
      if (error) log.warn('documents.listen.dropped', { error: error.message })
      next.end().catch(() => {})
      retry = setTimeout(() => void connect(), RELISTEN_MS)
      retry.unref()
    }
    next.on('error', reconnect)
    next.on('end', () => reconnect(new Error('connection ended')))
    next.on('notification', (message) => message.channel === PUBLISHED_CHANNEL && heard())
    try {
      await next.connect()
      await next.query(`LISTEN ${PUBLISHED_CHANNEL}`)
      if (stopped) return void (await next.end().catch(() => {}))
      listening = client === next
      heard()
    } catch (error) {
      reconnect(error as Error)
    }
  }
  void connect()
  return {
    listening: () => listening,
    async stop() {
      stopped = true
      listening = false
      clearTimeout(retry)
      const open = client
      client = undefined
      await open?.end().catch(() => {})
    },
  }
}
