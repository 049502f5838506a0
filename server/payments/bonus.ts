/**
 * Promo codes a logged-in punter types (spec §7 `POST /bonus/punter/promo-code/input {promoCode}`)
 * and the bonus accounts they open (spec §3 bonusInfo: products with bonus, free bets, welcome
 * bonus money, per-product bonus accounts with current step and turnover).
 *
 * The codes and their rewards are policy in the jurisdiction document (`bonus.promoCodes`,
 * server-only: a list of valid codes is never served). A code counts once per punter (unique
 * row), and its bonus money goes through the ledger like any other balance change.
 */
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import { punterLock, type Punter, type PunterProfile } from '../punters/repository'

export const sqliteMoney605PromoCodeUses = sqliteHistory(
  'money-605-promo-code-uses',
  `CREATE TABLE promo_code_uses (
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     code TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (punter_id, code)
   );`,
)

// On the query layer (issue 16): the migration above stays as the history of SQLite files; this
// step declares the current shape (a no-op where the table exists). The primary key is what makes
// a code count once per punter across instances.
declare module '../db/tables' {
  interface Tables {
    promo_code_uses: { punter_id: number; code: string; created_at: number }
  }
}

export const q071PromoCodeUses = schemaStep('q071-promo-code-uses', async (db) => {
  await db.schema
    .createTable('promo_code_uses')
    .ifNotExists()
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('promo_code_uses_pkey', ['punter_id', 'code'])
    .execute()
})

export interface PromoReward {
  /** The product whose bonus account the reward opens (sport, casino …). */
  product: string
  freeBets?: number
  /** Bonus money (major units) on the product's bonus account. */
  bonusMoney?: number
  /** Turnover needed to release the bonus, as a multiple of the bonus money. */
  turnoverMultiplier?: number
}

export interface PromoCodePolicy {
  code: string
  countries?: string[]
  reward: PromoReward
}

export interface BonusAccount {
  product: string
  /** Bonus money on the account (major units). */
  amount: number
  /** The bonus's current step (1 = just opened). */
  currentStep: number
  /** Turnover played so far and needed, major units. */
  turnover: number
  requiredTurnover: number
}

export type PromoAnswer = { ok: true; reward: PromoReward; bonus: NonNullable<PunterProfile['bonus']> } | { ok: false; code: 'INVALID_PROMO_CODE' | 'PROMO_CODE_ALREADY_USED' }

/** Finds the code (case and spaces ignored) and checks the punter's country. */
export function findPromoCode(codes: PromoCodePolicy[], promoCode: string, countryCode: string | undefined): PromoCodePolicy | undefined {
  const wanted = promoCode.trim().toUpperCase()
  const found = codes.find((c) => typeof c.code === 'string' && c.code.toUpperCase() === wanted && c.reward && typeof c.reward.product === 'string')
  if (!found) return undefined
  if (found.countries && (!countryCode || !found.countries.includes(countryCode))) return undefined
  return found
}

/** Applies a code's reward to the punter's bonus info, once per punter and code: the use and the
 * profile's bonus are written in one transaction serialised on the punter (the profile is read,
 * patched and written back), and the use's primary key counts the code once across instances. */
export async function redeemPromoCode(data: DataLayer, punter: Punter, promo: PromoCodePolicy, now: number): Promise<PromoAnswer> {
  return data.transaction(
    async (tx): Promise<PromoAnswer> => {
      const used = await tx
        .insertInto('promo_code_uses')
        .values({ punter_id: punter.id, code: promo.code.toUpperCase(), created_at: now })
        .onConflict((c) => c.columns(['punter_id', 'code']).doNothing())
        .returning('code')
        .executeTakeFirst()
      if (!used) return { ok: false, code: 'PROMO_CODE_ALREADY_USED' }
      const row = await tx.selectFrom('punters').select('profile').where('id', '=', punter.id).executeTakeFirstOrThrow()
      const profile = JSON.parse(row.profile || '{}') as PunterProfile & { bonus?: { accounts?: BonusAccount[] } }
      const bonus = withReward(profile.bonus, promo.reward)
      await tx.updateTable('punters').set({ profile: JSON.stringify({ ...profile, bonus }), updated_at: now }).where('id', '=', punter.id).execute()
      return { ok: true, reward: promo.reward, bonus }
    },
    { serialiseOn: punterLock(punter.id) },
  )
}

/** The bonus info after a reward: the product listed, free bets added, its bonus account opened or topped up. */
function withReward(current: PunterProfile['bonus'], reward: PromoReward): NonNullable<PunterProfile['bonus']> {
  const bonus = { productsWithBonus: [] as string[], freeBetCount: 0, welcomeBonusMoney: 0, ...(current ?? {}) } as NonNullable<PunterProfile['bonus']> & { accounts?: BonusAccount[] }
  const { product, freeBets = 0, bonusMoney = 0, turnoverMultiplier = 0 } = reward
  if (!bonus.productsWithBonus.includes(product)) bonus.productsWithBonus = [...bonus.productsWithBonus, product]
  bonus.freeBetCount += freeBets
  const accounts = [...(bonus.accounts ?? [])]
  const existing = accounts.findIndex((a) => a.product === product)
  if (bonusMoney > 0) {
    const account: BonusAccount =
      existing >= 0
        ? { ...accounts[existing]!, amount: accounts[existing]!.amount + bonusMoney, requiredTurnover: accounts[existing]!.requiredTurnover + bonusMoney * turnoverMultiplier }
        : { product, amount: bonusMoney, currentStep: 1, turnover: 0, requiredTurnover: bonusMoney * turnoverMultiplier }
    if (existing >= 0) accounts[existing] = account
    else accounts.push(account)
  }
  bonus.accounts = accounts
  return bonus
}

/** The promo codes the punter has used (upper case): for the promotions the punter takes part in (server/promotions). */
export async function promoCodesUsedBy(data: DataLayer, punterId: number): Promise<Set<string>> {
  const rows = await data.db.selectFrom('promo_code_uses').select('code').where('punter_id', '=', punterId).execute()
  return new Set(rows.map((r) => r.code))
}
