/**
 * Issue 16: two instances behind one balancer. Two real server processes share one database — one
 * SQLite file (one host), or one PostgreSQL database with a data folder each (two hosts) — and one
 * throw-away Redis; the test alternates between them as a sticky-free round robin would.
 * A session, a refresh rotation, code attempts, login failures, a publish, a punter event and the
 * audit chain made on one instance hold on the other; Redis going away fails the admin login
 * closed and comes back; SIGKILL of one instance under 200 parallel sign-ups loses no
 * acknowledged sign-up and leaves an intact database (SQLite's integrity_check; PostgreSQL's amcheck
 * over every table and B-tree index).
 */
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { DEMO_ADMINS } from '../../../server/admin/accounts'
import { loadAuditKey, readAnchor } from '../../../server/store/audit-anchor'
import { verifyAuditChain, type AuditRow } from '../../../server/store/audit'
import { addresses, apiCaller, DEMO_PASSWORD, type Call } from '../../support/api'
import { verifyAuditDatabase } from '../../../tools/audit-verify'
import { verifyLedgerDatabase, verifyLedgerFile } from '../../../tools/ledger-verify'
import { describeVerification } from '../../../server/punters/ledger-verify'
import { totpCode } from '../../support/totp'
import { rawRequest, SCHEMAS_DIR, startServerProcess, type ServerProcess } from '../../support/server'
import { startTestRedis, type TestRedis } from '../../support/redis'
import { POSTGRES_MISSING, postgresBinaries, startPostgres, type ThrowawayPostgres } from '../../support/postgres'
import { countryId, curacaoBody } from '../signup/helpers'

const credentials = (email: string) => {
  const { password, totpSecret } = DEMO_ADMINS.find((admin) => admin.email === email)!
  return { email, password, totpSecret }
}
const OPERATOR = credentials('operator@parlay.test')
const COMPLIANCE = credentials('compliance@parlay.test')
const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'

