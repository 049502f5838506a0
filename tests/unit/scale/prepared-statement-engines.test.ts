/**
 * `preparedStatement` (server/db/data-layer.ts), the heartbeat's session check's statement: built
 * and compiled once, then run with each call's own values, on both engines; on PostgreSQL it runs
 * as a named prepared statement of the connection (parsed once per connection, issue 16).
 */
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase } from '../../../server/db/database'
import { openDataLayer, preparedStatement, type DataLayer } from '../../../server/db/data-layer'
import { migrateDatabase } from '../../../server/db/migrate'
import { engines } from '../../support/postgres'

const engine = engines()
const handles: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const close of handles) await close()
})

async function dataOn(which: 'sqlite' | 'postgres'): Promise<DataLayer> {
  const sqlite = openDatabase(':memory:')
  const data = openDataLayer({ sqlite, databaseUrl: (await engine.on(which)).databaseUrl })
  handles.push(async () => {
    await data.close()
    closeDatabase(sqlite)
  })
  await migrateDatabase(data)
  return data
}

const failuresOf = preparedStatement((db, values: { key: string; after: number }) =>
  db.selectFrom('auth_login_failures').select(['key', 'at']).where('scope', '=', 'login').where('key', '=', values.key).where('at', '>', values.after).orderBy('at'),
)

describe.each(engine.each)('a prepared statement on %s', (which, runs) => {
  it.runIf(runs)("runs every call with that call's values, never an earlier call's", async () => {
    const data = await dataOn(which)
    await data.db
      .insertInto('auth_login_failures')
      .values([
        { scope: 'login', key: 'a', at: 1 },
        { scope: 'login', key: 'a', at: 5 },
        { scope: 'login', key: 'b', at: 2 },
      ])
      .execute()
    expect(await failuresOf.execute(data, { key: 'a', after: 0 })).toEqual([
      { key: 'a', at: 1 },
      { key: 'a', at: 5 },
    ])
    expect(await failuresOf.execute(data, { key: 'b', after: 0 })).toEqual([{ key: 'b', at: 2 }])
    expect(await failuresOf.execute(data, { key: 'a', after: 1 })).toEqual([{ key: 'a', at: 5 }])
    expect(await failuresOf.execute(data, { key: 'c', after: 0 })).toEqual([])
    if (which === 'postgres') {
      // one connection served these calls one after another: it holds the statement by name
      const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(data.db)
      expect(prepared.rows.filter((row) => row.name.startsWith('parlay_') && row.statement.includes('auth_login_failures'))).toHaveLength(1)
    }
  })
})
