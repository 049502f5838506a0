/**
 * After a publish, the server watches the pages it touched and rolls the publish back by itself
 * when errors there rise (issue 29 item 1). The gate renders every touched page before a change
 * may go live; this is the net for what only live traffic shows.
 *
 * A watch starts when versions go live by a publish (a version or a release; never a rollback or a
 * seed): the pages the change touches on every site and locale it reaches (./touched-pages.ts),
 * their forms' validator modules and the changed documents' API answers, for WINDOW_MS of the
 * injected clock. Errors counted: 5xx answers on those paths of those sites (every instance adds
 * to the watch's row), and client error reports (the error-reporting endpoint) whose page is one of
 * them, beyond those of the same length of time before the publish. At THRESHOLD the publish is
 * rolled back (a version to what it replaced, a release by its rollback), under the actor
 * `auto-rollback`, through the gate like any rollback; the watch, the rollback and its outcome are
 * audited, and the author and the approver of the publish are told by e-mail (the message sender:
 * the outbox with the simulators on).
 */
import type { NextFunction, Request, Response } from 'express'
import type { Generated } from 'kysely'
import { schemaStep, surrogateKey, surrogateKeyType, oneOf } from '../db/schema'
import type { ServerDeps } from '../deps'
import { siteContext } from '../http/site'
import { appendAudit, auditedTransaction } from './audit'
import { rollBackPublish } from './auto-rollback'
import type { DocumentStore, PublishEvent } from './store'
import { touchedDocuments, touchedPages } from './touched-pages'
import type { PublishWatchDeps, Watch, WatchedPath } from './publish-watch-types'
import { readDocument } from '../../tools/schema-lint'

/** Errors on the touched pages within the window that roll a publish back. */
export const THRESHOLD = 5
/** How long after a publish its pages are watched (injected clock). */
export const WINDOW_MS = 10 * 60_000
const TICK_MS = 5_000
const STATES = ['watching', 'rolling-back', 'rolled-back', 'rollback-failed', 'passed'] as const

