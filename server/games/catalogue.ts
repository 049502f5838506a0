/**
 * Which game a punter plays behind a lobby card, and whether it may be offered to him (issue 28
 * item 3): the game document that claims the lobby game (product/gameId) for the punter's own
 * jurisdiction of registration — never the request's site — and its declared return against that
 * jurisdiction's allowed range (kernel/games/offer.ts). Launch and every round ask this.
 */
import type { DocumentService } from '../documents/service'
import type { GameMaths } from '../../kernel/games/maths'
import { gameFor, isReturnAllowed, returnRangeOf, type ReturnRange } from '../../kernel/games/offer'
import { hundredthsOfPercent } from '../../kernel/games/rational'

export interface OfferedGame {
  maths: GameMaths
  /** The declared return to player, in percent: what the game page shows. */
  returnToPlayer: number
  volatility?: string
}

export type Offer =
  | { ok: true; game: OfferedGame }
  | { ok: false; httpStatus: 403 | 404; code: 'GAME_RETURN_NOT_ALLOWED' | 'GAME_NOT_FOUND'; payload?: { returnToPlayer: number; range: ReturnRange | null } }

/** The game a jurisdiction's punters play behind a lobby card, and whether its return is allowed there. */
export function gameBehind(documents: Pick<DocumentService, 'list'>, jurisdiction: string, product: string, gameId: string): { game: OfferedGame; allowed: boolean; range?: ReturnRange } | undefined {
  const record = gameFor(documents.list('game'), jurisdiction, `${product}/${gameId}`)
  if (!record) return undefined
  const maths = record.source as unknown as GameMaths & { volatility?: string }
  const range = returnRangeOf(documents.list('jurisdiction').find((r) => r.id === jurisdiction)?.source)
  return { game: { maths, returnToPlayer: maths.targetReturn, volatility: maths.volatility }, allowed: isReturnAllowed(maths.targetReturn, range), range }
}

/** The game behind a lobby card for a punter registered in `jurisdiction`, if it may be offered to him. */
export function offerFor(documents: Pick<DocumentService, 'list'>, jurisdiction: string, product: string, gameId: string): Offer {
  const behind = gameBehind(documents, jurisdiction, product, gameId)
  if (!behind) return { ok: false, httpStatus: 404, code: 'GAME_NOT_FOUND' }
  const { game, allowed, range } = behind
  if (!allowed) return { ok: false, httpStatus: 403, code: 'GAME_RETURN_NOT_ALLOWED', payload: { returnToPlayer: game.returnToPlayer, range: range ? { minimum: range.minimum, maximum: range.maximum } : null } }
  return { ok: true, game }
}

/** Why a round's automatic cash-out target cannot be played (a ValidationError code), if it cannot:
 * only the crash game has one, with at most 2 decimals, up to the game's maximum multiplier. */
export function cashOutProblem(maths: GameMaths, cashOutAt: number | undefined): 'notAllowed' | 'multipleOf' | 'maximum' | undefined {
  if (cashOutAt === undefined) return undefined
  if (!maths.crash) return 'notAllowed'
  if (hundredthsOfPercent(cashOutAt) === undefined) return 'multipleOf'
  return cashOutAt > maths.crash.maxMultiplier ? 'maximum' : undefined
}

/** What a launch tells the page of the game: its engine, its declared return (shown as regulated
 * sites must), its volatility and, for crash, the highest cash-out target. */
export function launchFigures(game: OfferedGame): { engine: 'slot' | 'crash'; returnToPlayer: number; volatility?: string; maxCashOutAt?: number } {
  return { engine: game.maths.engine, returnToPlayer: game.returnToPlayer, ...(game.volatility ? { volatility: game.volatility } : {}), ...(game.maths.crash ? { maxCashOutAt: game.maths.crash.maxMultiplier } : {}) }
}
