/**
 * The three-reel slot a game document declares (kind `game`, engine `slot`): the same functions
 * decide a round on the server, enumerate the exact return at document load, and run the
 * benchmark's simulation. A reel is a strip of stops (each symbol repeated its declared number of
 * times, in SLOT_SYMBOLS order); a spin draws one stop per reel, uniformly and exactly
 * (./draw.ts); the pay line shows the three stopped symbols and pays the highest combination it
 * matches, as a whole multiple of the stake.
 */
import { SLOT_SYMBOLS } from '../documents/kinds'
import { uniformBelow, type Uint32Source } from './draw'
import type { Ratio } from './rational'

export type SlotSymbol = (typeof SLOT_SYMBOLS)[number]

export interface SlotPay {
  line?: readonly string[]
  symbol?: string
  count?: number
  pays: number
}

export interface SlotMaths {
  reels: readonly Partial<Record<string, number>>[]
  pays: readonly SlotPay[]
}

export interface SlotSpin {
  /** The stop of each reel (0-based), from which the round recomputes. */
  stops: number[]
  reels: SlotSymbol[]
  /** The win as a multiple of the stake (0 for none). */
  multiplier: number
}

const strips = new WeakMap<SlotMaths, SlotSymbol[][]>()

/** Each reel's strip: stop → symbol. */
export function reelStrips(slot: SlotMaths): SlotSymbol[][] {
  let known = strips.get(slot)
  if (!known) {
    known = slot.reels.map((reel) => SLOT_SYMBOLS.flatMap((symbol) => Array<SlotSymbol>(reel[symbol] ?? 0).fill(symbol)))
    strips.set(slot, known)
  }
  return known
}

function matches(pay: SlotPay, symbols: readonly string[]): boolean {
  if (pay.line) return pay.line.every((wanted, reel) => wanted === 'any' || wanted === symbols[reel])
  return symbols.filter((s) => s === pay.symbol).length >= (pay.count ?? Infinity)
}

/** What a line of symbols pays: the highest matching combination's multiple of the stake, else 0. */
export function slotMultiplier(pays: readonly SlotPay[], symbols: readonly string[]): number {
  let best = 0
  for (const pay of pays) if (pay.pays > best && matches(pay, symbols)) best = pay.pays
  return best
}

/** The spin that stops at these stops. */
export function spinSlot(slot: SlotMaths, stops: readonly number[]): SlotSpin {
  const reels = reelStrips(slot).map((strip, i) => {
    const symbol = strip[stops[i]]
    if (symbol === undefined) throw new RangeError(`reel ${i + 1} has no stop ${stops[i]}`)
    return symbol
  })
  return { stops: [...stops], reels, multiplier: slotMultiplier(slot.pays, reels) }
}

/** A spin drawn from the stream: one uniform stop per reel. */
export function drawSlot(slot: SlotMaths, next: Uint32Source): SlotSpin {
  return spinSlot(
    slot,
    reelStrips(slot).map((strip) => uniformBelow(strip.length, next)),
  )
}

export interface SlotFigures {
  /** The exact return per unit staked. */
  exact: Ratio
  /** Chance that a spin pays anything (a stake back included). */
  hitFrequency: number
  /** Standard deviation of one spin's win, in stakes. */
  standardDeviation: number
  /** The highest multiple any spin pays. */
  maxMultiplier: number
}

/**
 * The exact figures of the slot, enumerating every combination of symbols with its number of
 * stop combinations (the product of the symbols' counts on each reel): the same probabilities as
 * every stop combination one by one (tests do that too), in at most 6^3 steps.
 */
export function slotFigures(slot: SlotMaths): SlotFigures {
  const counts = slot.reels.map((reel) => SLOT_SYMBOLS.map((s) => [s, reel[s] ?? 0] as const).filter(([, n]) => n > 0))
  const total = slot.reels.reduce((product, reel) => product * Object.values(reel).reduce<number>((a, b) => a + (b ?? 0), 0), 1)
  let paid = 0n
  let hits = 0
  let squares = 0
  let maxMultiplier = 0
  for (const [a, na] of counts[0])
    for (const [b, nb] of counts[1])
      for (const [c, nc] of counts[2]) {
        const ways = na * nb * nc
        const multiplier = slotMultiplier(slot.pays, [a, b, c])
        if (multiplier === 0) continue
        paid += BigInt(ways) * BigInt(multiplier)
        hits += ways
        squares += ways * multiplier * multiplier
        maxMultiplier = Math.max(maxMultiplier, multiplier)
      }
  const mean = Number(paid) / total
  return {
    exact: { numerator: paid, denominator: BigInt(total) },
    hitFrequency: hits / total,
    standardDeviation: Math.sqrt(Math.max(0, squares / total - mean * mean)),
    maxMultiplier,
  }
}
