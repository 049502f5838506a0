/**
 * Issue 30 item 6: many instances, one database, any start order. Four real server processes
 * (`npm start`'s command) are started at the same moment on one EMPTY database, as the replicas of
 * a deployment are: on PostgreSQL (the PostgreSQL pass) each with its own data folder, as on four
 * hosts; on SQLite all four on one data folder's file. Before, the second instance on PostgreSQL
 * died with `duplicate key value violates unique constraint "punter_messages_demo_key_key"` (the
 * demo seeding raced) and migrations ran in import order, each step under its own lock.
 *
 * Every instance must come up and serve: the ping, a document, a punter login; the database ends
 * with every migration once and each demo row once.
 */
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../../server/db/migrations'
import { demoPunters } from '../../../server/punters/demo'
import { demoMessages } from '../../../server/messages/demo'
import { addresses, apiCaller, DEMO_PASSWORD } from '../../support/api'
import { emptyPostgresDatabase } from '../../support/postgres'
import { onPostgres, rawRequest, SCHEMAS_DIR, startServerProcess, type ServerProcess } from '../../support/server'

const INSTANCES = 4
const STARTED = /at http:\/\/localhost:(\d+)/

/** Resolves once the process has printed its address, or has exited (a state, not a clock). */
const startedOrExited = (p: ServerProcess) =>
  new Promise<void>((done) => {
    const check = () => (STARTED.test(p.output.stdout) || p.child.exitCode !== null) && done()
    p.child.stdout!.on('data', check)
    p.child.once('exit', check)
    check()
  })

describe.runIf(onPostgres)(`${INSTANCES} instances started at the same moment on one empty ${onPostgres ? 'PostgreSQL database' : 'SQLite file'}`, () => {
  const root = mkdtempSync(join(tmpdir(), 'parlay-four-'))
  const dirs = { dist: join(root, 'dist'), documents: join(root, 'schemas') }
  let databaseUrl: string | undefined
  let processes: ServerProcess[] = []

  beforeAll(async () => {
    mkdirSync(dirs.dist)
    writeFileSync(join(dirs.dist, 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
    cpSync(SCHEMAS_DIR, dirs.documents, { recursive: true })
    if (onPostgres) databaseUrl = await emptyPostgresDatabase()
    // instances on one PostgreSQL database share its audit log, so they hold one audit key
    const env = { PARLAY_SIMULATORS: 'on', ...(databaseUrl ? { DATABASE_URL: databaseUrl, PARLAY_AUDIT_KEY: createHash('sha256').update(root).digest('hex') } : {}) }
    processes = Array.from({ length: INSTANCES }, (_, i) => startServerProcess({ ...dirs, data: join(root, onPostgres ? `data-${i}` : 'data') }, env))
    await Promise.all(processes.map(startedOrExited))
  }, 180_000)

  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM')
    await Promise.all(processes.map((p) => p.exited))
    rmSync(root, { recursive: true, force: true })
  })

  const ports = () => processes.map((p) => Number(STARTED.exec(p.output.stdout)?.[1]))

  // four logins (argon2) while four fresh servers compile their validators on a shared 2-core machine
  it('every instance comes up (none exits) and serves the ping, a document and a punter login', { timeout: 60_000 }, async () => {
    const failed = processes.filter((p) => p.child.exitCode !== null).map((p) => p.output.stderr.slice(-2000))
    expect(failed).toEqual([])
    for (const [i, port] of ports().entries()) {
      // a fresh connection per call: a kept-alive one races the server closing it when idle on a busy machine
      const get = (path: string, headers: Record<string, string> = {}) =>
        rawRequest(port, { path, headers: { connection: 'close', ...headers } }).catch((error: Error) => {
          const instance = processes[i]
          throw new Error(`instance ${i} (exit ${instance.child.exitCode}): ${error.message}\n${instance.output.stderr.slice(-1500)}\n${instance.output.stdout.slice(-1500)}`)
        })
      expect((await get('/ping.json')).status).toBe(200)
      const document = await get('/api/documents/flow/signup-email', { host: `spain.localhost:${port}` })
      expect(document.status).toBe(200)
      expect(document.json().steps.length).toBeGreaterThan(1)
      const call = apiCaller(`http://127.0.0.1:${port}`, addresses(70 + i))
      const login = await call('POST', 'auth/v2/login', { body: { login: 'opened@demo.parlay.test', password: DEMO_PASSWORD } })
      expect(login.status, login.text).toBe(200)
      expect(login.json.payload.punterHash).toEqual(expect.any(String))
    }
  })

  it('the database has every migration once and each demo punter and demo message once', async () => {
    const queries = {
      migrations: 'SELECT name FROM migrations ORDER BY name',
      punters: 'SELECT account_number FROM punters ORDER BY account_number', // only demo punters: nobody signed up
      messages: 'SELECT demo_key FROM punter_messages WHERE demo_key IS NOT NULL ORDER BY demo_key',
    }
    const rows: Record<string, string[]> = {}
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      for (const [what, text] of Object.entries(queries)) rows[what] = (await client.query(text)).rows.map((r) => Object.values(r)[0] as string)
      await client.end()
    } else {
      const db = new Database(join(root, 'data', 'parlay.db'), { readonly: true })
      for (const [what, text] of Object.entries(queries)) rows[what] = db.prepare(text).pluck().all() as string[]
      db.close()
    }
    expect(rows.migrations).toEqual(MIGRATIONS.filter((m) => !onPostgres || m.kind === 'schema').map((m) => m.name).sort())
    expect(rows.punters).toEqual(demoPunters(0).map((p) => p.accountNumber).sort())
    expect(rows.messages).toEqual(demoMessages().map((m) => m.key).sort())
  })
})
