/**
 * The two demo games made here (issue 14 item 6): a three-reel slot and a crash game. Outcomes are
 * decided on the server only, from a seeded generator: HMAC-SHA256(seed, round id), so a round's
 * outcome can be recomputed and audited from its id and nothing the page sends can steer it.
 * The seed is PARLAY_GAMES_SEED (a fixed demo seed when unset). Pure functions: no I/O here.
 */
import { createHmac } from 'node:crypto'

export const SLOT_SYMBOLS = ['cherry', 'lemon', 'bell', 'star', 'seven'] as const
export type SlotSymbol = (typeof SLOT_SYMBOLS)[number]
/** Relative weight of each symbol on a reel (commoner symbols pay less). */
const WEIGHTS: Record<SlotSymbol, number> = { cherry: 8, lemon: 7, bell: 5, star: 3, seven: 1 }
/** Three of a kind pays stake × this; two cherries anywhere pay 2 × stake. */
export const SLOT_PAYS: Record<SlotSymbol, number> = { cherry: 5, lemon: 8, bell: 15, star: 40, seven: 200 }
export const TWO_CHERRIES_PAY = 2

/** Four uniform numbers in [0, 1) for a round: the first 16 bytes of the HMAC, 4 bytes each. */
export function roundNumbers(seed: string, roundId: string): number[] {
  const digest = createHmac('sha256', seed).update(roundId).digest()
  return [0, 4, 8, 12].map((at) => digest.readUInt32BE(at) / 2 ** 32)
}

function symbolAt(r: number): SlotSymbol {
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0)
  let mark = r * total
  for (const symbol of SLOT_SYMBOLS) {
    mark -= WEIGHTS[symbol]
    if (mark < 0) return symbol
  }
  return SLOT_SYMBOLS[0]
}

export interface SlotOutcome {
  reels: [SlotSymbol, SlotSymbol, SlotSymbol]
  multiplier: number
}

export function spinSlot(numbers: number[]): SlotOutcome {
  const reels = [symbolAt(numbers[0]), symbolAt(numbers[1]), symbolAt(numbers[2])] as SlotOutcome['reels']
  if (reels[0] === reels[1] && reels[1] === reels[2]) return { reels, multiplier: SLOT_PAYS[reels[0]] }
  const cherries = reels.filter((s) => s === 'cherry').length
  return { reels, multiplier: cherries === 2 ? TWO_CHERRIES_PAY : 0 }
}

/** The crash point: 1.00 one round in 33 (the house edge), otherwise 0.99 / u, capped at 1000. */
export function crashPoint(numbers: number[]): number {
  const u = numbers[0]
  if (u < 1 / 33) return 1
  return Math.min(1000, Math.max(1, Math.floor((0.99 / (1 - u)) * 100) / 100))
}

export interface CrashOutcome {
  crashAt: number
  cashOutAt: number
  won: boolean
}

/** The punter's auto cash-out wins when the round flies at least that high. */
export function playCrash(numbers: number[], cashOutAt: number): CrashOutcome {
  const crashAt = crashPoint(numbers)
  return { crashAt, cashOutAt, won: cashOutAt <= crashAt }
}
