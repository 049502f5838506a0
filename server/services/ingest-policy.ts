/**
 * The bounds of the ingest (issue 30 item 2), read from a site's remote config (`INGEST`,
 * server-only) over these defaults. Why these numbers: a real page sends at most a replay batch
 * every 500 ms–10 s (spec §9: up to 1,000,000 bytes unpacked, a tenth of that gzipped), an
 * analytics upload every 10 s and a few error reports, so 120 requests and 4 MB a minute per
 * address + device leave a busy page five times its need while one client's flood (28.7 MB in 9 s
 * was measured) stops within a second; a site's quota bounds a flood spread over many devices, and
 * the storage budget bounds what any flood can leave behind. Retention: replays 30 days (what
 * support needs to answer a complaint; GDPR art. 5(1)(e)), taps as long as replays, events and
 * errors 90 days. The contact form (issue 34): 5 messages per address in 10 minutes — a punter
 * writes once or twice and corrects a slip; a script filling support's queue stops at the sixth.
 */
export type IngestKind = 'events' | 'errors' | 'replays' | 'clicks'
export const INGEST_KINDS: readonly IngestKind[] = ['events', 'errors', 'replays', 'clicks']

export interface IngestPolicy {
  windowMs: number
  client: { requests: number; bytes: number }
  site: { requests: number; bytes: number }
  storageBudgetBytes: number
  /** The contact form: messages per client address in its own window. */
  contact: { requests: number; windowMs: number }
  retentionMs: Record<IngestKind, number>
}

const DAY = 24 * 3600_000

export const INGEST_DEFAULTS = {
  WINDOW_SECONDS: 60,
  CLIENT_REQUESTS: 120,
  CLIENT_BYTES: 4_000_000,
  SITE_REQUESTS: 30_000,
  SITE_BYTES: 400_000_000,
  STORAGE_BUDGET_BYTES: 2_000_000_000,
  CONTACT: { REQUESTS: 5, WINDOW_SECONDS: 600 },
  RETENTION_DAYS: { EVENTS: 90, ERRORS: 90, REPLAYS: 30, CLICKS: 30 },
} as const

const positive = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : fallback)

/** A site's policy: its remote config's `INGEST` over the defaults (the schema checked the types). */
export function ingestPolicyOf(remoteConfig: Record<string, unknown>): IngestPolicy {
  const set = (remoteConfig.INGEST ?? {}) as Record<string, unknown>
  const days = (set.RETENTION_DAYS ?? {}) as Record<string, unknown>
  const contact = (set.CONTACT ?? {}) as Record<string, unknown>
  const d = INGEST_DEFAULTS
  return {
    windowMs: positive(set.WINDOW_SECONDS, d.WINDOW_SECONDS) * 1000,
    client: { requests: positive(set.CLIENT_REQUESTS, d.CLIENT_REQUESTS), bytes: positive(set.CLIENT_BYTES, d.CLIENT_BYTES) },
    site: { requests: positive(set.SITE_REQUESTS, d.SITE_REQUESTS), bytes: positive(set.SITE_BYTES, d.SITE_BYTES) },
    storageBudgetBytes: positive(set.STORAGE_BUDGET_BYTES, d.STORAGE_BUDGET_BYTES),
    contact: { requests: positive(contact.REQUESTS, d.CONTACT.REQUESTS), windowMs: positive(contact.WINDOW_SECONDS, d.CONTACT.WINDOW_SECONDS) * 1000 },
    retentionMs: {
      events: positive(days.EVENTS, d.RETENTION_DAYS.EVENTS) * DAY,
      errors: positive(days.ERRORS, d.RETENTION_DAYS.ERRORS) * DAY,
      replays: positive(days.REPLAYS, d.RETENTION_DAYS.REPLAYS) * DAY,
      clicks: positive(days.CLICKS, d.RETENTION_DAYS.CLICKS) * DAY,
    },
  }
}
