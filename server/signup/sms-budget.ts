/**
 * SMS pumping defence: every sign-up SMS (first code or resend) spends from three hourly budgets
 * — the client's, the number range's (the number without its last digits) and the dial code's —
 * and past the first few sends of a client each send needs a solved proof-of-work captcha.
 * The numbers come from the jurisdiction document (`regulatory.serverOnly.smsBudget`), which the
 * server enforces and never serves to the browser; DEFAULT_SMS_BUDGET fills what it leaves out.
 *
 * Checking and spending happen in one synchronous SQLite transaction, so parallel requests can
 * neither overspend a budget nor share a free send.
 */
import type { Result } from '../../engine/core/contracts'
import { clientAddress } from '../auth/throttle'
import { registerMigration, type Db } from '../db/database'

registerMigration(
  '403-signup-sms-sends',
  `CREATE TABLE signup_sms_sends (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     client TEXT NOT NULL,
     number_range TEXT NOT NULL,
     dial_code TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   CREATE INDEX signup_sms_sends_client ON signup_sms_sends(client, at);
   CREATE INDEX signup_sms_sends_range ON signup_sms_sends(number_range, at);
   CREATE INDEX signup_sms_sends_dial ON signup_sms_sends(dial_code, at);`,
)

export interface SmsBudget {
  /** Sends per client per hour that need no captcha. */
  freeSendsPerClient: number
  /** Sends per client per hour (TEMPORARY_BLOCKED after). */
  perClientPerHour: number
  /** Sends per number range per hour (EXCEEDED_LIMIT after). */
  perRangePerHour: number
  /** A range is the number without this many last digits. */
  rangeHiddenDigits: number
  /** Sends per dial code per hour (EXCEEDED_LIMIT after). */
  perDialCodePerHour: number
}

export const DEFAULT_SMS_BUDGET: SmsBudget = { freeSendsPerClient: 3, perClientPerHour: 10, perRangePerHour: 10, rangeHiddenDigits: 4, perDialCodePerHour: 300 }
export const SMS_BUDGET_WINDOW_MS = 3_600_000

const isCount = (value: unknown, max: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max

/** The budget of a jurisdiction document; a missing or malformed number falls back to the default. */
export function smsBudgetOf(jurisdiction: unknown): SmsBudget {
  const regulatory = (jurisdiction as { regulatory?: { serverOnly?: { smsBudget?: Record<string, unknown> } } } | undefined)?.regulatory
  const raw = regulatory?.serverOnly?.smsBudget ?? {}
  const pick = (key: keyof SmsBudget, max: number) => (isCount(raw[key], max) ? raw[key] : DEFAULT_SMS_BUDGET[key])
  return {
    freeSendsPerClient: pick('freeSendsPerClient', 1000),
    perClientPerHour: pick('perClientPerHour', 10_000),
    perRangePerHour: pick('perRangePerHour', 100_000),
    rangeHiddenDigits: pick('rangeHiddenDigits', 8),
    perDialCodePerHour: pick('perDialCodePerHour', 10_000_000),
  }
}

export interface SmsRecipient {
  /** The request's client address. */
  ip: string
  /** E.164. */
  phone: string
  dialCode: string
}

export type SmsRefusal = 'CAPTCHA_REQUIRED' | 'TEMPORARY_BLOCKED' | 'EXCEEDED_LIMIT'

export function createSmsBudgetService(db: Db) {
  const count = (column: 'client' | 'number_range' | 'dial_code', value: string, since: number) =>
    (db.prepare(`SELECT COUNT(*) AS n, MIN(at) AS oldest FROM signup_sms_sends WHERE ${column} = ? AND at > ?`).get(value, since) as { n: number; oldest: number | null })

  const keysOf = (to: SmsRecipient, budget: SmsBudget) => ({
    client: clientAddress(to.ip),
    range: to.phone.slice(0, Math.max(4, to.phone.length - budget.rangeHiddenDigits)),
    dial: to.dialCode,
  })

  /** The first refusal for a send now, if any; `solved` says a valid captcha came with it. */
  function check(to: SmsRecipient, budget: SmsBudget, now: number, solved: boolean): (Result<null> & { nextAllowedAt?: number }) | { ok: false; code: SmsRefusal; nextAllowedAt?: number } {
    const since = now - SMS_BUDGET_WINDOW_MS
    const keys = keysOf(to, budget)
    const client = count('client', keys.client, since)
    if (client.n >= budget.perClientPerHour) return { ok: false, code: 'TEMPORARY_BLOCKED', nextAllowedAt: (client.oldest ?? now) + SMS_BUDGET_WINDOW_MS }
    if (count('number_range', keys.range, since).n >= budget.perRangePerHour || count('dial_code', keys.dial, since).n >= budget.perDialCodePerHour)
      return { ok: false, code: 'EXCEEDED_LIMIT' }
    if (client.n >= budget.freeSendsPerClient && !solved) return { ok: false, code: 'CAPTCHA_REQUIRED' }
    return { ok: true, value: null }
  }

  return {
    /** A look before the captcha is verified: nothing is spent. */
    check,

    /** Checks again and spends one send, atomically; the id to give back if nothing is sent. */
    spend(to: SmsRecipient, budget: SmsBudget, now: number, solved: boolean): Result<number> & { nextAllowedAt?: number } {
      return db.transaction((): Result<number> & { nextAllowedAt?: number } => {
        const refused = check(to, budget, now, solved)
        if (!refused.ok) return refused
        const keys = keysOf(to, budget)
        db.prepare('DELETE FROM signup_sms_sends WHERE at <= ?').run(now - SMS_BUDGET_WINDOW_MS)
        const id = db.prepare('INSERT INTO signup_sms_sends (client, number_range, dial_code, at) VALUES (?, ?, ?, ?)').run(keys.client, keys.range, keys.dial, now).lastInsertRowid
        return { ok: true, value: Number(id) }
      })()
    },

    /** Gives a send back (the flow was refused for another reason; no SMS went out). */
    refund(id: number): void {
      db.prepare('DELETE FROM signup_sms_sends WHERE id = ?').run(id)
    },
  }
}

export type SmsBudgetService = ReturnType<typeof createSmsBudgetService>
