/**
 * The bet slip's quick stakes (issue 31 item 1): a document may name them (the betslip node's
 * `stakes`); otherwise they come from the jurisdiction's stake bounds (`betting.stake`, major
 * units of the punter's currency): the four smallest of 5, 10, 25, 50, 100, 250 … (×10 each
 * step of three) that are at least ten times the minimum stake and at most the maximum. So a
 * 0.10 minimum gives 5, 10, 25, 50, a 1.00 minimum 10, 25, 50, 100, and a 10-rouble minimum
 * 100, 250, 500, 1000.
 */

const STEPS = [5, 10, 25]
const COUNT = 4

/** The slip's quick stakes: the document's when it names any, else from the bounds; [] without either. */
export function quickStakes(bounds: { minimum: number; maximum: number } | undefined, fromDocument?: readonly number[]): number[] {
  if (fromDocument && fromDocument.length > 0) return [...fromDocument]
  if (!bounds || !(bounds.minimum > 0) || !(bounds.maximum >= bounds.minimum)) return []
  const floor = bounds.minimum * 10
  const stakes: number[] = []
  for (let scale = 1; stakes.length < COUNT && scale <= 1e12; scale *= 10)
    for (const step of STEPS) {
      const amount = step * scale
      if (amount >= floor && amount <= bounds.maximum && stakes.length < COUNT) stakes.push(amount)
    }
  return stakes
}
