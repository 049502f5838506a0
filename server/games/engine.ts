/**
 * A round of a casino game, decided here and only here (issue 14 item 6, issue 28 item 3): the
 * game's document (schemas/games/, kind `game`) gives the maths, the same code that computed its
 * declared return plays it (kernel/games), and the random words come from HMAC-SHA256(seed, round
 * id), so a round's outcome recomputes from its id and nothing the page sends can steer it.
 * The seed is PARLAY_GAMES_SEED (a fixed demo seed when unset). Pure functions: no I/O here.
 */
import { createHmac } from 'node:crypto'
import { drawCrash, type CrashMaths } from '../../kernel/games/crash'
import type { Uint32Source } from '../../kernel/games/draw'
import type { GameMaths } from '../../kernel/games/maths'
import { drawSlot, type SlotMaths, type SlotSymbol } from '../../kernel/games/slot'

/**
 * The round's stream of uniform 32-bit words: the 8 words of HMAC-SHA256(seed, roundId), then of
 * HMAC-SHA256(seed, roundId#1), #2 … as far as the round needs (a rejected draw takes another word).
 */
export function roundStream(seed: string, roundId: string): Uint32Source {
  let block = 0
  let words: number[] = []
  let at = 0
  return () => {
    if (at === words.length) {
      const digest = createHmac('sha256', seed).update(block === 0 ? roundId : `${roundId}#${block}`).digest()
      words = Array.from({ length: 8 }, (_, i) => digest.readUInt32BE(i * 4))
      block++
      at = 0
    }
    return words[at++]
  }
}

export interface SlotOutcome {
  game: string
  stops: number[]
  reels: SlotSymbol[]
  multiplier: number
}

export interface CrashOutcome {
  game: string
  crashAt: number
  cashOutAt: number
  won: boolean
}

export interface PlayedRound {
  outcome: SlotOutcome | CrashOutcome
  /** What the round pays, in hundredths of the stake (a whole number: money stays exact). */
  payHundredths: number
}

/** The default cash-out target of a crash round played without one. */
export const DEFAULT_CASH_OUT_HUNDREDTHS = 200

/** One round of the game from the stream; `cashOutHundredths` is the crash game's automatic cash-out target. */
export function playGame(game: GameMaths, next: Uint32Source, cashOutHundredths = DEFAULT_CASH_OUT_HUNDREDTHS): PlayedRound {
  if (game.engine === 'slot') {
    const spin = drawSlot(game.slot as SlotMaths, next)
    return { outcome: { game: game.id, stops: spin.stops, reels: spin.reels, multiplier: spin.multiplier }, payHundredths: spin.multiplier * 100 }
  }
  const round = drawCrash(game.crash as CrashMaths, next)
  const won = cashOutHundredths <= round.crashHundredths
  return {
    outcome: { game: game.id, crashAt: round.crashHundredths / 100, cashOutAt: cashOutHundredths / 100, won },
    payHundredths: won ? cashOutHundredths : 0,
  }
}
