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
import type { ServerModule } from '../module'
import type { ServerDeps } from '../deps'
import { formatProblem } from '../../tools/schema-lint'
import type { DocumentStore } from '../store/store'
import { readFileSync } from 'node:fs'
import { AuditLogError } from '../store/audit'
import { openAuditLog } from '../store/audit-open'
import { retireDemoAdmins, seedDemoAdmins } from './staff'
import { sealStoredTotpSecrets } from './totp-sealing'
import { createAdminRouter } from './router'
import { releaseBookOf } from '../store/releases'
import { rememberScheduler, startReleaseScheduler } from '../store/release-scheduler'
import { publishWatchOf, startPublishWatch } from '../store/publish-watch'
import { serialized } from '../documents/serialized'

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
    // The folder changed (the watcher): seed and serve again, one seeding at a time; changes that
    // arrive meanwhile are taken by one more seeding after it (the files are read when it starts).
    deps.documents.onFilesChanged(serialized(() => seedAndServe().catch((error: unknown) => deps.log.warn('store.reseed.failed', { error: (error as Error).message }))))
    // Hashing the demo passwords takes a moment: the server starts meanwhile, and sign-in waits.
    await sealTotpSecrets(deps, store)
    const adminsReady = demoAdmins(deps, store).catch((error) => deps.log.error('admin.seed.failed', { error: (error as Error).message }))
    app.use(createAdminRouter(deps, store, adminsReady))
    // Scheduled releases go live when the server's clock reaches their time (server/store/release-scheduler.ts).
    rememberScheduler(store, startReleaseScheduler(releaseBookOf(store, deps.now), store, { log: deps.log, isOpen: () => deps.db.open }))
    // After each publish its pages are watched; errors there roll it back (server/store/publish-watch.ts).
    publishWatchOf(store)?.stop()
    startPublishWatch(deps)
  },
}

/**
 * The demo's staff accounts exist only while the demo is asked for (issue 30): a demo start seeds
 * them; any other start disables those still enabled (their passwords are published), audited.
 */
async function demoAdmins(deps: ServerDeps, store: DocumentStore): Promise<void> {
  if (deps.config.demo) return seedDemoAdmins(deps.data, deps.totpKeys, deps.now(), () => deps.db.open)
  const retired = await retireDemoAdmins(deps.data, deps.now())
  if (retired.length === 0) return
  deps.log.warn('admin.demo-accounts.disabled', { accounts: retired, why: 'not a demo start: their passwords are published' })
  await store.audit('parlay', 'admin.demo-accounts-disabled', 'admin', { accounts: retired })
}

/** Before sign-in answers: every staff TOTP secret sealed under the current key (./totp-sealing.ts). */
async function sealTotpSecrets(deps: ServerDeps, store: DocumentStore): Promise<void> {
  if (deps.totpKeys.created) deps.log.info('admin.totp-key.created', { file: `${deps.config.dataDir}/totp.key` })
  const { sealed, resealed } = await sealStoredTotpSecrets(deps.data, deps.totpKeys)
  if (sealed + resealed === 0) return
  deps.log.warn('admin.totp-secrets.sealed', { sealed, resealed, keyId: deps.totpKeys.currentId })
  await store.audit('parlay', 'admin.totp-secrets-sealed', 'admin', { sealed, resealed, keyId: deps.totpKeys.currentId })
}

/** Takes the audit log over with its key and anchor; a log that fails verification stops the start. */
async function openAnchoredAuditLog(deps: ServerDeps): Promise<void> {
  try {
    const checkpoint = deps.config.auditCheckpoint ? readFileSync(deps.config.auditCheckpoint, 'utf8') : undefined
    const { key, adopted, joined, others, database } = await openAuditLog(deps.data, deps.config.dataDir, { now: deps.now(), checkpoint })
    if (key.created) deps.log.info('audit.key.created', { dataDir: deps.config.dataDir })
    if (key.narrowed) deps.log.warn('audit.key.permissions-narrowed', { file: 'audit.key', mode: '0600' })
    if (adopted > 0) deps.log.warn('audit.anchor.adopted', { entries: adopted })
    if (joined > 0) {
      deps.log.warn('audit.anchor.joined', { entries: joined, database: database.id })
      await deps.store.audit('parlay', 'audit.instance-joined', 'audit', { entries: joined, checkpoint: checkpoint !== undefined })
    }
    if (others.length > 0) deps.log.info('audit.anchor.other-databases', { database: database.id, others })
  } catch (error) {
    if (!(error instanceof AuditLogError)) throw error
    const dir = deps.config.dataDir
    throw new AuditLogError(
      `${error.message}. Run \`npm run audit:verify -- ${dir}\`; the server does not append to a log it cannot vouch for (restore the database and the data dir from a backup; ` +
        `or, once you know why, accept the log as it stands with \`npm run audit:accept -- ${dir} --reason "…"\`, which is recorded in the log).`,
    )
  }
}
