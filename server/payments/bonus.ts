/**
 * Promo codes a logged-in punter types (spec §7 `POST /bonus/punter/promo-code/input {promoCode}`)
 * and the bonus accounts they open (spec §3 bonusInfo: products with bonus, free bets, welcome
 * bonus money, per-product bonus accounts with current step and turnover).
 *
 * The codes and their rewards are policy in the jurisdiction document (`bonus.promoCodes`,
 * server-only: a list of valid codes is never served). A code counts once per punter (unique
 * row), and its bonus money goes through the ledger like any other balance change (a bonus
 * account per product: server/punters/bonuses.ts).
 */
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import { bonusAccountsView, grantBonus } from '../punters/bonuses'
import { announceBalance } from '../punters/events'
import { punterLock, type BonusAccountView, type Punter, type PunterProfile } from '../punters/repository'

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
  /** Days the bonus stays open if not wagered by then (its money is then forfeited); none: no end. */
  expiresAfterDays?: number
}

export interface PromoCodePolicy {
  code: string
  countries?: string[]
  reward: PromoReward
}

/** What the promo answer shows: the offers' bonus info and the punter's open bonus accounts. */
export type BonusInfo = NonNullable<PunterProfile['bonus']> & { bonusAccounts: BonusAccountView[] }

export type PromoAnswer = { ok: true; reward: PromoReward; bonus: BonusInfo } | { ok: false; code: 'INVALID_PROMO_CODE' | 'PROMO_CODE_ALREADY_USED' }

/** Finds the code (case and spaces ignored) and checks the punter's country. */
export function findPromoCode(codes: PromoCodePolicy[], promoCode: string, countryCode: string | undefined): PromoCodePolicy | undefined {
  const wanted = promoCode.trim().toUpperCase()
  const found = codes.find((c) => typeof c.code === 'string' && c.code.toUpperCase() === wanted && c.reward && typeof c.reward.product === 'string')
  if (!found) return undefined
  if (found.countries && (!countryCode || !found.countries.includes(countryCode))) return undefined
  return found
}

const DAY_MS = 86_400_000

/**
 * Applies a code's reward, once per punter and code, in one transaction serialised on the punter:
 * the use (its primary key counts the code once across instances), the offers' bonus info in the
 * profile (products with a bonus, free bets), and the bonus money granted through the ledger onto
 * the product's bonus account (server/punters/bonuses.ts; reference `promo:<punter>:<CODE>`).
 */
export async function redeemPromoCode(data: DataLayer, punter: Punter, promo: PromoCodePolicy, now: number): Promise<PromoAnswer> {
  const code = promo.code.toUpperCase()
  const answer = await data.transaction(
    async (tx): Promise<PromoAnswer> => {
      const used = await tx.insertInto('promo_code_uses').values({ punter_id: punter.id, code, created_at: now }).onConflict((c) => c.columns(['punter_id', 'code']).doNothing()).returning('code').executeTakeFirst()
      if (!used) return { ok: false, code: 'PROMO_CODE_ALREADY_USED' }
      const row = await tx.selectFrom('punters').select('profile').where('id', '=', punter.id).executeTakeFirstOrThrow()
      const profile = JSON.parse(row.profile || '{}') as PunterProfile
      const bonus = withReward(profile.bonus, promo.reward)
      await tx.updateTable('punters').set({ profile: JSON.stringify({ ...profile, bonus }), updated_at: now }).where('id', '=', punter.id).execute()
      const { product, bonusMoney = 0, turnoverMultiplier = 0, expiresAfterDays } = promo.reward
      const amountMinor = Math.round(bonusMoney * 100)
      if (amountMinor > 0) {
        const expiresAt = typeof expiresAfterDays === 'number' && expiresAfterDays > 0 ? now + expiresAfterDays * DAY_MS : null
        await grantBonus(tx, { punterId: punter.id, product, amountMinor, turnoverMultiplier, expiresAt, reference: `promo:${punter.id}:${code}`, now })
      }
      return { ok: true, reward: promo.reward, bonus: { ...bonus, bonusAccounts: [] } }
    },
    { serialiseOn: punterLock(punter.id) },
  )
  if (!answer.ok) return answer
  await announceBalance(data.db, punter.id) // a bonus with no wagering to do is real money at once
  return { ...answer, bonus: { ...answer.bonus, bonusAccounts: await bonusAccountsView(data, punter.id, now) } }
}

/** The offers' bonus info after a reward: the product listed, free bets added. */
function withReward(current: PunterProfile['bonus'], reward: PromoReward): NonNullable<PunterProfile['bonus']> {
  const bonus = { productsWithBonus: [] as string[], freeBetCount: 0, welcomeBonusMoney: 0, ...(current ?? {}) }
  if (!bonus.productsWithBonus.includes(reward.product)) bonus.productsWithBonus = [...bonus.productsWithBonus, reward.product]
  bonus.freeBetCount += reward.freeBets ?? 0
  return bonus
}

/** The promo codes the punter has used (upper case): for the promotions the punter takes part in (server/promotions). */
export async function promoCodesUsedBy(data: DataLayer, punterId: number): Promise<Set<string>> {
  const rows = await data.db.selectFrom('promo_code_uses').select('code').where('punter_id', '=', punterId).execute()
  return new Set(rows.map((r) => r.code))
}
