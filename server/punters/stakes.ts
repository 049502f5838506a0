/**
 * How a stake and what it pays back are shared between real money and bonus money (issue 28 item
 * 4; the rules and why: docs/adr/0003-real-and-bonus-money.md):
 *
 * - A stake on a product takes real money first, then the product's open bonus account.
 * - The whole stake counts towards that bonus account's wagering; the real part clears deposit
 *   play-through.
 * - A win (in the same change, a game round) or a later payout of the stake (a bet's win, cash-out
 *   or refund) goes back to the stake's sources in proportion, the bonus share rounded down: the
 *   bonus share of a bonus since converted goes to real money, of one expired or forfeited goes in
 *   and out again (the ledger shows where it went).
 * - A refund (a void or withdrawn bet) also takes back the wagering and play-through the stake had
 *   counted, while the bonus is still open.
 *
 * These functions only plan legs (./ledger.ts); the caller writes them in the punter's transaction.
 */
import type { Transaction } from 'kysely'
import type { Tables } from '../db/tables'
import { bonusAccount, parseAccount, PLAYTHROUGH, REAL, wageringAccount } from './accounts'
import { bonusById, liveBonus } from './bonuses'
import { realBalances, type Leg } from './ledger'

export interface Stake {
  /** The product staked on (bets: 'sport'; games: their product): its bonus account is used. */
  product: string
  stakeMinor: number
}

/** floor(amount × part ÷ whole) without leaving the safe integers on the way. */
const shareOf = (amount: number, part: number, whole: number) => (part <= 0 || whole <= 0 ? 0 : Number((BigInt(amount) * BigInt(part)) / BigInt(whole)))

/**
 * The legs of a stake that pays `winMinor` in the same change (0 for a bet's stake), and the bonus
 * account it wagered on; 'INSUFFICIENT' when real and bonus money together do not cover it.
 */
export async function stakeLegs(tx: Transaction<Tables>, punterId: number, stake: Stake, winMinor: number, now: number): Promise<{ legs: Leg[]; bonusId?: number } | 'INSUFFICIENT'> {
  const { balance: real, playthrough } = await realBalances(tx, punterId)
  const bonus = await liveBonus(tx, punterId, stake.product, now)
  const bonusMoney = bonus ? Number(bonus.balance_minor) : 0
  const total = stake.stakeMinor
  if (total > real + bonusMoney) return 'INSUFFICIENT'
  const realStake = Math.min(real, total)
  const bonusStake = total - realStake
  const bonusWin = shareOf(winMinor, bonusStake, total)
  const legs: Leg[] = [{ account: REAL, amountMinor: winMinor - bonusWin - realStake }]
  if (bonus && bonusStake > 0) legs.push({ account: bonusAccount(bonus.id), amountMinor: bonusWin - bonusStake, part: 'bonus' })
  if (bonus && total > 0) legs.push({ account: wageringAccount(bonus.id), amountMinor: total, part: 'wagering', kind: 'wagering' })
  const cleared = Math.min(playthrough, realStake)
  if (cleared > 0) legs.push({ account: PLAYTHROUGH, amountMinor: -cleared, part: 'playthrough', kind: 'playthrough' })
  return { legs, bonusId: bonus?.id }
}

/**
 * The legs of a payout of an earlier stake (its reference), shared as the stake was. A stake from
 * real money only (or written before bonus money existed) is paid back to real money.
 */
export async function payoutLegs(tx: Transaction<Tables>, payoutMinor: number, stakeReference: string, refund: boolean): Promise<Leg[]> {
  const parts = await tx
    .selectFrom('ledger_entries')
    .select(['reference', 'account', 'amount_minor'])
    .where('reference', 'in', [stakeReference, `${stakeReference}/bonus`, `${stakeReference}/wagering`, `${stakeReference}/playthrough`])
    .execute()
  const part = (suffix: string) => parts.find((p) => p.reference === (suffix ? `${stakeReference}/${suffix}` : stakeReference))
  const realStake = -Number(part('')?.amount_minor ?? 0)
  const bonusEntry = part('bonus')
  const bonusStake = bonusEntry ? -Number(bonusEntry.amount_minor) : 0
  const bonusRef = bonusEntry ? parseAccount(bonusEntry.account) : undefined
  const bonus = bonusRef && bonusRef.kind === 'bonus' ? await bonusById(tx, bonusRef.id) : undefined
  const share = bonus ? shareOf(payoutMinor, bonusStake, realStake + bonusStake) : 0
  const open = bonus?.status === 'active'
  const legs: Leg[] = [{ account: REAL, amountMinor: bonus?.status === 'completed' ? payoutMinor : payoutMinor - share }]
  if (bonus && share > 0 && bonus.status !== 'completed') {
    legs.push({ account: bonusAccount(bonus.id), amountMinor: share, part: 'bonus' })
    if (!open) legs.push({ account: bonusAccount(bonus.id), amountMinor: -share, part: 'bonus-forfeit', kind: 'bonus-forfeit' })
  }
  if (!refund) return legs
  const wagered = part('wagering')
  const wageredOn = wagered ? parseAccount(wagered.account) : undefined
  if (wagered && wageredOn?.kind === 'wagering' && (await bonusById(tx, wageredOn.id))?.status === 'active') legs.push({ account: wagered.account, amountMinor: -Number(wagered.amount_minor), part: 'wagering', kind: 'wagering' })
  const cleared = part('playthrough')
  if (cleared) legs.push({ account: PLAYTHROUGH, amountMinor: -Number(cleared.amount_minor), part: 'playthrough', kind: 'playthrough' })
  return legs
}
