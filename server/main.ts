/**
 * `npm start`: builds the client if it is missing, opens the embedded database, loads and validates
 * every document (a bad one stops the start with its file and JSON path), and serves the site.
 */
import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApp } from './app'
import { openDatabase, runMigrations } from './db/database'
import type { ServerConfig, ServerDeps } from './deps'
import { DocumentLoadError, createDocumentService } from './documents/service'
import { formatProblem } from './documents/loader'
import { createLogger, type Logger } from './log'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
export const WEB_VERSION = '1.22.0'

export interface StartOptions {
  port?: number
  host?: string
  dataDir?: string
  documentsDir?: string
  distDir?: string
  development?: boolean
  /** Reload documents when a file changes (default on). */
  watch?: boolean
  now?: () => number
  log?: Logger
  quiet?: boolean
}

export interface RunningServer {
  url: string
  port: number
  deps: ServerDeps
  close(): Promise<void>
}

export async function buildClientIfMissing(distDir: string, log: Logger): Promise<void> {
  if (existsSync(join(distDir, 'index.html'))) return
  log.info('client.build.start', { distDir })
  const { build } = await import('vite')
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } })
  log.info('client.build.done')
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config: ServerConfig = {
    port: options.port ?? 3000,
    host: options.host ?? '127.0.0.1',
    dataDir: options.dataDir ?? join(ROOT, 'data'),
    documentsDir: options.documentsDir ?? join(ROOT, 'schemas'),
    distDir: options.distDir ?? join(ROOT, 'dist'),
    development: options.development ?? process.env.NODE_ENV !== 'production',
    version: WEB_VERSION,
  }
  const log = options.log ?? createLogger(undefined, options.quiet)
  const now = options.now ?? Date.now
  await buildClientIfMissing(config.distDir, log)
  const db = openDatabase(config.dataDir)
  const documents = createDocumentService({ root: config.documentsDir, db, now })
  documents.reload()
  const deps: ServerDeps = { db, documents, config, log, now }
  const app = await createApp(deps)
  runMigrations(db) // modules register their tables when imported
  if (options.watch !== false)
    documents.watch((error) => {
      const problems = error instanceof DocumentLoadError ? error.problems.map(formatProblem) : [String(error)]
      log.warn('documents.reload.refused', { problems })
    })
  const server = app.listen(config.port, config.host)
  await new Promise<void>((done, fail) => {
    server.once('listening', done)
    server.once('error', fail)
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://${config.host === '127.0.0.1' ? 'localhost' : config.host}:${port}`
  log.info('server.started', { url, documents: documents.list().length, sites: documents.sites().map((s) => s.id) })
  return {
    url,
    port,
    deps,
    async close() {
      documents.close()
      server.closeAllConnections?.()
      await new Promise<void>((done) => server.close(() => done()))
      db.close()
    },
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  startServer({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' }).catch((error) => {
    if (error instanceof DocumentLoadError) {
      console.error('Parlay cannot start: some documents are invalid.')
      for (const problem of error.problems) console.error('  ' + formatProblem(problem))
    } else console.error('Parlay cannot start:', (error as Error).message)
    process.exit(1)
  })
}