export const q083StorePublishWatches = schemaStep('q083-store-publish-watches', async (db, engine) => {
  await db.schema
    .createTable('store_publish_watches')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('approved_by', 'text')
    .addColumn('paths', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('client_errors_before', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('server_errors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().check(oneOf('state', STATES)))
    .execute()
})

declare module '../db/tables' {
  interface Tables {
    store_publish_watches: {
      id: Generated<number>
      subject: string
      author: string
      approved_by: string | null
      /** JSON: [site, path][] — the watched paths of each site. */
      paths: string
      started_at: number
      ends_at: number
      client_errors_before: number
      server_errors: Generated<number>
      state: (typeof STATES)[number]
    }
  }
}

export interface PublishWatch {
  /** Evaluates every open watch now (the timer calls it; tests too). */
  tick(): Promise<void>
  stop(): void
}

/** The paths a publish touched, per site: pages, their forms' validator calls, the documents' API. */
async function watchedPaths(store: DocumentStore, versions: PublishEvent['versions']): Promise<WatchedPath[]> {
  const after = (await store.publishedRecords()).records
  const files = new Set(versions.map((v) => v.file))
  const before = after.filter((r) => !files.has(r.file))
  for (const v of versions) {
    const base = v.baseVersion === null ? undefined : await store.version(v.baseVersion)
    const record = base && !base.deleted ? readDocument(base.file, base.content, []) : null
    if (record) before.push(record)
  }
  const paths = touchedPages(before, after, files).flatMap((p): WatchedPath[] => [[p.site, p.path], ...p.flows.map((f): WatchedPath => [p.site, `/api/flows/${f}/validator`])])
  for (const d of touchedDocuments(before, after, files)) paths.push([d.site, `/api/documents/${d.kind}/${d.id}`])
  return [...new Map(paths.map((p) => [p.join(' '), p])).values()]
}

const toWatch = (r: { id: number; subject: string; author: string; approved_by: string | null; paths: string; started_at: number; ends_at: number; client_errors_before: number }): Watch => ({
  id: r.id,
  subject: r.subject,
  author: r.author,
  approvedBy: r.approved_by,
  paths: JSON.parse(r.paths) as WatchedPath[],
  startedAt: r.started_at,
  endsAt: r.ends_at,
  clientErrorsBefore: r.client_errors_before,
})

const watches = new WeakMap<DocumentStore, { watch: PublishWatch; serverError(req: Request): void }>()

/** Counts 5xx answers on watched paths (app middleware, before the routes; the gate's own requests never count). */
export function countPublishErrors(deps: Pick<ServerDeps, 'store' | 'documents'>) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.once('finish', () => {
      if (res.statusCode < 500 || res.statusCode === 503 || res.locals.candidate) return
      watches.get(deps.store)?.serverError(req)
    })
    next()
  }
}


/** Client error reports whose page is one of the watched paths, received in (from, to]: a report
 * of the publish's own millisecond counts as before it, where it was most likely caused. */
async function clientErrors(deps: PublishWatchDeps, paths: WatchedPath[], from: number, to: number): Promise<number> {
  const rows = await deps.data.db.selectFrom('reported_errors').select('url').where('origin', '=', 'client').where('received_at', '>', from).where('received_at', '<=', to).limit(5000).execute()
  let count = 0
  for (const { url } of rows) {
    if (!url || !URL.canParse(url)) continue
    const page = new URL(url)
    const site = deps.documents.siteForHost(page.host).id
    if (paths.some(([s, p]) => s === site && p === page.pathname)) count++
  }
  return count
}

/** Starts watching one publish (its event comes after its transaction committed). */
async function startWatching(deps: PublishWatchDeps, event: PublishEvent): Promise<Watch | undefined> {
  const paths = await watchedPaths(deps.store, event.versions)
  if (paths.length === 0) return undefined
  const at = deps.now()
  const before = await clientErrors(deps, paths, at - WINDOW_MS, at)
  return auditedTransaction(deps.data, async (audit) => {
    const row = { subject: event.subject, author: event.author, approved_by: event.approvedBy, paths: JSON.stringify(paths), started_at: at, ends_at: at + WINDOW_MS, client_errors_before: before, state: 'watching' as const }
    const { id } = await audit.tx.insertInto('store_publish_watches').values(row).returning('id').executeTakeFirstOrThrow()
    await appendAudit(audit, at, 'auto-rollback', 'publish.watch-started', event.subject, { watch: id, paths: paths.length, threshold: THRESHOLD, windowMs: WINDOW_MS })
    return toWatch({ id, ...row })
  })
}

/** Counts a watch's errors now; rolls the publish back at the threshold, closes it after the window. */
async function evaluate(deps: PublishWatchDeps, watch: Watch): Promise<void> {
  const db = deps.data.db
  const row = await db.selectFrom('store_publish_watches').select(['server_errors', 'state']).where('id', '=', watch.id).executeTakeFirst()
  if (!row || row.state !== 'watching') return
  const now = deps.now()
  if (now >= watch.endsAt) return void (await db.updateTable('store_publish_watches').set({ state: 'passed' }).where('id', '=', watch.id).where('state', '=', 'watching').execute())
  const client = Math.max(0, (await clientErrors(deps, watch.paths, watch.startedAt, now)) - watch.clientErrorsBefore)
  if (row.server_errors + client < THRESHOLD) return
  // one instance acts: the one whose update claims the watch
  const claimed = await db.updateTable('store_publish_watches').set({ state: 'rolling-back' }).where('id', '=', watch.id).where('state', '=', 'watching').executeTakeFirst()
  if (Number(claimed.numUpdatedRows) !== 1) return
  await rollBackPublish(deps, watch, { serverErrors: row.server_errors, clientErrors: client })
}

/** Watches every publish of this server's store until the server stops. */
export function startPublishWatch(deps: PublishWatchDeps): PublishWatch {
  let open: Watch[] = []
  const running = new Map<number, Promise<void>>()
  const refresh = async () => {
    open = (await deps.data.db.selectFrom('store_publish_watches').selectAll().where('state', '=', 'watching').execute()).map(toWatch)
  }
  // one evaluation of a watch at a time; an error meanwhile is counted by the next one
  const check = (watch: Watch): Promise<void> => {
    const next = (running.get(watch.id) ?? Promise.resolve()).then(() => evaluate(deps, watch)).catch((error: unknown) => deps.log.warn('publish.watch.failed', { watch: watch.id, error: (error as Error).message }))
    running.set(watch.id, next)
    return next
  }
  const tick = async () => {
    if (!deps.db.open) return
    await refresh()
    await Promise.all(open.map(check))
  }
  const stopListening = deps.store.onPublished((event) => {
    startWatching(deps, event)
      // counted from the commit on: the new watch joins the open ones at once, before the refresh
      // (a query) that re-reads them all
      .then((started) => {
        if (started && !open.some((w) => w.id === started.id)) open = [...open, started]
        return refresh()
      })
      .catch((error: unknown) => deps.log.warn('publish.watch.failed', { subject: event.subject, error: (error as Error).message }))
  })
  const serverError = (req: Request) => {
    const site = siteContext(req, deps).site.id
    for (const watch of open.filter((w) => w.paths.some(([s, p]) => s === site && p === req.path)))
      void deps.data.db
        .updateTable('store_publish_watches')
        .set((eb) => ({ server_errors: eb('server_errors', '+', 1) }))
        .where('id', '=', watch.id)
        .where('state', '=', 'watching')
        .execute()
        .then(() => check(watch))
        .catch((error: unknown) => deps.log.warn('publish.watch.failed', { watch: watch.id, error: (error as Error).message }))
  }
  const timer = setInterval(() => void tick().catch(() => undefined), TICK_MS)
  timer.unref()
  const watch: PublishWatch = {
    tick,
    stop: () => (clearInterval(timer), stopListening(), watches.delete(deps.store)),
  }
  watches.set(deps.store, { watch, serverError })
  return watch
}

export const publishWatchOf = (store: DocumentStore): PublishWatch | undefined => watches.get(store)?.watch
