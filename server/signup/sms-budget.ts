/**
 * SMS pumping defence: every sign-up SMS (first code or resend) spends from three hourly budgets
 * — the client's, the number range's (the number without its last digits) and the dial code's —
 * and past the first few sends of a client each send needs a solved proof-of-work captcha.
 * The numbers come from the jurisdiction document (`regulatory.serverOnly.smsBudget`), which the
 * server enforces and never serves to the browser; DEFAULT_SMS_BUDGET fills what it leaves out.
 *
 * Checking and spending happen in one transaction serialised on the three budgets' keys (on the
 * query layer, issue 16: SQLite or PostgreSQL), so parallel requests, on any instances, can
 * neither overspend a budget nor share a free send.
 */
import type { Generated, Kysely } from 'kysely'
import type { Result } from '../../kernel/core/contracts'
import { clientAddress } from '../auth/throttle'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Tables } from '../db/tables'

export const sqlite403SignupSmsSends = sqliteHistory(
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

declare module '../db/tables' {
  interface Tables {
    signup_sms_sends: { id: Generated<number>; client: string; number_range: string; dial_code: string; at: number }
  }
}

export const q012SignupSmsSends = schemaStep('q012-signup-sms-sends', async (db, engine) => {
  await db.schema
    .createTable('signup_sms_sends')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('number_range', 'text', (c) => c.notNull())
    .addColumn('dial_code', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute()
  for (const [index, column] of [['signup_sms_sends_client', 'client'], ['signup_sms_sends_range', 'number_range'], ['signup_sms_sends_dial', 'dial_code']] as const)
    await db.schema.createIndex(index).ifNotExists().on('signup_sms_sends').columns([column, 'at']).execute()
})

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

type Refusal = (Result<null> & { nextAllowedAt?: number }) | { ok: false; code: SmsRefusal; nextAllowedAt?: number }

export function createSmsBudgetService(data: DataLayer) {
  const count = async (db: Kysely<Tables>, column: 'client' | 'number_range' | 'dial_code', value: string, since: number) => {
    const row = await db
      .selectFrom('signup_sms_sends')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('at').as('oldest')])
      .where(column, '=', value)
      .where('at', '>', since)
      .executeTakeFirst()
    return { n: Number(row?.n ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) }
  }

  const keysOf = (to: SmsRecipient, budget: SmsBudget) => ({
    client: clientAddress(to.ip),
    range: to.phone.slice(0, Math.max(4, to.phone.length - budget.rangeHiddenDigits)),
    dial: to.dialCode,
  })

  /** The first refusal for a send now, if any; `solved` says a valid captcha came with it. */
  async function check(to: SmsRecipient, budget: SmsBudget, now: number, solved: boolean, db: Kysely<Tables> = data.db): Promise<Refusal> {
    const since = now - SMS_BUDGET_WINDOW_MS
    const keys = keysOf(to, budget)
    const client = await count(db, 'client', keys.client, since)
    if (client.n >= budget.perClientPerHour) return { ok: false, code: 'TEMPORARY_BLOCKED', nextAllowedAt: (client.oldest ?? now) + SMS_BUDGET_WINDOW_MS }
    if ((await count(db, 'number_range', keys.range, since)).n >= budget.perRangePerHour || (await count(db, 'dial_code', keys.dial, since)).n >= budget.perDialCodePerHour)
      return { ok: false, code: 'EXCEEDED_LIMIT' }
    if (client.n >= budget.freeSendsPerClient && !solved) return { ok: false, code: 'CAPTCHA_REQUIRED' }
    return { ok: true, value: null }
  }

  return {
    /** A look before the captcha is verified: nothing is spent. */
    check: (to: SmsRecipient, budget: SmsBudget, now: number, solved: boolean) => check(to, budget, now, solved),

    /** Checks again and spends one send, atomically (serialised on the three budgets across instances); the id to give back if nothing is sent. */
    spend(to: SmsRecipient, budget: SmsBudget, now: number, solved: boolean): Promise<Result<number> & { nextAllowedAt?: number }> {
      const keys = keysOf(to, budget)
      return data.transaction(
        async (tx): Promise<Result<number> & { nextAllowedAt?: number }> => {
          const refused = await check(to, budget, now, solved, tx)
          if (!refused.ok) return refused
          await tx.deleteFrom('signup_sms_sends').where('at', '<=', now - SMS_BUDGET_WINDOW_MS).execute()
          const { id } = await tx.insertInto('signup_sms_sends').values({ client: keys.client, number_range: keys.range, dial_code: keys.dial, at: now }).returning('id').executeTakeFirstOrThrow()
          return { ok: true, value: Number(id) }
        },
        { serialiseOn: [`sms-client:${keys.client}`, `sms-range:${keys.range}`, `sms-dial:${keys.dial}`] },
      )
    },

    /** Gives a send back (the flow was refused for another reason; no SMS went out). */
    async refund(id: number): Promise<void> {
      await data.db.deleteFrom('signup_sms_sends').where('id', '=', id).execute()
    },
  }
}

export type SmsBudgetService = ReturnType<typeof createSmsBudgetService>
