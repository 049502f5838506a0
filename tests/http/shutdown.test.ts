/**
 * Issue 16 item 3: SIGTERM drains. `npm start` as a real child process: a request already in
 * flight when SIGTERM comes finishes with 200, new connections are refused from then on, open
 * sockets are closed with 1001 "going away" (so clients reconnect, to another instance behind a
 * balancer), the process exits 0 and SQLite is closed cleanly: no -wal or -shm file is left. In
 * the PostgreSQL pass the child runs on PostgreSQL (DATABASE_URL) and its pool is closed too: no
 * session of it is left on the database.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import pg from 'pg'
import WebSocket from 'ws'
import { postgresDatabaseFor } from '../support/postgres'
import { SCHEMAS_DIR, onPostgres, startServerProcess } from '../support/server'

const root = mkdtempSync(join(tmpdir(), 'parlay-shutdown-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

async function startChild() {
  const dirs = { data: join(root, 'data'), dist: join(root, 'dist'), documents: join(root, 'schemas') }
  mkdirSync(dirs.dist)
  writeFileSync(join(dirs.dist, 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
  cpSync(SCHEMAS_DIR, dirs.documents, { recursive: true })
  const databaseUrl = onPostgres ? await postgresDatabaseFor() : undefined
  const { child, output, exited } = startServerProcess(dirs, databaseUrl ? { DATABASE_URL: databaseUrl } : {})
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return { child, output, exited, dirs, databaseUrl }
}

const until = (condition: () => boolean) => expect.poll(condition, { timeout: 90_000, interval: 25 }).toBe(true)

/** A POST whose headers reach the server (it answers 100 Continue) while its body waits for `finish`. */
async function requestInFlight(port: number) {
  const body = JSON.stringify({ promoCode: 'LOCAL50' })
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/mobile-gate/api/v1/bonus/check-promo-code',
    headers: { host: 'spain.localhost', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  })
  const answer = new Promise<{ status: number; text: string }>((done, fail) => {
    req.on('response', (res) => {
      let text = ''
      res.on('data', (c) => (text += c))
      res.on('end', () => done({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', fail)
  })
  await new Promise<void>((done) => req.once('continue', () => done()))
  return { finish: () => req.end(body), answer }
}

const connects = (port: number) =>
  new Promise<string>((done) => {
    const req = request({ host: '127.0.0.1', port, path: '/health/live', agent: false }, (res) => {
      res.resume()
      done(`answered ${res.statusCode}`)
    })
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'))
    req.end()
  })

it('SIGTERM: the request in flight gets 200, new connections are refused, sockets close with 1001, exit 0, no -wal left', async () => {
  const started = await startChild()
  await until(() => /at http:\/\/localhost:\d+/.test(started.output.stdout) || started.child.exitCode !== null)
  const port = Number(/at http:\/\/localhost:(\d+)/.exec(started.output.stdout)![1])
  expect(await connects(port)).toBe('answered 200')

  const socket = new WebSocket(`ws://127.0.0.1:${port}/sockets/v2/events?channel=web`, { headers: { host: `localhost:${port}` } })
  const socketClosed = new Promise<{ code: number; reason: string }>((done) => socket.on('close', (code, reason) => done({ code, reason: reason.toString() })))
  await new Promise<void>((done, fail) => {
    socket.once('open', () => done())
    socket.once('error', fail)
  })
  const inFlight = await requestInFlight(port)

  started.child.kill('SIGTERM')
  await until(() => started.output.stdout.includes('server.draining'))
  expect(await socketClosed).toEqual({ code: 1001, reason: 'SERVER_STOPPING' })
  expect(await connects(port)).toBe('ECONNREFUSED')

  inFlight.finish()
  const response = await inFlight.answer
  expect(response.status).toBe(200)
  expect(JSON.parse(response.text)).toMatchObject({ status: 'OK', payload: { valid: true } })
  expect(await started.exited).toBe(0)
  expect(started.output.stdout).toContain('server.stopped')
  const left = readdirSync(started.dirs.data)
  expect(left).toContain('parlay.db')
  expect(left.filter((file) => file.endsWith('-wal') || file.endsWith('-shm'))).toEqual([])
  expect(existsSync(join(started.dirs.data, 'parlay.db-wal'))).toBe(false)
  if (started.databaseUrl) {
    const observer = new pg.Client({ connectionString: started.databaseUrl })
    await observer.connect()
    try {
      const others = await observer.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')
      expect(others.rows[0].n).toBe(0)
    } finally {
      await observer.end()
    }
  }
}, 150_000)
