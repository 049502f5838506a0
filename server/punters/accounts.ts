/**
 * The balances a punter holds, each one an account of the ledger (issue 28 item 4; decisions in
 * docs/adr/0003-real-and-bonus-money.md):
 *
 *   real           real money: punters.balance_minor (mainBalance)
 *   playthrough    deposited money still to be staked before it may be withdrawn: punters.playthrough_minor
 *   bonus:<id>     one bonus account's money: bonus_accounts.balance_minor
 *   wagering:<id>  the turnover staked towards that bonus: bonus_accounts.turnover_minor
 *
 * Every change of any of them is a ledger entry naming its account (ledger_entries.account), so
 * `npm run ledger:verify` recomputes each one from the ledger alone. `withdrawable_minor` is kept
 * beside them as max(0, balance − playthrough) in the same transaction.
 *
 * The step below adds the columns and the bonus accounts table on both engines, and brings a
 * database written before it into line: a punter's balance with no ledger entry (a demo or test
 * seed) gets its `opening` entry, a withdrawable below the balance its play-through, and a bonus
 * account kept in the profile JSON becomes a row with its grant. Those entries take negative ids
 * (below every existing one), so each account's history still starts with them in id order.
 */
import { sql, type Generated, type Kysely } from 'kysely'
import { oneOf, schemaStep, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Tables } from '../db/tables'
// the punters row and the ledger (q070) are registered first: this step alters them
import './tables'

export const BONUS_STATUSES = ['active', 'completed', 'forfeited', 'expired'] as const
export type BonusStatus = (typeof BONUS_STATUSES)[number]

export interface BonusAccountTable {
  id: Generated<number>
  punter_id: number
  /** The product whose stakes use it and count towards its wagering (sport, casino …). */
  product: string
  status: BonusStatus
  balance_minor: number
  turnover_minor: number
  required_turnover_minor: number
  /** 1 when opened; each further grant onto the open account is the next step. */
  current_step: number
  expires_at: number | null
  created_at: number
  closed_at: number | null
}

declare module '../db/tables' {
  interface Tables {
    bonus_accounts: BonusAccountTable
  }
}

export const REAL = 'real'
export const PLAYTHROUGH = 'playthrough'
export const bonusAccount = (id: number) => `bonus:${id}`
export const wageringAccount = (id: number) => `wagering:${id}`

/** Which stored balance an account name stands for. */
export type AccountRef = { kind: 'real' } | { kind: 'playthrough' } | { kind: 'bonus' | 'wagering'; id: number }

export function parseAccount(account: string): AccountRef | undefined {
  if (account === REAL) return { kind: 'real' }
  if (account === PLAYTHROUGH) return { kind: 'playthrough' }
  const match = /^(bonus|wagering):(\d+)$/.exec(account)
  return match ? { kind: match[1] as 'bonus' | 'wagering', id: Number(match[2]) } : undefined
}

export const q084LedgerAccounts = schemaStep('q084-ledger-accounts', async (db, engine) => {
  await db.schema.alterTable('punters').addColumn('playthrough_minor', 'bigint', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('ledger_entries').addColumn('account', 'text', (c) => c.notNull().defaultTo(REAL)).execute()
  await db.schema.createIndex('ledger_entries_account').ifNotExists().on('ledger_entries').columns(['punter_id', 'account', 'id']).execute()
  await db.schema
    .createTable('bonus_accounts')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('punter_id', surrogateKeyType(engine), (c) => c.notNull().references('punters.id'))
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', BONUS_STATUSES)))
    .addColumn('balance_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('turnover_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('required_turnover_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('current_step', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .execute()
  // one open account per punter and product (the ledger's transactions are serialised per punter; this is the last guard)
  await db.schema.createIndex('bonus_accounts_open').ifNotExists().unique().on('bonus_accounts').columns(['punter_id', 'product']).where(sql.ref('status'), '=', 'active').execute()
  await backfill(db as Kysely<Tables>)
})

interface LegacyBonus {
  accounts?: { product: string; amount: number; currentStep?: number; turnover?: number; requiredTurnover?: number }[]
}

/** A database written before the ledger kept every balance: the entries it lacked (see the file's comment). */
async function backfill(db: Kysely<Tables>): Promise<void> {
  const punters = await db.selectFrom('punters').select(['id', 'balance_minor', 'withdrawable_minor', 'profile', 'created_at']).orderBy('id').execute()
  if (punters.length === 0) return
  const lowest = await db.selectFrom('ledger_entries').select((eb) => eb.fn.min<number>('id').as('id')).executeTakeFirst()
  let nextId = Math.min(0, Number(lowest?.id ?? 0)) - 1
  const entry = (punterId: number, account: string, reference: string, kind: string, amount: number, at: number) =>
    db.insertInto('ledger_entries').values({ id: nextId--, punter_id: punterId, account, reference, kind, amount_minor: amount, balance_after_minor: amount, created_at: at }).execute()
  for (const punter of punters) {
    const entered = await db.selectFrom('ledger_entries').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('sum')).where('punter_id', '=', punter.id).executeTakeFirstOrThrow()
    const opening = Number(punter.balance_minor) - Number(entered.sum)
    if (opening !== 0) await entry(punter.id, REAL, `opening:${punter.id}`, 'opening', opening, punter.created_at)
    const playthrough = Math.max(0, Number(punter.balance_minor) - Number(punter.withdrawable_minor))
    if (playthrough > 0) {
      await entry(punter.id, PLAYTHROUGH, `opening:${punter.id}/playthrough`, 'opening', playthrough, punter.created_at)
      await db.updateTable('punters').set({ playthrough_minor: playthrough }).where('id', '=', punter.id).execute()
    }
    await moveLegacyBonus(db, punter, (account, reference, amount) => entry(punter.id, account, reference, 'bonus-grant', amount, punter.created_at))
  }
}

async function moveLegacyBonus(db: Kysely<Tables>, punter: { id: number; profile: string; created_at: number }, entry: (account: string, reference: string, amount: number) => Promise<unknown>): Promise<void> {
  let profile: { bonus?: LegacyBonus } & Record<string, unknown>
  try {
    profile = JSON.parse(punter.profile || '{}')
  } catch {
    return
  }
  const accounts = profile.bonus?.accounts
  if (!Array.isArray(accounts)) return
  for (const old of accounts) {
    const balance = Math.round((Number(old.amount) || 0) * 100)
    const row = await db
      .insertInto('bonus_accounts')
      .values({ punter_id: punter.id, product: String(old.product), status: 'active', balance_minor: balance, turnover_minor: Math.round((Number(old.turnover) || 0) * 100), required_turnover_minor: Math.round((Number(old.requiredTurnover) || 0) * 100), current_step: Number(old.currentStep) || 1, expires_at: null, created_at: punter.created_at, closed_at: null })
      .onConflict((c) => c.doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!row) continue
    if (balance !== 0) await entry(bonusAccount(row.id), `bonus-grant:legacy:${row.id}`, balance)
    const turnover = Math.round((Number(old.turnover) || 0) * 100)
    if (turnover !== 0) await entry(wageringAccount(row.id), `bonus-grant:legacy:${row.id}/wagering`, turnover)
  }
  const { accounts: _moved, ...bonus } = profile.bonus!
  await db.updateTable('punters').set({ profile: JSON.stringify({ ...profile, bonus }) }).where('id', '=', punter.id).execute()
}
