/** The review diff reads quiz and loyalty-campaign changes in the operators' words (issue 15 item 5). */
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { diffDocumentSets, type DocumentSnapshot } from '../../../tools/schema-lint/diff/differ'

const schemas = resolve(import.meta.dirname, '..', '..', '..', 'schemas')
const load = (file: string) => JSON.parse(readFileSync(resolve(schemas, file), 'utf8')) as Record<string, any>
const snapshot = (file: string, source: Record<string, unknown>): DocumentSnapshot => ({ kind: String(source.kind), id: String(source.id), jurisdiction: '', file, source })
const messages = (file: string, change: (doc: Record<string, any>) => void) => {
  const before = load(file)
  const after = structuredClone(before)
  change(after)
  return diffDocumentSets([snapshot(file, before)], [snapshot(file, after)])
}

describe('quiz diff wording', () => {
  it('a prize raised reads "prize changed from 50 to 500 EUR", a money-and-bonus warning', () => {
    const [finding] = messages('quizzes/derby-winner.json', (q) => {
      q.awards[2].prize = 500
    })
    expect(finding).toMatchObject({ message: 'quiz derby-winner: award third: prize changed from 50 to 500 EUR', impact: 'money-bonus', severity: 'warning', rule: 'award.prize.changed' })
  })

  it('an end time brought forward reads "quiz end moved earlier"', () => {
    const [finding] = messages('quizzes/derby-winner.json', (q) => {
      q.endTime = '2027-06-01T18:00:00Z'
    })
    expect(finding!.message).toBe('quiz derby-winner: quiz end moved earlier (2027-06-30T18:00:00Z → 2027-06-01T18:00:00Z)')
  })

  it('the right answer and the status changes are named as such', () => {
    const found = messages('quizzes/derby-winner.json', (q) => {
      q.correctAnswer = 'draw'
      q.status = 'PAUSE'
    }).map((f) => f.message)
    expect(found).toEqual(expect.arrayContaining(['quiz derby-winner: right answer changed from home to draw', 'quiz derby-winner: quiz status PUBLISHED → PAUSE']))
  })
})

describe('loyalty campaign diff wording', () => {
  it('a cheaper prize and a later end read in words', () => {
    const found = messages('loyalty/season-race.json', (c) => {
      c.prizes[2].points = 8000
      c.endTime = '2028-01-31T23:59:59Z'
    })
    expect(found.map((f) => f.message)).toEqual(
      expect.arrayContaining(['loyalty-campaign season-race: prize jersey now costs 8000 points instead of 10000', 'loyalty-campaign season-race: campaign end moved later (2027-12-31T23:59:59Z → 2028-01-31T23:59:59Z)']),
    )
    expect(found.every((f) => f.impact === 'money-bonus')).toBe(true)
  })
})
