/**
 * A game page's stake choices (issue 31 item 8: found on the Russian site, whose 10-rouble game
 * minimum the fixed 0.50–5 choices never reached, so every round was refused). A document may name
 * them (the gamePlay node's `stakes`); those outside the jurisdiction's `games.stake` bounds are
 * dropped. Otherwise they come from the bounds: the four smallest of the 1–2–5 series (…0.5, 1,
 * 2, 5, 10, 20…) that are at least the minimum (and at least 0.50) and at most the maximum. So a
 * 0.10 minimum gives 0.50, 1, 2, 5; a 1-krone minimum 1, 2, 5, 10; a 10-rouble minimum 10, 20,
 * 50, 100. The page starts on the second choice.
 */

const SERIES = [1, 2, 5]
const COUNT = 4
const FLOOR = 0.5

export type StakeBounds = { minimum: number; maximum: number }

const within = (amount: number, bounds: StakeBounds | undefined) => !bounds || (amount >= bounds.minimum && amount <= bounds.maximum)

/** The game's stake choices: the document's within the bounds, else from the bounds; the old fixed four without either. */
export function gameStakes(bounds: StakeBounds | undefined, fromDocument?: readonly number[]): number[] {
  const named = (fromDocument ?? []).filter((amount) => within(amount, bounds))
  if (named.length > 0) return named
  const valid = bounds && bounds.minimum > 0 && bounds.maximum >= bounds.minimum
  const floor = valid ? Math.max(bounds.minimum, FLOOR) : FLOOR
  const stakes: number[] = []
  for (let scale = 0.1; stakes.length < COUNT && scale <= 1e12; scale *= 10)
    for (const step of SERIES) {
      // rounded to the cent: 0.1 × 5 is 0.5000000000000001 in floating point
      const amount = Math.round(step * scale * 100) / 100
      if (amount >= floor && (!valid || amount <= bounds.maximum) && stakes.length < COUNT) stakes.push(amount)
    }
  return stakes
}
