/**
 * Structured logging with redaction: passwords, codes, tokens and personal numbers never reach a
 * log line (REFERENCES: "Never log passwords, codes, tokens or personal numbers (CPR)").
 */
const SECRET_KEY = /pass(word)?|secret|token|code|cpr|captcha|authorization|cookie|hash|answer|otp/i

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[deep]'
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? '[redacted]' : redact(v, depth + 1)
    return out
  }
  return value
}

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void
  warn(event: string, fields?: Record<string, unknown>): void
  error(event: string, fields?: Record<string, unknown>): void
}

export function createLogger(write: (line: string) => void = (line) => process.stdout.write(line + '\n'), quiet = false): Logger {
  const emit = (level: string, event: string, fields?: Record<string, unknown>) => {
    if (quiet && level === 'info') return
    write(JSON.stringify({ t: new Date().toISOString(), level, event, ...(redact(fields ?? {}) as object) }))
  }
  return {
    info: (e, f) => emit('info', e, f),
    warn: (e, f) => emit('warn', e, f),
    error: (e, f) => emit('error', e, f),
  }
}
