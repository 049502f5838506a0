/**
 * The admin module: makes the document store the source of served documents and mounts the admin
 * API and page.
 *
 * At mount the files in the documents folder seed the store, and the published set replaces what
 * the documents service loaded from the files. When the service reloads from files (the dev
 * watcher), the store seeds the changed files as new published versions and the published set is
 * installed again, so an edited file still goes live while published admin versions of other
 * files stay served.
 */
import type { ServerModule } from '../modules'
import type { ServerDeps } from '../deps'
import { formatProblem } from '../../shared/documents/loader'
import type { DocumentStore } from '../store/store'
import { AuditLogError, openAuditLog } from '../store/audit'
import { seedAdmins } from './accounts'
import { createAdminRouter } from './router'
import { releaseBookOf } from '../store/releases'
import { rememberScheduler, startReleaseScheduler } from '../store/release-scheduler'
import { publishWatchOf, startPublishWatch } from '../store/publish-watch'

/** The store of the running server (tests and tools reach it through here). */
export let currentStore: DocumentStore | undefined

export const adminModule: ServerModule = {
  name: 'admin',
  async mount(app, deps) {
    await openAnchoredAuditLog(deps)
    const store = deps.store
    currentStore = store
    const seedAndServe = async () => {
      const { seeded, removed, problems } = await store.seed(deps.config.documentsDir)
      if (problems.length > 0) deps.log.warn('store.seed.skipped', { problems: problems.map(formatProblem) })
      // Still served until compliance approves the deletion and it is published.
      if (removed.length > 0) deps.log.warn('store.seed.files-removed', { files: removed, review: 'deletion proposed for review' })
      const { records, problems: broken } = await store.publishedRecords()
      if (broken.length > 0) deps.log.error('store.published.invalid', { problems: broken.map(formatProblem) })
      store.serve(records)
      if (seeded.length > 0) deps.log.info('store.seeded', { files: seeded.length })
    }
    await seedAndServe()
    deps.documents.onChange(() => {
      if (store.installing) return
      seedAndServe().catch((error: unknown) => deps.log.warn('store.reseed.failed', { error: (error as Error).message }))
    })
    // Hashing the demo passwords takes a moment: the server starts meanwhile, and sign-in waits.
    const adminsReady = seedAdmins(deps.data, deps.now(), () => deps.db.open).catch((error) => deps.log.error('admin.seed.failed', { error: (error as Error).message }))
    app.use(createAdminRouter(deps, store, adminsReady))
    // Scheduled releases go live when the server's clock reaches their time (server/store/release-scheduler.ts).
    rememberScheduler(store, startReleaseScheduler(releaseBookOf(store, deps.now), store, { log: deps.log, isOpen: () => deps.db.open }))
    // After each publish its pages are watched; errors there roll it back (server/store/publish-watch.ts).
    publishWatchOf(store)?.stop()
    startPublishWatch(deps)
  },
}

/** Takes the audit log over with its key and anchor; a log that fails verification stops the start. */
async function openAnchoredAuditLog(deps: ServerDeps): Promise<void> {
  try {
    const { key, adopted, joined } = await openAuditLog(deps.data, deps.config.dataDir)
    if (key.created) deps.log.info('audit.key.created', { dataDir: deps.config.dataDir })
    if (key.narrowed) deps.log.warn('audit.key.permissions-narrowed', { file: 'audit.key', mode: '0600' })
    if (adopted > 0) deps.log.warn('audit.anchor.adopted', { entries: adopted })
    if (joined > 0) deps.log.info('audit.anchor.joined', { entries: joined })
  } catch (error) {
    if (!(error instanceof AuditLogError)) throw error
    throw new AuditLogError(`${error.message}. Run \`npm run audit:verify -- ${deps.config.dataDir}\`; the server does not append to a log it cannot vouch for (restore the data dir from a backup, or move it aside to start afresh).`)
  }
}
