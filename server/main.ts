/**
 * `npm start`: builds the client if it is missing, opens the embedded database, loads and validates
 * every document (a bad one stops the start with its file and JSON path), and serves the site.
 * Production is the default everywhere; development extras (`npm run dev`) and the simulators
 * (`PARLAY_SIMULATORS=on`) are switched on explicitly, so a forgotten variable never exposes them.
 */
import { buildStudioIfMissing, loadVite } from './admin/studio-build'
import { existsSync, mkdirSync } from 'node:fs'
import { KEY_BESIDE_DATA, loadTotpKeyring, totpKeySettingsOf, type TotpKeySettings } from './admin/totp-keys'
import type { Application } from 'express'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApp } from './app'
import { closeDatabase, openDatabase } from './db/database'
import { openDataLayer, type DataLayer } from './db/data-layer'
import { refuseHalfConvertedPostgres } from './db/stores'
import { migrateDatabase } from './db/migrate'
import type { ServerConfig, ServerDeps } from './deps'
import { DocumentLoadError, createDocumentService, type DocumentService } from './documents/service'
import { withCandidates } from './documents/candidate'
import { formatProblem } from '../tools/schema-lint'
import { createLogger, type Logger } from './log'
import { answerClientErrors } from './http/client-errors'
import { attachRealtime } from './realtime/server'
import { createDevClock, type DevClock } from './regulation/dev-clock'
import { createLifecycle } from './ops/lifecycle'
import { DRAIN_GRACE_MS, stopControls } from './ops/stop'
import { DocumentStore } from './store/store'
import { createPageCheck } from './store/page-check'
import { openBus, type Bus } from './bus'
import { relayEvents } from './bus/relay'
import { startCaptchaDouble, type CaptchaDouble } from './auth/captcha-double'
import { REAL_VERIFY_URLS } from './auth/captcha-vendor'
import { publishGeneration, syncPublishedDocuments, type DocumentsSync } from './bus/documents-sync'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
export const WEB_VERSION = '1.22.0'

export interface StartOptions {
  port?: number
  host?: string
  dataDir?: string
  documentsDir?: string
  distDir?: string
  /** Development extras: warnings badge, public dev outbox, simulators. Default off (production). */
  development?: boolean
  /** Local simulators (message outbox, MitID, Russian identity service). Default: `development`. */
  simulators?: boolean
  /** The demo's staff accounts (server/admin/demo-admins.ts). Default: `simulators`. */
  demo?: boolean
  /** A signed audit checkpoint file the log must still hold (PARLAY_AUDIT_CHECKPOINT). */
  auditCheckpoint?: string
  /** Reload documents when a file changes (default on). */
  watch?: boolean
  now?: () => number
  log?: Logger
  quiet?: boolean
  /** Redis shared by several instances (issue 16; `REDIS_URL`); without it, one process. */
  redisUrl?: string
  /** PostgreSQL (issue 16; `DATABASE_URL=postgres://…`); without it, SQLite under `dataDir`. Refused
   * while some stores are still SQLite-only (server/db/stores.ts: none are since 27 Nov 2026). */
  databaseUrl?: string
  /** A write's wait for a lock before it fails with 503, on both engines (server/db/data-layer.ts; 5 s). */
  lockTimeoutMs?: number
  /** The staff TOTP secrets' keys (server/admin/totp-keys.ts): `PARLAY_TOTP_KEY` and
   * `PARLAY_TOTP_PREVIOUS_KEYS`; without a key a demo or development start uses `<data dir>/totp.key`
   * and a production start refuses. */
  totpKeys?: TotpKeySettings
  /** reCAPTCHA/hCaptcha verify URLs (server/auth/captcha-vendor.ts); default the vendors', or the
   * local double the start opens when the simulators are on. */
  captchaVerifyUrls?: ServerConfig['captchaVerifyUrls']
}

export interface RunningServer {
  url: string
  port: number
  deps: ServerDeps
  /** The Express app (tests read its router stack). */
  app: Application
  close(): Promise<void>
  /** Graceful stop: no new connections, requests in flight finish (at most `graceMs`), then the
   * WAL is checkpointed and the database closed. */
  drain(graceMs?: number): Promise<void>
}

/** How long a graceful stop waits for requests in flight before cutting their connections (server/ops/stop.ts). */
export { DRAIN_GRACE_MS }

export async function buildClientIfMissing(distDir: string, log: Logger): Promise<void> {
  if (!existsSync(join(distDir, 'index.html'))) {
    log.info('client.build.start', { distDir })
    const { build } = await loadVite()
    await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } })
    log.info('client.build.done')
    // The operator studio's own build (issue 19), after the site's (which empties distDir).
    if (await buildStudioIfMissing(distDir)) log.info('studio.build.done')
  }
}

