/**
 * Structured logging (pino): one JSON line per event, with redaction, so passwords, codes, tokens
 * and personal numbers never reach a log line (REFERENCES: "Never log passwords, codes, tokens or
 * personal numbers (CPR)"). Two layers: pino's `redact` paths blank the known places (headers,
 * bodies), and `redact()` below blanks any field whose NAME looks secret at any depth. A punter id
 * is logged only as a keyed hash (`punter`), so logs can follow one punter without naming them.
 *
 * Callers keep the small `Logger` interface (`log.info('event.name', { fields })`); a per-request
 * child (server/http/request-log.ts) adds the request id and the site to every line.
 */
import { createHash, randomBytes } from 'node:crypto'
import pino from 'pino'

const SECRET_KEY = /pass(word)?|secret|token|code|cpr|captcha|authorization|cookie|hash|answer|otp/i
/** Field names that carry a punter's id: logged hashed, never raw. */
const PUNTER_ID_KEYS = new Set(['punterId', 'punter_id'])

/** pino's own redaction: where a secret sits in a structured request, whatever its value. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-punter-session-hash"]',
  'req.headers["punter-session-hash"]',
  'res.headers["set-cookie"]',
  'body.password',
  'body.token',
  'body.code',
  '*.password',
  '*.accessToken',
  '*.refreshToken',
]

/** A key for this process's punter hashes: stable within a run, so one punter's lines group. */
const PUNTER_HASH_KEY = process.env.PARLAY_LOG_HASH_KEY || randomBytes(16).toString('hex')

/** The id a log line carries for a punter: 12 hex of a keyed SHA-256, not reversible by lookup. */
export function hashPunterId(punterId: unknown): string {
  return createHash('sha256').update(PUNTER_HASH_KEY).update(String(punterId)).digest('hex').slice(0, 12)
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[deep]'
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) {
      if (PUNTER_ID_KEYS.has(key)) out.punter = v === undefined || v === null ? v : hashPunterId(v)
      else out[key] = SECRET_KEY.test(key) ? '[redacted]' : redact(v, depth + 1)
    }
    return out
  }
  return value
}

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void
  warn(event: string, fields?: Record<string, unknown>): void
  error(event: string, fields?: Record<string, unknown>): void
  /** A logger whose every line also carries these (already safe) fields: request id, site. */
  child?(bindings: Record<string, unknown>): Logger
}

function wrap(base: pino.Logger): Logger {
  const emit = (level: 'info' | 'warn' | 'error') => (event: string, fields?: Record<string, unknown>) => {
    if (!base.isLevelEnabled(level)) return
    base[level]({ event, ...(redact(fields ?? {}) as object) })
  }
  return {
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (bindings) => wrap(base.child(redact(bindings) as Record<string, unknown>)),
  }
}

/**
 * The server's logger. `write` receives each JSON line (default: stdout); `quiet` keeps only
 * warnings and errors (tests). Lines: `{"level":"info","t":"…","event":"…",…fields}`.
 */
export function createLogger(write: (line: string) => void = (line) => process.stdout.write(line + '\n'), quiet = false): Logger {
  const destination = { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) }
  const base = pino(
    {
      level: quiet ? 'warn' : 'info',
      base: undefined,
      messageKey: 'msg',
      timestamp: () => `,"t":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination,
  )
  return wrap(base)
}
