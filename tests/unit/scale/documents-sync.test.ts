/**
 * The poll of the publish generation (server/bus/documents-sync.ts): while LISTEN is up on
 * PostgreSQL, NOTIFY brings each publish and the row is read only every LISTENING_POLL_MS (a safety
 * net for a lost notification); while LISTEN is down, and on SQLite (no listener), every POLL_MS.
 * The listener here is a stand-in whose state the test sets; the real LISTEN path is covered on
 * PostgreSQL by tests/http/admin/documents-engines.test.ts (a publish on A served by B within 2 s).
 * Only setInterval is faked: the ticks are the test's, the database reads run as they do.
 */
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createProcessBus } from '../../../server/bus/bus'
import { LISTENING_POLL_MS, POLL_MS, syncPublishedDocuments, type DocumentsSync } from '../../../server/bus/documents-sync'
import { openDatabase, type Db } from '../../../server/db/database'
import { openDataLayer, type DataLayer } from '../../../server/db/data-layer'
import { migrateDatabase } from '../../../server/db/migrate'
import { createLogger } from '../../../server/log'

let db: Db
let data: DataLayer
let sync: DocumentsSync | undefined
let reloads = 0

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
  db = openDatabase(':memory:')
  data = openDataLayer({ sqlite: db })
  await migrateDatabase(data)
  reloads = 0
})
afterEach(async () => {
  await sync?.stop()
  sync = undefined
  vi.useRealTimers()
  db.close()
})

/** Another instance publishes: the generation moves, and nothing here is told. */
const publishElsewhere = () => sql`UPDATE store_publish_generation SET generation = generation + 1 WHERE id = 1`.execute(data.db)
/** Lets the reads a tick started finish (a macrotask after their promise chains). */
const settle = () => new Promise((done) => setImmediate(done))

/** A sync whose listener is up or down as `state.up` says; `state.heard` is what a NOTIFY calls. */
async function startSync(state: { up: boolean; heard?: () => void }): Promise<void> {
  sync = await syncPublishedDocuments({
    data,
    bus: createProcessBus(),
    log: createLogger(() => {}, true),
    isOpen: () => true,
    reload: async () => void reloads++,
    listen: (heard) => {
      state.heard = heard
      return { listening: () => state.up, stop: async () => {} }
    },
  })
}

describe('documents-sync polling (issue 16)', () => {
  it(`with LISTEN up the generation is not polled every ${POLL_MS} ms: a publish elsewhere arrives with its notification`, async () => {
    const listener: { up: boolean; heard?: () => void } = { up: true }
    await startSync(listener)
    await publishElsewhere()
    await vi.advanceTimersByTimeAsync(POLL_MS * 5)
    await settle()
    expect(reloads).toBe(0)
    listener.heard!()
    await expect.poll(() => reloads).toBe(1)
  })

  it(`with LISTEN up a publish whose notification was lost is found by the ${LISTENING_POLL_MS / 1000} s safety-net poll`, async () => {
    await startSync({ up: true })
    await publishElsewhere()
    await vi.advanceTimersByTimeAsync(LISTENING_POLL_MS - POLL_MS)
    await settle()
    expect(reloads).toBe(0)
    await vi.advanceTimersByTimeAsync(POLL_MS)
    await expect.poll(() => reloads).toBe(1)
  })

  it(`with LISTEN down (dropped, reconnecting) the generation is polled every ${POLL_MS} ms again`, async () => {
    const listener = { up: true }
    await startSync(listener)
    listener.up = false
    await publishElsewhere()
    await vi.advanceTimersByTimeAsync(POLL_MS)
    await expect.poll(() => reloads).toBe(1)
    await publishElsewhere()
    await vi.advanceTimersByTimeAsync(POLL_MS)
    await expect.poll(() => reloads).toBe(2)
  })

  it(`on SQLite (nothing listens) the generation is polled every ${POLL_MS} ms, as before`, async () => {
    sync = await syncPublishedDocuments({ data, bus: createProcessBus(), log: createLogger(() => {}, true), isOpen: () => true, reload: async () => void reloads++ })
    await publishElsewhere()
    await vi.advanceTimersByTimeAsync(POLL_MS)
    await expect.poll(() => reloads).toBe(1)
  })
})