interface Instance {
  name: 'A' | 'B'
  process: ServerProcess
  port: number
  call: Call
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const havePostgres = postgresBinaries() !== undefined
if (!havePostgres) console.warn(POSTGRES_MISSING)
const ENGINES = [['one SQLite file', 'sqlite'], ...(havePostgres ? [['one PostgreSQL database', 'postgres']] : [])] as [string, 'sqlite' | 'postgres'][]

/** Polls `probe` until it answers true; fails with `what` after the deadline. */
async function until(what: string, probe: () => Promise<boolean> | boolean, deadlineMs = 90_000, intervalMs = 25): Promise<number> {
  const started = Date.now()
  while (!(await probe())) {
    if (Date.now() - started > deadlineMs) throw new Error(`${what}: not within ${deadlineMs} ms`)
    await new Promise((done) => setTimeout(done, intervalMs)) // poll interval
  }
  return Date.now() - started
}

const BETTOR = 'opened@demo.parlay.test'
/** The bettor's bets, the stake debits (ledger references bet:<id>), and the balance beside the sum of the ledger. (Not the
 * last entry's balance-after: on PostgreSQL entry ids are taken before the balance row's lock, so id order is not apply order.) */
const MONEY_QUERIES: [string, ...unknown[]][] = [
  ["SELECT b.id, b.status FROM bets b JOIN punters p ON p.id = b.punter_id WHERE p.email = ? AND b.idempotency_key LIKE 'scale-bet-%'", BETTOR],
  ["SELECT l.reference FROM ledger_entries l JOIN punters p ON p.id = l.punter_id WHERE p.email = ? AND l.account = 'real' AND l.reference LIKE 'bet:%'", BETTOR],
  ["SELECT p.balance_minor, (SELECT COALESCE(SUM(l.amount_minor), 0) FROM ledger_entries l WHERE l.punter_id = p.id AND l.account = 'real') AS ledger_sum FROM punters p WHERE p.email = ?", BETTOR],
]

/** Every acknowledged bet is open with its stake debited once, and the balance is the sum of its ledger entries (the seeded opening one included). */
function expectMoneyKept(acknowledged: string[], [bets, debits, [balance]]: Record<string, unknown>[][]) {
  const open = new Set(bets.filter((b) => b.status === 'open').map((b) => String(b.id)))
  expect(acknowledged.filter((id) => !open.has(id))).toEqual([])
  const debited = debits.map((d) => String(d.reference))
  expect(acknowledged.filter((id) => !debited.includes(`bet:${id}`))).toEqual([])
  expect(new Set(debited).size).toBe(debited.length)
  expect(Number(balance.balance_minor)).toBe(Number(balance.ledger_sum))
}

describe.each(ENGINES)('two instances on %s and one Redis', (_, engine) => {
  const root = mkdtempSync(join(tmpdir(), 'parlay-scale-'))
  const dirs = { data: join(root, 'data'), dist: join(root, 'dist'), documents: join(root, 'schemas') }
  const AUDIT_KEY = createHash('sha256').update(`two-instances:${root}`).digest('hex')
  const TOTP_KEY = createHash('sha256').update(`two-instances-totp:${root}`).digest('hex')
  let redis: TestRedis
  let cluster: ThrowawayPostgres | undefined
  let databaseUrl: string | undefined
  let a: Instance
  let b: Instance

  async function startInstance(name: 'A' | 'B', block: number): Promise<Instance> {
    // on PostgreSQL each instance has its own data folder, as on two hosts; both hold one audit key
    const data = engine === 'postgres' ? join(root, `data-${name}`) : dirs.data
    const env = { REDIS_URL: redis.url, PARLAY_DEVELOPMENT: 'on', ...(databaseUrl ? { DATABASE_URL: databaseUrl, PARLAY_AUDIT_KEY: AUDIT_KEY, PARLAY_TOTP_KEY: TOTP_KEY } : {}) }
    const process = startServerProcess({ ...dirs, data }, env)
    await until(`instance ${name} starts`, () => /at http:\/\/localhost:\d+/.test(process.output.stdout) || process.child.exitCode !== null)
    if (process.child.exitCode !== null) throw new Error(`instance ${name} exited: ${process.output.stderr}`)
    const port = Number(/at http:\/\/localhost:(\d+)/.exec(process.output.stdout)![1])
    return { name, process, port, call: apiCaller(`http://127.0.0.1:${port}`, addresses(block)) }
  }

  beforeAll(async () => {
    mkdirSync(dirs.dist)
    writeFileSync(join(dirs.dist, 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
    cpSync(SCHEMAS_DIR, dirs.documents, { recursive: true })
    redis = await startTestRedis()
    if (engine === 'postgres') {
      cluster = await startPostgres()
      databaseUrl = await cluster.createDatabase()
    }
    // a rolling start: the first instance creates the database, the second joins it
    a = await startInstance('A', 61)
    b = await startInstance('B', 62)
  }, 180_000)

  afterAll(async () => {
    for (const instance of [a, b]) if (instance?.process.child.exitCode === null) instance.process.child.kill('SIGKILL')
    await Promise.all([a, b].map((instance) => instance?.process.exited))
    await redis?.stop()
    cluster?.dispose()
    rmSync(root, { recursive: true, force: true })
  })

  const login = async (on: Instance, who: string) => {
    const res = await on.call('POST', 'auth/v2/login', { body: { login: who, password: DEMO_PASSWORD } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    return res.json.payload as { accessToken: string; refreshToken: string; punterHash: string }
  }
  async function solvedCaptchaFrom(on: Instance): Promise<string> {
    const { challenge } = (await on.call('GET', 'auth/captcha/challenge')).json.payload
    let number = 0
    while (createHash('sha256').update(challenge.salt + number).digest('hex') !== challenge.challenge) number++
    return Buffer.from(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature })).toString('base64')
  }
  const heartbeat = (on: Instance, hash: string) => on.call('GET', 'heartbeat', { hash })
  /** A live selection of this instance's own demo feed, priced 2.5 and the feed paused. */
  async function pricedSelection(on: Instance): Promise<{ selectionId: string; price: number }> {
    expect((await on.call('POST', '/api/dev/feed/pause', { body: { paused: true } })).status).toBe(200)
    const line = (await on.call('GET', '/api/content/line?section=sport&state=live')).json.payload as { id: string; main: { selections: { id: string }[] } | null }[]
    const event = line.find((e) => e.main)!
    await on.call('POST', '/api/dev/feed/hold', { body: { eventId: event.id, held: false } })
    const selectionId = event.main!.selections[0].id
    const priced = (await on.call('POST', '/api/dev/feed/price', { body: { selectionId, price: 2.5 } })).json.payload
    return { selectionId, price: priced.selections[0].price as number }
  }

  const adminAddress = addresses(65)
  /** Password, then the demo account's TOTP code (a demo start: the demo's codes may repeat within their window). */
  async function adminSignIn(on: Instance, who: { email: string; password: string; totpSecret: string }, ip = adminAddress()) {
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': ip }
    const first = await rawRequest(on.port, { method: 'POST', path: '/admin/api/login', headers, body: JSON.stringify({ email: who.email, password: who.password }) })
    if (first.status !== 200) return { status: first.status, errorCode: first.json()?.errorCode as string | undefined }
    const second = { challenge: first.json().payload.challenge, code: totpCode(who.totpSecret) }
    const res = await rawRequest(on.port, { method: 'POST', path: '/admin/api/login/second-factor', headers, body: JSON.stringify(second) })
    if (res.status !== 200) return { status: res.status, errorCode: res.json()?.errorCode as string | undefined }
    const cookie = String(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]).split(';')[0]
    const csrf = res.json().payload.csrf as string
    const post = (path: string, body?: unknown) =>
      rawRequest(on.port, { method: 'POST', path, headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) })
    return { status: 200, post }
  }

    it('a session made on A works on B; a refresh token rotated on A is refused as reuse on B', async () => {
      const session = await login(a, 'opened@demo.parlay.test')
      expect((await heartbeat(b, session.punterHash)).status).toBe(200)
      const rotated = await a.call('POST', 'auth/v2/token/refresh', { body: { token: session.refreshToken } })
      expect(rotated.status).toBe(200)
      const reuse = await b.call('POST', 'auth/v2/token/refresh', { body: { token: session.refreshToken } })
      expect(reuse.json).toEqual({ status: 'ERROR', errorCode: 'INVALID_REFRESH_TOKEN' })
      // reuse revoked the family everywhere: the rotated session is dead on A too
      expect((await heartbeat(a, rotated.json.payload.punterHash)).status).toBe(401)
    }, 60_000)

    it('sign-up code attempts count across both: five wrong codes alternating A/B lock the flow for the right one', async () => {
      const body = curacaoBody()
      const begun = await a.call('POST', '/mobile-gate/api/v1/account/v3/signup/phone/begin', { body })
      expect(begun.status, JSON.stringify(begun.json)).toBe(200)
      const token = begun.json.payload.verificationToken as string
      const outbox = await b.call('GET', `/api/dev/outbox?to=${encodeURIComponent(body.phoneNumber)}`)
      const code = /\b(\d{6})\b/.exec(outbox.json.payload.messages[0].body)![1]
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
      const answers: string[] = []
      for (const on of [a, b, a, b, a]) answers.push((await on.call('POST', 'account/v3/signup/phone/complete', { body: { verificationToken: token, verificationCode: wrong } })).json.errorCode)
      expect(answers).toEqual(['CODE_NO_MATCH', 'CODE_NO_MATCH', 'CODE_NO_MATCH', 'CODE_NO_MATCH', 'EXCEEDED_LIMIT'])
      expect((await b.call('POST', 'account/v3/signup/phone/complete', { body: { verificationToken: token, verificationCode: code } })).json.errorCode).toBe('EXCEEDED_LIMIT')
    }, 60_000)

    it('login failures count across both: punter logins need the captcha after 5 (a captcha of A is taken once, by B), admin logins are refused after 10 (Redis counters)', async () => {
      const ip = '10.63.0.1'
      for (const on of [a, b, a, b, a]) expect((await on.call('POST', 'auth/v2/login', { body: { login: 'nobody-scale@example.com', password: 'wrong' }, ip })).json.errorCode).toBe('INCORRECT_PASSWORD')
      expect((await b.call('POST', 'auth/v2/login', { body: { login: 'nobody-scale@example.com', password: 'wrong' } })).json.errorCode).toBe('CAPTCHA_REQUIRED')
      // a captcha issued by A is taken by B (one key for the database), once
      const captcha = await solvedCaptchaFrom(a)
      expect((await b.call('POST', 'auth/v2/login', { body: { login: 'nobody-scale@example.com', password: 'wrong', captcha } })).json.errorCode).toBe('INCORRECT_PASSWORD')
      expect((await a.call('POST', 'auth/v2/login', { body: { login: 'nobody-scale@example.com', password: 'wrong', captcha } })).json.errorCode).toBe('INVALID_CAPTCHA')
      const intruder = { email: 'intruder@parlay.test', password: 'not-the-password', totpSecret: '' }
      const failures = await Promise.all(Array.from({ length: 10 }, (_, i) => adminSignIn(i % 2 ? b : a, intruder, `10.64.0.${i + 1}`)))
      expect(failures.map((f) => f.status)).toEqual(Array(10).fill(401))
      expect((await adminSignIn(a, intruder, '10.64.1.1')).status).toBe(429)
      expect((await adminSignIn(b, intruder, '10.64.1.2')).status).toBe(429)
    }, 60_000)

    it('a document published on A (approved on B) is served by B within 2 s', async () => {
      const operator = await adminSignIn(a, OPERATOR)
      const compliance = await adminSignIn(b, COMPLIANCE)
      if (!operator.post || !compliance.post) throw new Error('admin sign-in failed')
      // Spain's sign-up is an overlay (docs/overlays.md): the change is one more entry of its patch
      const doc = JSON.parse(readFileSync(join(dirs.documents, SPAIN_SIGNUP), 'utf8'))
      doc.steps.find((s: { id: string }) => s.id === 'personal').schema.properties.firstName = { maxLength: 47 }
      const draft = await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: JSON.stringify(doc, null, 2) })
      expect(draft.status, draft.body).toBe(201)
      const id = draft.json().payload.id as number
      expect((await operator.post(`/admin/api/versions/${id}/submit`)).status).toBe(200)
      expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'fine' })).status).toBe(200)
      const served = async (on: Instance) =>
        (await rawRequest(on.port, { path: '/api/documents/flow/signup-email', headers: { host: `spain.localhost:${on.port}` } })).json().steps[1].schema.properties.firstName.maxLength
      expect(await served(b)).not.toBe(47)
      expect((await operator.post(`/admin/api/versions/${id}/publish`)).status).toBe(200)
      expect(await served(a)).toBe(47)
      const tookMs = await until('B serves the published version', async () => (await served(b)) === 47, 2_000)
      expect(tookMs).toBeLessThanOrEqual(2_000)
    }, 60_000)

    // This failed in 3 of 12 runs alone (and in CI) until the bus subscribed only on a ready Redis
    // connection: B's listener had lost its channels in the connection handshake (redis-bus.ts;
    // found with the Redis CLIENT LIST this test prints on failure, beside the frames B sent and
    // both instances' logs).
    it("a punter event on A reaches the punter's socket on B (one relay over Redis pub/sub)", { timeout: 60_000 }, async () => {
      const session = await login(a, 'vip@demo.parlay.test')
      const socket = new WebSocket(`ws://127.0.0.1:${b.port}/sockets/v2/punter?channel=web`, { headers: { host: `localhost:${b.port}` } })
      const frames: { type: string; payload?: Record<string, unknown>; status?: string }[] = []
      socket.on('message', (data) => frames.push(JSON.parse(data.toString())))
      try {
        await new Promise<void>((done, fail) => (socket.once('open', () => done()), socket.once('error', fail)))
        socket.send(JSON.stringify({ type: 'AUTH', punterHash: session.punterHash, accessToken: session.accessToken }))
        await until('the socket on B is authenticated', () => frames.some((f) => f.type === 'AUTH' && f.status === 'OK'), 10_000)
        expect((await a.call('POST', 'bonus/punter/promo-code/input', { hash: session.punterHash, body: { promoCode: 'casino25' } })).status).toBe(200)
        await until('promoParticipation reaches B', () => frames.some((f) => f.type === 'promoParticipation'), 5_000).catch((error: Error) => {
          const tail = (instance: Instance) => `${instance.name}: ${instance.process.output.stdout.slice(-1500)}${instance.process.output.stderr.slice(-1500)}`
          const numsub = spawnSync('redis-cli', ['-p', String(redis.port), 'PUBSUB', 'NUMSUB', 'parlay:punter-events'], { encoding: 'utf8' }).stdout
          const clients = spawnSync('redis-cli', ['-p', String(redis.port), 'CLIENT', 'LIST'], { encoding: 'utf8' }).stdout
          throw new Error(`${error.message}; B sent ${JSON.stringify(frames.map((f) => f.type))}\nNUMSUB ${numsub}\nCLIENTS ${clients}\n${tail(a)}\n${tail(b)}`)
        })
        expect(frames.find((f) => f.type === 'promoParticipation')!.payload).toMatchObject({ promoCode: 'CASINO25', promotionId: 'casino-welcome-package' })
      } finally {
        socket.close()
      }
    })

    it('Redis away: admin logins fail closed (503), punter logins go on; Redis back: admin logins work again', async () => {
      await redis.stop()
      expect(await adminSignIn(a, OPERATOR)).toMatchObject({ status: 503, errorCode: 'SERVICE_UNAVAILABLE' })
      await login(b, 'opened@demo.parlay.test')
      await redis.start()
      await until('A reconnects to Redis', async () => (await adminSignIn(a, OPERATOR)).status === 200, 15_000, 100)
      await until('B reconnects to Redis', async () => (await adminSignIn(b, OPERATOR)).status === 200, 15_000, 100)
    }, 60_000)

    it('admin writes on both at once keep one audit chain; SIGKILL of A under 200 parallel sign-ups and 100 bets loses no acknowledged sign-up or bet; the database checks clean (integrity_check, amcheck) and every balance agrees with the ledger', async () => {
      // concurrent audited writes: sign-ins (each one an audit entry) on both instances at once
      const signIns = await Promise.all(Array.from({ length: 8 }, (_, i) => adminSignIn(i % 2 ? b : a, i % 4 < 2 ? OPERATOR : COMPLIANCE)))
      expect(signIns.map((s) => s.status)).toEqual(Array(8).fill(200))

      // bets on both at once: each instance prices a selection of its own demo feed (one per
      // process), paused so no tick changes the price under the placements
      const bettor = { A: (await login(a, BETTOR)).punterHash, B: (await login(b, BETTOR)).punterHash }
      const selection = { A: await pricedSelection(a), B: await pricedSelection(b) }
      const betsAcknowledged: string[] = []
      const placeBet = async (i: number) => {
        const on = i % 2 ? b : a
        const body = { kind: 'single', selections: [selection[on.name]], stake: 1, idempotencyKey: `scale-bet-${engine}-${i}` }
        try {
          const res = await on.call('POST', 'bets/place', { hash: bettor[on.name], body })
          if (res.status === 200) betsAcknowledged.push(res.json.payload.betId)
        } catch {
          // the killed instance's connections are cut: not acknowledged
        }
      }

      const acknowledged: string[] = []
      let killed = false
      const signUp = async (i: number) => {
        const on = i % 2 ? b : a
        const email = `scale-${i}@example.com`
        const body = { email, password: 'a long passphrase', countryId: countryId('CW'), firstName: 'Kai', lastName: 'Scale', birthDay: '1990-01-01', terms: true }
        try {
          const res = await on.call('POST', 'account/v3/signup/email', { body })
          if (res.status >= 200 && res.status < 300) acknowledged.push(email)
          if (!killed && acknowledged.length >= 20) {
            killed = true
            a.process.child.kill('SIGKILL')
          }
        } catch {
          // the killed instance's connections are cut: not acknowledged
        }
      }
      await Promise.all([...Array.from({ length: 200 }, (_, i) => signUp(i)), ...Array.from({ length: 100 }, (_, i) => placeBet(i))])
      expect(killed).toBe(true)
      expect(await a.process.exited).toBe(null)
      // B served on: its half was acknowledged
      expect(acknowledged.filter((e) => Number(/scale-(\d+)/.exec(e)![1]) % 2 === 1).length).toBe(100)
      expect(betsAcknowledged.length).toBeGreaterThanOrEqual(50)
      b.process.child.kill('SIGTERM')
      expect(await b.process.exited).toBe(0)

      const verified = engine === 'postgres' ? await checkPostgres(acknowledged, betsAcknowledged) : checkSqlite(acknowledged, betsAcknowledged)
      expect(verified).toMatchObject({ ok: true, anchored: true })
      expect(verified.entries).toBeGreaterThan(20)
      // every balance, the sign-ups' openings and the bets' stakes included, agrees with the ledger (npm run ledger:verify)
      const ledger = engine === 'postgres' ? await verifyLedgerDatabase(databaseUrl!) : await verifyLedgerFile(dirs.data)
      expect(ledger, describeVerification(ledger)).toMatchObject({ ok: true })
    }, 120_000)

  /** SQLite: every acknowledged sign-up stored, integrity_check ok, the chain verifies against its anchor. */
  function checkSqlite(acknowledged: string[], bets: string[]) {
    const db = new Database(join(dirs.data, 'parlay.db'))
    try {
      const stored = new Set((db.prepare("SELECT email FROM punters WHERE email LIKE 'scale-%'").all() as { email: string }[]).map((r) => r.email))
      expect(acknowledged.filter((email) => !stored.has(email))).toEqual([])
      expectMoneyKept(bets, MONEY_QUERIES.map(([sql, ...params]) => db.prepare(sql).all(...params) as Record<string, unknown>[]))
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      const key = loadAuditKey(dirs.data, { create: false }).key
      const database = { id: (db.prepare('SELECT id FROM database_identity').get() as { id: string }).id, engine: 'sqlite' as const }
      return verifyAuditChain(db.prepare('SELECT * FROM audit_log ORDER BY seq ASC').all() as AuditRow[], key, readAnchor(dirs.data, key, database))
    } finally {
      db.close()
    }
  }

  /** PostgreSQL: every acknowledged sign-up stored, amcheck finds nothing in any table or B-tree
   * index, and the one shared chain verifies against each instance's anchor. */
  async function checkPostgres(acknowledged: string[], bets: string[]) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const stored = new Set((await client.query("SELECT email FROM punters WHERE email LIKE 'scale-%'")).rows.map((r: { email: string }) => r.email))
      expect(acknowledged.filter((email) => !stored.has(email))).toEqual([])
      const select = async (sql: string, ...params: unknown[]) => {
        let n = 0
        return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as Record<string, unknown>[]
      }
      expectMoneyKept(bets, await Promise.all(MONEY_QUERIES.map(([sql, ...params]) => select(sql, ...params))))
      await client.query('CREATE EXTENSION IF NOT EXISTS amcheck')
      const tables = (await client.query("SELECT c.oid::regclass::text AS name FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace")).rows
      expect(tables.length).toBeGreaterThan(20)
      for (const { name } of tables) expect((await client.query('SELECT * FROM verify_heapam($1::regclass)', [name])).rows, name).toEqual([])
      await client.query(
        "SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam WHERE am.amname = 'btree' AND c.relnamespace = 'public'::regnamespace",
      )
      // the one shared chain against each instance's anchor, as `npm run audit:verify` checks it
      // (DATABASE_URL and that instance's data dir); the tool itself run on B's
      const env = { PARLAY_AUDIT_KEY: AUDIT_KEY }
      expect(await verifyAuditDatabase(databaseUrl!, join(root, 'data-A'), { env })).toMatchObject({ ok: true, anchored: true })
      const tool = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools', 'audit-verify.ts'), join(root, 'data-B')], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
        encoding: 'utf8',
      })
      expect(tool.status, tool.stderr).toBe(0)
      expect(tool.stdout).toMatch(/^audit log intact: \d+ entries/)
      return verifyAuditDatabase(databaseUrl!, join(root, 'data-B'), { env })
    } finally {
      await client.end()
    }
  }
})
