/**
 * Bonus accounts through the ledger (issue 28 item 4; docs/adr/0003-real-and-bonus-money.md): a
 * grant opens (or tops up) the product's one open bonus account, every stake on the product counts
 * towards its wagering, a bonus whose turnover reaches the required turnover converts into real
 * money, and one past its end is expired (its money forfeited). Each of these is a ledger change
 * with its own unique reference, written inside the caller's transaction, which must hold the
 * punter's lock (./events.ts).
 */
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import type { Tables } from '../db/tables'
import { bonusAccount, REAL, type BonusAccountTable } from './accounts'
import { alreadyApplied, writeLegs } from './ledger'
import { punterLock, type BonusAccountView } from './repository'

export type BonusRow = Selectable<BonusAccountTable>

/** The product's open bonus account, if any. */
export async function openBonus(db: Kysely<Tables>, punterId: number, product: string): Promise<BonusRow | undefined> {
  return db.selectFrom('bonus_accounts').selectAll().where('punter_id', '=', punterId).where('product', '=', product).where('status', '=', 'active').executeTakeFirst()
}

export async function bonusById(db: Kysely<Tables>, id: number): Promise<BonusRow | undefined> {
  return db.selectFrom('bonus_accounts').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Every open bonus account of the punter (the heartbeat's bonusInfo). */
export async function openBonuses(db: Kysely<Tables>, punterId: number): Promise<BonusRow[]> {
  return db.selectFrom('bonus_accounts').selectAll().where('punter_id', '=', punterId).where('status', '=', 'active').orderBy('id').execute()
}

/** Closes an open bonus account, taking its money away: 'expired' (its end passed) or 'forfeited' (given up). */
export async function closeBonus(tx: Transaction<Tables>, bonus: BonusRow, status: 'expired' | 'forfeited', now: number): Promise<void> {
  const reference = `bonus-${status === 'expired' ? 'expiry' : 'forfeit'}:${bonus.id}`
  if (await alreadyApplied(tx, reference)) return
  await tx.updateTable('bonus_accounts').set({ status, closed_at: now }).where('id', '=', bonus.id).where('status', '=', 'active').execute()
  await writeLegs(tx, { punterId: bonus.punter_id, reference, kind: status === 'expired' ? 'bonus-expiry' : 'bonus-forfeit', now }, [{ account: bonusAccount(bonus.id), amountMinor: -Number(bonus.balance_minor) }])
}

/** The product's open bonus account, expired first when its end has passed (then none). */
export async function liveBonus(tx: Transaction<Tables>, punterId: number, product: string, now: number): Promise<BonusRow | undefined> {
  const bonus = await openBonus(tx, punterId, product)
  if (bonus && bonus.expires_at !== null && bonus.expires_at <= now) {
    await closeBonus(tx, bonus, 'expired', now)
    return undefined
  }
  return bonus
}

/** Expires every open bonus account of the punter whose end has passed; answers whether any was. */
export async function expireDueBonuses(tx: Transaction<Tables>, punterId: number, now: number): Promise<boolean> {
  const due = (await openBonuses(tx, punterId)).filter((b) => b.expires_at !== null && b.expires_at <= now)
  for (const bonus of due) await closeBonus(tx, bonus, 'expired', now)
  return due.length > 0
}

/** Converts the bonus into real money once its turnover reaches the required turnover. */
export async function convertIfWagered(tx: Transaction<Tables>, bonusId: number, now: number): Promise<void> {
  const bonus = await bonusById(tx, bonusId)
  if (!bonus || bonus.status !== 'active' || Number(bonus.turnover_minor) < Number(bonus.required_turnover_minor)) return
  const amount = Number(bonus.balance_minor)
  await tx.updateTable('bonus_accounts').set({ status: 'completed', closed_at: now }).where('id', '=', bonus.id).where('status', '=', 'active').execute()
  await writeLegs(tx, { punterId: bonus.punter_id, reference: `bonus-convert:${bonus.id}`, kind: 'bonus-convert', now }, [
    { account: REAL, amountMinor: amount },
    { account: bonusAccount(bonus.id), amountMinor: -amount, part: 'bonus' },
  ])
}

export interface BonusGrant {
  punterId: number
  product: string
  amountMinor: number
  /** Turnover needed to release it, as a multiple of the amount (0: it is real money at once). */
  turnoverMultiplier: number
  /** When the bonus ends if not wagered by then (null: no end). */
  expiresAt: number | null
  /** Unique: the same grant is applied once. */
  reference: string
  now: number
}

/**
 * Puts bonus money on the product's open bonus account (opened now if none; a further grant onto
 * an open one is its next step, with the later of the two ends). Answers the account, or undefined
 * when the reference was applied before.
 */
export async function grantBonus(tx: Transaction<Tables>, grant: BonusGrant): Promise<number | undefined> {
  if (await alreadyApplied(tx, grant.reference)) return undefined
  const required = Math.round(grant.amountMinor * grant.turnoverMultiplier)
  let bonus = await liveBonus(tx, grant.punterId, grant.product, grant.now)
  if (bonus) {
    const expiresAt = bonus.expires_at === null || grant.expiresAt === null ? null : Math.max(bonus.expires_at, grant.expiresAt)
    await tx.updateTable('bonus_accounts').set((eb) => ({ required_turnover_minor: eb('required_turnover_minor', '+', required), current_step: eb('current_step', '+', 1), expires_at: expiresAt })).where('id', '=', bonus!.id).execute()
  } else {
    const row = await tx
      .insertInto('bonus_accounts')
      .values({ punter_id: grant.punterId, product: grant.product, status: 'active', balance_minor: 0, turnover_minor: 0, required_turnover_minor: required, current_step: 1, expires_at: grant.expiresAt, created_at: grant.now, closed_at: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    bonus = (await bonusById(tx, row.id))!
  }
  await writeLegs(tx, { punterId: grant.punterId, reference: grant.reference, kind: 'bonus-grant', now: grant.now }, [{ account: bonusAccount(bonus.id), amountMinor: grant.amountMinor }])
  await convertIfWagered(tx, bonus.id, grant.now)
  return bonus.id
}


const major = (minor: number | string) => Number(minor) / 100

/** The heartbeat's bonus accounts: the open ones, after expiring those whose end has passed (a write only then). */
export async function bonusAccountsView(data: DataLayer, punterId: number, now: number): Promise<BonusAccountView[]> {
  let open = await openBonuses(data.db, punterId)
  if (open.some((b) => b.expires_at !== null && b.expires_at <= now)) {
    await data.transaction((tx) => expireDueBonuses(tx, punterId, now), { serialiseOn: punterLock(punterId) })
    open = await openBonuses(data.db, punterId)
  }
  return open.map((b) => ({ product: b.product, amount: major(b.balance_minor), currentStep: b.current_step, turnover: major(b.turnover_minor), requiredTurnover: major(b.required_turnover_minor), expiresAt: b.expires_at === null ? null : new Date(b.expires_at).toISOString() }))
}
