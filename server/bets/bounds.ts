/**
 * The money bounds of bets and casino rounds, read from the punter's jurisdiction document
 * (`betting`, `games`: docs/money-rules.md) in minor units of the punter's currency, and the one
 * stake check both use: the stake the punter sent, read exactly (kernel/core/money.ts), inside
 * the jurisdiction's range, or the refusal with its code and the limit in major units.
 *
 * The request is already bound to the punter's own site by the session check
 * (docs/adr/0001-punter-jurisdiction-is-the-accounts.md), so `jurisdictionOf` is the account's.
 */
import type { Request } from 'express'
import { limitToMinor, toMajor, toMinor } from '../../kernel/core/money'
import type { ServerDeps } from '../deps'
import { jurisdictionOf } from '../dictionary'

export interface StakeBounds {
  minimumMinor: number
  maximumMinor: number
}

export interface BetBounds {
  stake: StakeBounds
  /** The most one bet may pay (its potential win, the stake included). */
  maximumPayoutMinor: number
  /** The most the potential wins of the punter's bets placed in any 24 hours may add up to. */
  maximumDailyPayoutMinor: number
}

/** The rolling window of the daily payout limit. */
export const PAYOUT_DAY_MS = 86_400_000

interface MoneyBlocks {
  betting?: { stake?: { minimum: number; maximum: number }; maximumPayout?: number; maximumDailyPayout?: number }
  games?: { stake?: { minimum: number; maximum: number } }
}

const stakeOf = (range: { minimum: number; maximum: number } | undefined, currency: string): StakeBounds => ({
  // the schema requires every bound; a document without one offers nothing rather than everything
  minimumMinor: range ? limitToMinor(range.minimum, currency) : 1,
  maximumMinor: range ? limitToMinor(range.maximum, currency) : 0,
})

export function betBoundsFor(deps: Pick<ServerDeps, 'documents'>, req: Request, currency: string): BetBounds {
  const betting = (jurisdictionOf(deps, req) as unknown as MoneyBlocks | undefined)?.betting
  return {
    stake: stakeOf(betting?.stake, currency),
    maximumPayoutMinor: betting?.maximumPayout === undefined ? 0 : limitToMinor(betting.maximumPayout, currency),
    maximumDailyPayoutMinor: betting?.maximumDailyPayout === undefined ? 0 : limitToMinor(betting.maximumDailyPayout, currency),
  }
}

export function gameStakeBoundsFor(deps: Pick<ServerDeps, 'documents'>, req: Request, currency: string): StakeBounds {
  return stakeOf((jurisdictionOf(deps, req) as unknown as MoneyBlocks | undefined)?.games?.stake, currency)
}

/** The bounds as a page shows them (major units). */
export const stakeBoundsView = (bounds: StakeBounds, currency: string) => ({ minimum: toMajor(bounds.minimumMinor, currency), maximum: toMajor(bounds.maximumMinor, currency) })

export type Refusal = { ok: false; httpStatus: number; code: string; payload: Record<string, unknown> }
export type StakeCheck = { ok: true; stakeMinor: number } | Refusal

/** The stake the punter sent, in minor units exactly and inside the bounds; or why not. */
export function checkStake(stake: unknown, currency: string, bounds: StakeBounds): StakeCheck {
  const read = toMinor(stake, currency)
  if (!read.ok) return { ok: false, httpStatus: 400, code: 'ValidationError', payload: { field: 'stake', code: read.code } }
  if (read.minor < bounds.minimumMinor) return { ok: false, httpStatus: 400, code: 'STAKE_TOO_LOW', payload: { limit: toMajor(bounds.minimumMinor, currency), currency } }
  if (read.minor > bounds.maximumMinor) return { ok: false, httpStatus: 400, code: 'STAKE_TOO_HIGH', payload: { limit: toMajor(bounds.maximumMinor, currency), currency } }
  return { ok: true, stakeMinor: read.minor }
}
