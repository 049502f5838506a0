/**
 * Recomputes every balance from the ledger alone and compares (issue 28 item 4; `npm run
 * ledger:verify`, tools/ledger-verify.ts, and every HTTP test server when it is disposed): for each
 * punter and account (./accounts.ts), in id order, every entry's balance after must be the sum of
 * the account's entries up to it and never below zero, and the last one the stored balance
 * (punters.balance_minor, playthrough_minor; bonus_accounts.balance_minor, turnover_minor). A stored
 * balance with no entries must be zero, and withdrawable must be max(0, real − play-through). The
 * first punter (by id) and account that disagree are named.
 */
import type { Kysely } from 'kysely'
import type { Tables } from '../db/tables'
import { parseAccount, PLAYTHROUGH, REAL, bonusAccount, wageringAccount } from './accounts'

export type LedgerVerification =
  | { ok: true; punters: number; accounts: number; entries: number }
  | { ok: false; punterId: number; accountNumber: string; account: string; reason: string; entries: number }

interface Entry {
  id: number
  punter_id: number
  account: string
  reference: string
  amount_minor: number
  balance_after_minor: number
}

const money = (minor: number) => (minor / 100).toFixed(2)

/** What the ledger says each account holds, or the first entry that breaks its chain. */
function replay(entries: Entry[]): { sums: Map<string, number>; broken?: { entry: Entry; reason: string } } {
  const sums = new Map<string, number>()
  for (const entry of entries) {
    const key = `${entry.punter_id} ${entry.account}`
    const running = (sums.get(key) ?? 0) + Number(entry.amount_minor)
    sums.set(key, running)
    if (!parseAccount(entry.account)) return { sums, broken: { entry, reason: `entry #${entry.id} (${entry.reference}) names an unknown account` } }
    if (Number(entry.balance_after_minor) !== running) return { sums, broken: { entry, reason: `entry #${entry.id} (${entry.reference}) says the balance after it is ${money(Number(entry.balance_after_minor))}; the entries up to it make ${money(running)}` } }
    if (running < 0) return { sums, broken: { entry, reason: `entry #${entry.id} (${entry.reference}) takes the balance below zero (${money(running)})` } }
  }
  return { sums }
}

export async function verifyLedger(db: Kysely<Tables>): Promise<LedgerVerification> {
  const entries = (await db.selectFrom('ledger_entries').select(['id', 'punter_id', 'account', 'reference', 'amount_minor', 'balance_after_minor']).orderBy('punter_id').orderBy('account').orderBy('id').execute()) as Entry[]
  const punters = await db.selectFrom('punters').select(['id', 'account_number', 'balance_minor', 'playthrough_minor', 'withdrawable_minor']).orderBy('id').execute()
  const bonuses = await db.selectFrom('bonus_accounts').select(['id', 'punter_id', 'balance_minor', 'turnover_minor']).orderBy('id').execute()
  const { sums, broken } = replay(entries)
  const problems: { punterId: number; account: string; reason: string }[] = []
  if (broken) problems.push({ punterId: Number(broken.entry.punter_id), account: broken.entry.account, reason: broken.reason })
  const stored = new Map<string, number>()
  const derived: typeof problems = []
  for (const p of punters) {
    stored.set(`${p.id} ${REAL}`, Number(p.balance_minor))
    stored.set(`${p.id} ${PLAYTHROUGH}`, Number(p.playthrough_minor))
    const withdrawable = Math.max(0, Number(p.balance_minor) - Number(p.playthrough_minor))
    if (Number(p.withdrawable_minor) !== withdrawable) derived.push({ punterId: p.id, account: 'withdrawable', reason: `stored withdrawable ${money(Number(p.withdrawable_minor))}; real less play-through makes ${money(withdrawable)}` })
  }
  for (const b of bonuses) {
    stored.set(`${b.punter_id} ${bonusAccount(b.id)}`, Number(b.balance_minor))
    stored.set(`${b.punter_id} ${wageringAccount(b.id)}`, Number(b.turnover_minor))
  }
  for (const [key, sum] of sums) {
    const [punterId, account] = key.split(' ') as [string, string]
    if (!stored.has(key)) problems.push({ punterId: Number(punterId), account, reason: `the ledger holds ${money(sum)} on an account the punter does not have` })
  }
  for (const [key, balance] of stored) {
    const [punterId, account] = key.split(' ') as [string, string]
    const sum = sums.get(key) ?? 0
    if (sum !== balance) problems.push({ punterId: Number(punterId), account, reason: `stored balance ${money(balance)}; its ledger entries make ${money(sum)}` })
  }
  // a punter's balances first, then what is derived from them
  problems.push(...derived)
  if (problems.length === 0) return { ok: true, punters: punters.length, accounts: sums.size, entries: entries.length }
  const first = problems.sort((a, b) => a.punterId - b.punterId)[0]!
  const accountNumber = punters.find((p) => p.id === first.punterId)?.account_number ?? '?'
  return { ok: false, ...first, accountNumber, entries: entries.length }
}

/** One line for a person: the summary, or the first disagreement. */
export function describeVerification(result: LedgerVerification): string {
  if (result.ok) return `ledger agrees: ${result.punters} punters, ${result.accounts} accounts recomputed from ${result.entries} entries`
  return `ledger DISAGREES: punter #${result.punterId} (account number ${result.accountNumber}), account ${result.account}: ${result.reason}`
}
