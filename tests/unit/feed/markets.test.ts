/**
 * How the demo feed settles a selection by the final score (server/feed/markets.ts, outcome): 1/X/2
 * by who scored more; over/under by the total against the line; both-score yes when both sides
 * scored; handicap 1 when the home score plus the line beats the away score. Each market has
 * exactly one winning selection for every score.
 */
import { describe, expect, it } from 'vitest'
import { outcome } from '../../../server/feed/markets'
import type { FeedMarket, MarketKind } from '../../../server/feed/model'

const market = (kind: MarketKind, line?: number): FeedMarket => ({ id: 'm', eventId: 'e', kind, ...(line === undefined ? {} : { line }), selections: [] })

describe('settlement by the final score', () => {
  it('1X2: the side that scored more wins; a level score is X', () => {
    expect(['1', 'X', '2'].map((code) => outcome(market('main'), code, [2, 1]))).toEqual(['WIN', 'LOSE', 'LOSE'])
    expect(['1', 'X', '2'].map((code) => outcome(market('main'), code, [1, 1]))).toEqual(['LOSE', 'WIN', 'LOSE'])
    expect(['1', 'X', '2'].map((code) => outcome(market('main'), code, [0, 3]))).toEqual(['LOSE', 'LOSE', 'WIN'])
  })

  it('total: over wins when the goals pass the line, under otherwise', () => {
    expect(['over', 'under'].map((code) => outcome(market('total', 2.5), code, [2, 1]))).toEqual(['WIN', 'LOSE'])
    expect(['over', 'under'].map((code) => outcome(market('total', 2.5), code, [1, 1]))).toEqual(['LOSE', 'WIN'])
  })

  it('both score: yes only when each side scored', () => {
    expect(['yes', 'no'].map((code) => outcome(market('both-score'), code, [1, 1]))).toEqual(['WIN', 'LOSE'])
    expect(['yes', 'no'].map((code) => outcome(market('both-score'), code, [3, 0]))).toEqual(['LOSE', 'WIN'])
  })

  it('handicap: the home side wins with the line added to its score', () => {
    expect(['1', '2'].map((code) => outcome(market('handicap', -1.5), code, [2, 0]))).toEqual(['WIN', 'LOSE'])
    expect(['1', '2'].map((code) => outcome(market('handicap', -1.5), code, [2, 1]))).toEqual(['LOSE', 'WIN'])
    expect(['1', '2'].map((code) => outcome(market('handicap', 1.5), code, [0, 1]))).toEqual(['WIN', 'LOSE'])
  })

  it('each market has exactly one winner for every score up to 5–5', () => {
    const codes: [FeedMarket, string[]][] = [[market('main'), ['1', 'X', '2']], [market('total', 3.5), ['over', 'under']], [market('both-score'), ['yes', 'no']], [market('handicap', -0.5), ['1', '2']]]
    for (let home = 0; home <= 5; home++)
      for (let away = 0; away <= 5; away++)
        for (const [m, list] of codes) expect(list.filter((code) => outcome(m, code, [home, away]) === 'WIN')).toHaveLength(1)
  })
})
