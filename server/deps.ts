/** What every server module gets: the database, the documents, the clock, the config, the log. */
import type { Db } from './db/database'
import type { Logger } from './log'
import type { DocumentService } from './documents/service'
import type { DocumentStore } from './store/store'

export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  documentsDir: string
  distDir: string
  /**
   * Development mode (`npm run dev`): engine warnings on the page, the public dev outbox
   * (`/dev/outbox`, `/api/dev/outbox`) and the simulators. Off by default: production.
   */
  development: boolean
  /**
   * Local simulators stand in for services this install has no real provider for: the SMS and
   * e-mail outbox (read in /admin), MitID (`/dev/mitid`) and the Russian identity service.
   * On in development, or with PARLAY_SIMULATORS=on; off by default.
   */
  simulators: boolean
  /**
   * The demo (issue 30): the demo's staff accounts, whose passwords and TOTP secrets are published
   * (server/admin/DEMO_ADMINS.md), exist only then. On with the simulators or development, or
   * `--demo` / PARLAY_DEMO=on; a start without it disables them.
   */
  demo: boolean
  /** A signed audit checkpoint file (PARLAY_AUDIT_CHECKPOINT): the start refuses a log that no longer holds it. */
  auditCheckpoint?: string
  /** Web version (spec §9). */
  version: string
  /** Where reCAPTCHA and hCaptcha tokens are verified (server/auth/captcha-vendor.ts): the vendors'
   * URLs unless given; with the simulators, the local double (server/auth/captcha-double.ts). */
  captchaVerifyUrls?: Partial<Record<'RECAPTCHA' | 'HCAPTCHA', string>>
  /** The local captcha double's base URL when this start opened it (its /token issues widget tokens in dev). */
  captchaDoubleUrl?: string
}

export interface ServerDeps {
  db: Db
  documents: DocumentService
  config: ServerConfig
  log: Logger
  /** Injected clock (ms since epoch); tests move it instead of sleeping. */
  now: () => number
  /** Development servers without an injected clock: the clock tests move (server/regulation/dev-clock). */
  devClock?: import('./regulation/dev-clock').DevClock
  /** Starting, serving or draining (server/ops/lifecycle.ts): readiness answers 503 outside serving. */
  lifecycle?: import('./ops/lifecycle').Lifecycle
  /** Prometheus metrics of this server (server/ops/metrics.ts); created by createApp when absent. */
  metrics?: import('./ops/metrics-types').Metrics
  /** What instances share besides the database (server/bus): Redis with REDIS_URL, this process otherwise. */
  bus?: import('./bus/bus').Bus
  /** The query layer (server/db/data-layer.ts): the stores converted to it run on SQLite or PostgreSQL (DATABASE_URL). */
  data: import('./db/data-layer').DataLayer
  /** The key the staff TOTP secrets are sealed with (server/admin/totp-keys.ts). */
  totpKeys: import('./admin/totp-keys').TotpKeyring
  /** The versioned document store (created once at start; the admin module seeds it and serves its published set). */
  store: DocumentStore
}

/** Gateway prefixes (spec §7). The punter API lives behind the mobile gate. */
export const GATEWAY = {
  mobile: '/mobile-gate/api/v1',
  client: '/client-gate/api/v1',
  uniweb: '/uniweb-gate',
} as const
