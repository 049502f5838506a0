/**
 * What the publish watch (./publish-watch.ts) does when errors on a publish's pages rise: rolls
 * the publish back as `auto-rollback` — a version to what it replaced (store.undo), a release by
 * its rollback (ReleaseBook.rollback) — through the gate like any rollback, records the outcome on
 * the watch and in the audit log, and tells the publish's author and approver by e-mail through
 * the server's message sender (the outbox, read in /admin → Outbox, with the simulators on).
 * Like an emergency rollback, it opens an after-review item a person must acknowledge (./rollbacks.ts).
 */
import type { ServerDeps } from '../deps'
import { messageSenderFor } from '../auth/unlock'
import { appendAudit, auditedTransaction } from './audit'
import { releaseBookOf } from './releases'
import { openRollbackItem } from './rollbacks'
import type { PublishWatchDeps, Watch } from './publish-watch-types'

export const AUTO_ROLLBACK_ACTOR = 'auto-rollback'

interface Counts {
  serverErrors: number
  clientErrors: number
}

async function undo(deps: PublishWatchDeps, subject: string): Promise<{ ok: boolean; code?: string }> {
  const [kind, id] = subject.split('/')
  const result = kind === 'release' ? await releaseBookOf(deps.store, deps.now).rollback(AUTO_ROLLBACK_ACTOR, Number(id)) : await deps.store.undo(AUTO_ROLLBACK_ACTOR, Number(id))
  return result.ok ? { ok: true } : { ok: false, code: result.code }
}

function message(watch: Watch, counts: Counts, outcome: { ok: boolean; code?: string }): { subject: string; body: string } {
  const pages = watch.paths.filter(([, path]) => !path.startsWith('/api/')).map(([site, path]) => `${site} ${path}`)
  const errors = `${counts.serverErrors} server errors and ${counts.clientErrors} error reports from browsers on the pages it touched (${pages.join(', ') || 'its documents'}) since it went live`
  return outcome.ok
    ? { subject: `Parlay: ${watch.subject} was rolled back automatically`, body: `${errors}. Parlay rolled ${watch.subject} back by itself; the audit log (publish.auto-rolled-back) has the details.` }
    : { subject: `Parlay: ${watch.subject} could NOT be rolled back automatically`, body: `${errors}. The automatic rollback was refused (${outcome.code}): roll it back by hand in /admin.` }
}

/** Tells the author and the approver; a missing sender or a failed send is logged, never thrown. */
async function tell(deps: Pick<ServerDeps, 'db' | 'log'>, watch: Watch, text: { subject: string; body: string }): Promise<void> {
  const sender = messageSenderFor(deps.db)
  const people = [...new Set([watch.author, watch.approvedBy].filter((p): p is string => !!p && p.includes('@')).map((p) => p.toLowerCase()))]
  for (const to of people) {
    if (!sender) {
      deps.log.warn('publish.auto-rollback.not-told', { to, reason: 'no message sender configured' })
      continue
    }
    await Promise.resolve(sender.send({ channel: 'email', to, subject: text.subject, body: text.body, jurisdiction: watch.paths[0]?.[0] ?? '' })).catch((error: unknown) =>
      deps.log.warn('publish.auto-rollback.not-told', { to, reason: (error as Error).message }),
    )
  }
}

function openAfterReview(tx: Parameters<typeof openRollbackItem>[0], watch: Watch, counts: Counts, at: number): Promise<number> {
  const reason = `${counts.serverErrors} server errors and ${counts.clientErrors} error reports since it went live`
  return openRollbackItem(tx, { kind: 'automatic', subject: watch.subject, toVersion: null, reason, requestedBy: AUTO_ROLLBACK_ACTOR, requestedAt: at, state: 'review-pending', decidedBy: null, decidedAt: null, version: null })
}

/** Rolls a watched publish back (the watch is already claimed) and says so. */
export async function rollBackPublish(deps: PublishWatchDeps, watch: Watch, counts: Counts): Promise<void> {
  const outcome = await undo(deps, watch.subject).catch((error: unknown) => ({ ok: false, code: (error as Error).message }))
  const at = deps.now()
  await auditedTransaction(deps.data, async (audit) => {
    await audit.tx.updateTable('store_publish_watches').set({ state: outcome.ok ? 'rolled-back' : 'rollback-failed' }).where('id', '=', watch.id).execute()
    const action = outcome.ok ? 'publish.auto-rolled-back' : 'publish.auto-rollback-failed'
    // done by no person: a person reviews it afterwards, like an emergency rollback (./rollbacks.ts)
    const review = outcome.ok ? await openAfterReview(audit.tx, watch, counts, at) : undefined
    await appendAudit(audit, at, AUTO_ROLLBACK_ACTOR, action, watch.subject, { watch: watch.id, ...counts, author: watch.author, approvedBy: watch.approvedBy, ...(outcome.code ? { errorCode: outcome.code } : {}), ...(review ? { rollback: review } : {}) })
  })
  deps.log.warn(outcome.ok ? 'publish.auto-rolled-back' : 'publish.auto-rollback-failed', { subject: watch.subject, ...counts })
  await tell(deps, watch, message(watch, counts, outcome))
}
