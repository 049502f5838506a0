/**
 * Retention of the ingest (issue 30 item 2): every 10 minutes, and once at start, each kind's rows
 * older than its retention (the default site's remote config `INGEST.RETENTION_DAYS`; replays 30
 * days unless set) are deleted. Times are the server's injected clock (`deps.now`), so a test moves
 * the clock and sweeps (`ingestSweepOf(deps).sweep()`) instead of waiting. The reads in /admin
 * never show a row past its retention either, between two sweeps.
 */
import type { ServerDeps } from '../deps'
import { poolPolicyOf } from './ingest-gate'
import { INGEST_KINDS, type IngestKind } from './ingest-policy'
import { deleteOlderThan } from './ingest-store'

export const SWEEP_EVERY_MS = 10 * 60_000

export interface IngestSweep {
  /** Deletes what is past retention now; answers the rows deleted per kind. */
  sweep(): Promise<Record<IngestKind, number>>
  stop(): void
}

const sweeps = new WeakMap<ServerDeps, IngestSweep>()

/** The running server's sweep (tests reach it through its deps). */
export const ingestSweepOf = (deps: ServerDeps): IngestSweep | undefined => sweeps.get(deps)

export function startIngestSweep(deps: ServerDeps): IngestSweep {
  const sweep = async () => {
    const { retentionMs } = poolPolicyOf(deps.documents)
    const now = deps.now()
    const deleted = {} as Record<IngestKind, number>
    for (const kind of INGEST_KINDS) deleted[kind] = await deleteOlderThan(deps.data, kind, now - retentionMs[kind])
    const total = Object.values(deleted).reduce((a, b) => a + b, 0)
    if (total > 0) deps.log.info('ingest.retention.swept', deleted)
    return deleted
  }
  const run = () => {
    if (!deps.db.open) return stop()
    sweep().catch((error: unknown) => deps.log.warn('ingest.retention.failed', { error: (error as Error).message }))
  }
  const timer = setInterval(run, SWEEP_EVERY_MS)
  timer.unref()
  const first = setTimeout(run, 1_000)
  first.unref()
  const stop = () => {
    clearInterval(timer)
    clearTimeout(first)
  }
  const handle = { sweep, stop }
  sweeps.set(deps, handle)
  return handle
}