/** The server's settings from the start options, with the defaults of each. */
function configOf(options: StartOptions): ServerConfig {
  return {
    port: options.port ?? 3000,
    host: options.host ?? '127.0.0.1',
    dataDir: options.dataDir ?? join(ROOT, 'data'),
    documentsDir: options.documentsDir ?? join(ROOT, 'schemas'),
    distDir: options.distDir ?? join(ROOT, 'dist'),
    development: options.development ?? false,
    simulators: options.simulators ?? options.development ?? false,
    demo: options.demo ?? options.simulators ?? options.development ?? false,
    auditCheckpoint: options.auditCheckpoint,
    version: WEB_VERSION,
  }
}

/** The staff TOTP keyring, before anything opens the database; a production start on the data dir's key file is warned. */
function totpKeysOf(config: ServerConfig, settings: TotpKeySettings | undefined, log: Logger) {
  mkdirSync(config.dataDir, { recursive: true })
  const keys = loadTotpKeyring({ dataDir: config.dataDir, settings: settings ?? {} })
  if (keys.source === 'file' && !(config.development || config.simulators || config.demo)) log.warn('totp.key.beside-data', { message: KEY_BESIDE_DATA })
  return keys
}

/** The server's clock: an injected one; else in development one tests can move (POST /api/dev/clock); else the wall clock. */
export function clockOf(options: Pick<StartOptions, 'now'>, config: Pick<ServerConfig, 'development'>): { now: () => number; devClock?: DevClock } {
  const devClock = !options.now && config.development ? createDevClock(Date.now) : undefined
  return { now: options.now ?? devClock?.now ?? Date.now, devClock }
}

/** The embedded database and the data layer (SQLite, or PostgreSQL by URL), migrated; both closed again when a migration fails. */
async function openStorage(dataDir: string, options: StartOptions, log: Logger) {
  const db = openDatabase(dataDir)
  const data = openDataLayer({ sqlite: db, databaseUrl: options.databaseUrl, lockTimeoutMs: options.lockTimeoutMs, onPoolError: (error) => log.warn('db.pool.error', { error: error.message }) })
  try {
    await migrateDatabase(data)
  } catch (error) {
    await data.close()
    closeDatabase(db)
    throw error
  }
  return { db, data }
}

/**
 * The document store (the tables are there: migrateDatabase, the list of server/db/migrations/index.ts)
 * installing into the served set; other instances on the same database publish too: their published
 * set is served here within 2 s.
 */
async function servePublishedDocuments(parts: { data: DataLayer; bus: Bus; log: Logger; now: () => number; documents: DocumentService; databaseUrl?: string; isOpen: () => boolean }) {
  const { data, bus, log, now, documents } = parts
  let sync: DocumentsSync | undefined
  const store = new DocumentStore({
    data,
    now,
    install: (records, generation) => {
      documents.replace(records)
      sync?.installed(generation)
    },
    generation: publishGeneration,
  })
  sync = await syncPublishedDocuments({ data, bus, log, databaseUrl: parts.databaseUrl, isOpen: parts.isOpen, reload: async () => store.serve((await store.publishedRecords()).records) })
  return { store, sync }
}

/** Where captcha tokens are checked: the given URLs; with the simulators, the local double (never Google or hCaptcha); else the vendors'. */
async function useCaptchaVerifier(options: StartOptions, config: ServerConfig, now: () => number): Promise<CaptchaDouble | undefined> {
  const captchaDouble = !options.captchaVerifyUrls && config.simulators ? await startCaptchaDouble({ now }) : undefined
  config.captchaVerifyUrls = options.captchaVerifyUrls ?? (captchaDouble ? { RECAPTCHA: captchaDouble.verifyUrl('RECAPTCHA'), HCAPTCHA: captchaDouble.verifyUrl('HCAPTCHA') } : REAL_VERIFY_URLS)
  config.captchaDoubleUrl = captchaDouble?.url
  return captchaDouble
}

/** Reload documents when a file changes; a bad edit is refused (logged) and the last good set stays served. */
function watchDocuments(documents: DocumentService, log: Logger): void {
  documents.watch((error) => {
    const problems = error instanceof DocumentLoadError ? error.problems.map(formatProblem) : [String(error)]
    log.warn('documents.reload.refused', { problems })
  })
}

async function listen(app: Application, config: ServerConfig): Promise<Server> {
  const server = app.listen(config.port, config.host)
  answerClientErrors(server)
  await new Promise<void>((done, fail) => {
    server.once('listening', done)
    server.once('error', fail)
  })
  return server
}

