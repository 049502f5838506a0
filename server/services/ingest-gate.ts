/**
 * The gate every ingest endpoint (analytics, errors, replays, taps) passes (issue 30 item 2):
 *
 * - **who**: the punter comes only from the request's authenticated session (the session-hash
 *   header and access token the gateway client sends); a guest is its anonymous device id. A
 *   `user_id` in a body or query is never read as the punter.
 * - **how much**: per client (address + device) and per site, requests and body bytes in a fixed
 *   window, counted on the bus so every instance shares them; past a quota the caller answers 429
 *   with `Retry-After` (the window's end). Redis away: counted nowhere, admitted (analytics guard no
 *   secret), since the storage budget (./ingest-store.ts) still bounds what is kept.
 * - **how long, how big**: the storage budget and the retention of each kind are the default
 *   site's (the rows are one pool); the quotas are each site's own (its remote config's INGEST).
 */
import type { Request, Response } from 'express'
import type { ServerDeps } from '../deps'
import { busOf } from '../bus'
import { sessionOfRequest } from '../auth/session-check'
import { remoteConfigFor } from '../documents/router'
import type { DocumentService } from '../documents/service'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { siteContext } from '../http/site'
import { ingestPolicyOf, type IngestPolicy } from './ingest-policy'

export type Admission = { ok: true } | { ok: false; quota: 'client' | 'site'; retryAfterSeconds: number }

export interface IngestGate {
  /** The session's punter id, or null for a guest (anonymous: its device id only). */
  punterOf(req: Request): Promise<string | null>
  /** Counts one request of `bytes` for the client and the site; refused past either quota. */
  admit(req: Request, device: string, bytes: number): Promise<Admission>
  /** The default site's policy: the storage budget and the retention of each kind. */
  pool(): IngestPolicy
}

export function createIngestGate(deps: ServerDeps): IngestGate {
  const bus = busOf(deps)
  const count = async (key: string, amount: number, limit: number, windowMs: number): Promise<number | null> => {
    const { total, resetInMs } = await bus.add(key, amount, windowMs)
    return total > limit ? Math.ceil(resetInMs / 1000) : null
  }
  return {
    async punterOf(req) {
      const found = await sessionOfRequest(deps, req)
      return found ? String(found.punter.id) : null
    },
    async admit(req, device, bytes) {
      const policy = ingestPolicyOf(remoteConfigFor(deps, req))
      const site = siteContext(req, deps).site.id
      const client = `${req.ip ?? '?'}|${device}`
      const window = policy.windowMs
      try {
        // requests first: a refused request adds no bytes
        const checks: Array<['client' | 'site', string, number, number]> = [
          ['client', `ingest:client:n:${client}`, 1, policy.client.requests],
          ['site', `ingest:site:n:${site}`, 1, policy.site.requests],
          ['client', `ingest:client:b:${client}`, bytes, policy.client.bytes],
          ['site', `ingest:site:b:${site}`, bytes, policy.site.bytes],
        ]
        for (const [quota, key, amount, limit] of checks) {
          const retryAfterSeconds = await count(key, amount, limit, window)
          if (retryAfterSeconds !== null) return { ok: false, quota, retryAfterSeconds }
        }
      } catch {
        // the bus is away: the budget still bounds storage
      }
      return { ok: true }
    },
    pool: () => poolPolicyOf(deps.documents),
  }
}

/** The default site's policy: what the pool of stored rows is bounded by. */
export function poolPolicyOf(documents: DocumentService): IngestPolicy {
  const home = documents.siteForHost('')
  const config = documents.resolve('remote-config', 'app', { jurisdiction: home.jurisdiction, locale: home.defaultLocale, platform: 'web' })
  return ingestPolicyOf(((config?.source as { config?: Record<string, unknown> })?.config ?? {}) as Record<string, unknown>)
}

/** The 429 of the envelope endpoints (errors, replays, taps), with Retry-After. */
export function refuseOverQuota(res: Response, refusal: Admission & { ok: false }): void {
  res.setHeader('Retry-After', String(refusal.retryAfterSeconds))
  sendError(res, 429, HTTP_ERRORS.tooManyRequests, { quota: refusal.quota, retryAfterSeconds: refusal.retryAfterSeconds })
}
