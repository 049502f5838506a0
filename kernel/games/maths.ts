/**
 * A game document's declared return against the exact return of its paytable (issue 28 item 3).
 * The loader runs this on every game document, so a server never starts, and a version is never
 * published, with a game whose declared figure is not what its maths pays (within 0.01 points).
 * For the crash game every cash-out target counts: each one's return must be the declared one.
 */
import type { CrashMaths } from './crash'
import { crashReturn, crashTargets } from './crash'
import { hundredthsOfPercent, lessThan, percentOf, withinHundredth, type Ratio } from './rational'
import { slotFigures, type SlotMaths } from './slot'

export interface GameMaths {
  id: string
  engine: 'slot' | 'crash'
  targetReturn: number
  slot?: SlotMaths
  crash?: CrashMaths
}

export interface ExactReturn {
  /** The lowest and highest exact return over every way to play (one for a slot; every target for crash). */
  lowest: Ratio
  highest: Ratio
  /** Ways of playing whose return is more than 0.01 points from the declared figure (crash targets in hundredths). */
  off: number[]
}

/** The exact return of the game and where it departs from `declared` (hundredths of a percent). */
export function exactReturn(game: GameMaths, declared: number): ExactReturn {
  if (game.engine === 'slot') {
    const exact = slotFigures(game.slot!).exact
    return { lowest: exact, highest: exact, off: withinHundredth(exact, declared) ? [] : [0] }
  }
  let lowest: Ratio | undefined
  let highest: Ratio | undefined
  const off: number[] = []
  for (const target of crashTargets(game.crash!)) {
    const ratio = crashReturn(game.crash!, target)
    if (!lowest || lessThan(ratio, lowest)) lowest = ratio
    if (!highest || lessThan(highest, ratio)) highest = ratio
    if (!withinHundredth(ratio, declared)) off.push(target)
  }
  return { lowest: lowest!, highest: highest!, off }
}

export interface MathsProblem {
  pointer: string
  message: string
}

const shown = (ratio: Ratio) => `${percentOf(ratio).toFixed(4)} %`

/** Why a game document's maths cannot be served, if it cannot. */
export function gameMathsProblems(game: GameMaths): MathsProblem[] {
  const declared = hundredthsOfPercent(game.targetReturn)
  if (declared === undefined) return [{ pointer: '/targetReturn', message: 'the declared return has at most 2 decimals (96.5 or 96.50 for 96.50 %)' }]
  if (game.engine === 'slot') {
    const pays = game.slot!.pays
    const unreachable = pays.findIndex((pay) => pay.line?.some((s, reel) => s !== 'any' && !(game.slot!.reels[reel]?.[s] ?? 0)))
    if (unreachable >= 0) return [{ pointer: `/slot/pays/${unreachable}/line`, message: 'a symbol of this line is not on its reel: the combination can never show' }]
  }
  const exact = exactReturn(game, declared)
  if (exact.off.length === 0) return []
  if (game.engine === 'slot')
    return [{ pointer: '/targetReturn', message: `declares ${game.targetReturn.toFixed(2)} % but the paytable returns exactly ${shown(exact.lowest)} (allowed difference 0.01 points)` }]
  const first = (exact.off[0] / 100).toFixed(2)
  return [
    {
      pointer: '/targetReturn',
      message: `declares ${game.targetReturn.toFixed(2)} % but ${exact.off.length} cash-out targets (the first ×${first}) return otherwise: from ${shown(exact.lowest)} to ${shown(exact.highest)} (allowed difference 0.01 points)`,
    },
  ]
}