/** The address the server announces: 127.0.0.1 is named localhost (its *.localhost sites resolve there too). */
export const serverUrl = (host: string, port: number) => `http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = configOf(options)
  const log = options.log ?? createLogger(undefined, options.quiet)
  const { now, devClock } = clockOf(options, config)
  // before anything is built or opened: a postgres DATABASE_URL never half-runs the site
  refuseHalfConvertedPostgres(options.databaseUrl)
  const totpKeys = totpKeysOf(config, options.totpKeys, log)
  await buildClientIfMissing(config.distDir, log)
  const { db, data } = await openStorage(config.dataDir, options, log)
  // answers from a candidate set inside the publish gate's own requests (documents/candidate.ts)
  const documents = withCandidates(createDocumentService({ root: config.documentsDir }))
  documents.reload()
  const lifecycle = createLifecycle()
  const bus = await openBus({ redisUrl: options.redisUrl, log, now })
  let open = true
  const { store, sync } = await servePublishedDocuments({ data, bus, log, now, documents, databaseUrl: options.databaseUrl, isOpen: () => open && db.open })
  const captchaDouble = await useCaptchaVerifier(options, config, now)
  const stopRelay = relayEvents(bus)
  const stopSharing = async () => {
    open = false
    await sync.stop()
    stopRelay()
    await bus.close()
    await captchaDouble?.close()
  }
  const deps: ServerDeps = { db, data, documents, config, log, now, devClock, lifecycle, store, bus, totpKeys }
  const app = await createApp(deps)
  if (options.watch !== false) watchDocuments(documents, log)
  const server = await listen(app, config)
  // sockets (spec §7) on the same server; closed first on stop, they never hold it open
  const realtime = attachRealtime(server, deps)
  deps.metrics?.watchSockets(realtime.connections)
  data.started() // lock waits are a request's again (they were a starting instance's: server/db/data-layer.ts)
  lifecycle.serving()
  const port = (server.address() as AddressInfo).port
  // the publish gate renders the pages a change touches by asking this server itself (store/page-check.ts)
  store.usePageCheck(createPageCheck({ port, root: config.documentsDir }))
  const url = serverUrl(config.host, port)
  log.info('server.started', { url, documents: documents.list().length, sites: documents.sites().map((s) => s.id) })
  return { url, port, deps, app, ...stopControls({ server, realtime, documents, lifecycle, stopSharing, data, db }) }
}

/** SIGTERM/SIGINT: drain and exit 0; a second signal exits at once. */
function stopOnSignals(running: RunningServer, log: Logger): void {
  const stop = (signal: NodeJS.Signals) => {
    process.once(signal, () => process.exit(130))
    log.info('server.draining', { signal })
    running.drain().then(
      () => {
        log.info('server.stopped', { signal })
        process.exit(0)
      },
      (error: unknown) => {
        console.error('Parlay could not stop cleanly:', (error as Error).message)
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

const SWITCH_ON = /^(on|1|true|yes)$/i

/**
 * The command line's mode: `--development` (npm run dev) and `PARLAY_SIMULATORS=on` switch extras
 * on; the demo (its staff accounts) is on with either, or alone with `--demo` / `PARLAY_DEMO=on`.
 */
export function modeFromCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): Pick<StartOptions, 'development' | 'simulators' | 'demo'> {
  const development = argv.includes('--development') || SWITCH_ON.test(env.PARLAY_DEVELOPMENT ?? '')
  const simulators = development || argv.includes('--simulators') || SWITCH_ON.test(env.PARLAY_SIMULATORS ?? '')
  const demo = simulators || argv.includes('--demo') || SWITCH_ON.test(env.PARLAY_DEMO ?? '')
  return { development, simulators, demo }
}

/** What the console says after start: the mode, and how to turn on what a demo needs. */
export function startupNotice(config: Pick<ServerConfig, 'development' | 'simulators'> & { demo?: boolean }, url: string): string[] {
  const staff = config.demo
    ? `Demo staff accounts on (passwords and TOTP secrets in server/admin/DEMO_ADMINS.md): ${url}/admin.`
    : 'No demo staff accounts: create the first admin with `npm run admin:create` (docs/operations-staff.md).'
  if (config.development)
    return [`Parlay (development) at ${url}: engine warnings on the page, SMS codes and e-mail links at ${url}/dev/outbox, simulators on.`, staff]
  const lines = [`Parlay (production) at ${url}.`, staff]
  if (config.simulators) lines.push(`Simulators on (outbox, MitID, Russian identity): SMS codes and e-mail links are in ${url}/admin under Outbox.`)
  else
    lines.push(
      'Simulators are off: sign-up cannot send SMS codes or e-mails, and MitID and the Russian identity check are unavailable.',
      'For a demo: PARLAY_SIMULATORS=on npm start (codes in /admin under Outbox), or npm run dev for every development extra.',
    )
  return lines
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const env = process.env
  startServer({
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    // Where the database, the documents and the built client live (defaults: data/, schemas/, dist/).
    dataDir: env.PARLAY_DATA_DIR || undefined,
    documentsDir: env.PARLAY_DOCUMENTS_DIR || undefined,
    distDir: env.PARLAY_DIST_DIR || undefined,
    redisUrl: env.REDIS_URL || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    auditCheckpoint: env.PARLAY_AUDIT_CHECKPOINT || undefined,
    totpKeys: totpKeySettingsOf(env),
    ...modeFromCommandLine(process.argv.slice(2), env),
  })
    .then((running) => {
      for (const line of startupNotice(running.deps.config, running.url)) console.log(line)
      stopOnSignals(running, running.deps.log)
    })
    .catch((error) => {
      if (error instanceof DocumentLoadError) {
        console.error('Parlay cannot start: some documents are invalid.')
        for (const problem of error.problems) console.error('  ' + formatProblem(problem))
      } else console.error('Parlay cannot start:', (error as Error).message)
      process.exit(1)
    })
}
