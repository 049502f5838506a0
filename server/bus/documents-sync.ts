/**
 * Published documents reach every instance (issue 16: within 2 s). Every change of the published
 * set bumps one counter row in the same transaction (database triggers on `store_published`, so
 * no writer can forget it). Each instance serves the set of the generation it last installed; it
 * looks at the row every POLL_MS (one primary-key read) and at once when another instance says
 * "documents published" on the bus, and reloads its served set when the row moved.
 */
import '../store/store' // the store's tables exist before the triggers on them
import { registerMigration, type Db } from '../db/database'
import type { Logger } from '../log'
import type { Bus } from './bus'

registerMigration(
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

/** How often an instance looks for a publish made elsewhere (the bus message is faster). */
export const POLL_MS = 1_000

export function publishGeneration(db: Db): number {
  return (db.prepare('SELECT generation FROM store_publish_generation WHERE id = 1').get() as { generation: number } | undefined)?.generation ?? 0
}

export interface DocumentsSync {
  /** The served set was just installed here (inside the transaction that published it). */
  installed(): void
  stop(): void
}

/** `reload` serves the published set again (the store's `serve(publishedRecords())`). */
export function syncPublishedDocuments(options: { db: Db; bus: Bus; log: Logger; reload: () => void; pollMs?: number }): DocumentsSync {
  const { db, bus, log, reload } = options
  let served = publishGeneration(db)
  let announced = served
  const look = () => {
    if (!db.open) return
    try {
      const now = publishGeneration(db)
      if (now !== served) {
        served = now
        reload()
        log.info('documents.reloaded', { generation: now })
      }
    } catch (error) {
      log.warn('documents.sync.failed', { error: (error as Error).message })
    }
  }
  const timer = setInterval(look, options.pollMs ?? POLL_MS)
  timer.unref()
  const unsubscribe = bus.subscribe('documents-published', ({ from }) => {
    if (from !== bus.instanceId) look()
  })
  return {
    installed() {
      if (!db.open) return
      served = publishGeneration(db)
      // after the commit, tell the others (the poll would find it within POLL_MS anyway)
      setImmediate(() => {
        if (served === announced || !db.open) return
        announced = served
        bus.publish('documents-published', { generation: served })
      })
    },
    stop() {
      clearInterval(timer)
      unsubscribe()
    },
  }
}
