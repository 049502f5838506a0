/**
 * A quiz answer is pending until the quiz's event is settled (issue 31; spec §4 quiz statuses): for
 * every status spec §4 lists, an answer counts as pending before the event is settled (PUBLISHED,
 * IN_PLAY, PAUSE, CONFIRMATION_REQUIRED), right or wrong after (DONE, PLAYED, COMPLETED), and void
 * when the quiz is cancelled. A PUBLISHED quiz past its end counts as IN_PLAY: still pending.
 */
import { describe, expect, it } from 'vitest'
import { QUIZ_STATUSES } from '../../../kernel/documents/kinds'
import { answerResult, quizInfo, type QuizDocument } from '../../../server/engagement/quiz'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const quiz = (status: QuizDocument['status'], endTime = '2026-07-01T00:00:00Z'): QuizDocument => ({
  id: 'q',
  status,
  title: 't',
  question: 'q',
  answers: [
    { id: 'home', text: 'h' },
    { id: 'away', text: 'a' },
  ],
  correctAnswer: 'home',
  startTime: '2026-01-01T00:00:00Z',
  endTime,
  eventId: 'e1',
  awards: [],
})

/** The table of spec §4 statuses, written out here rather than read from the rule. */
const EXPECTED: Record<(typeof QUIZ_STATUSES)[number], { right: string; wrong: string }> = {
  PUBLISHED: { right: 'pending', wrong: 'pending' },
  IN_PLAY: { right: 'pending', wrong: 'pending' },
  PAUSE: { right: 'pending', wrong: 'pending' },
  CONFIRMATION_REQUIRED: { right: 'pending', wrong: 'pending' },
  DONE: { right: 'right', wrong: 'wrong' },
  PLAYED: { right: 'right', wrong: 'wrong' },
  COMPLETED: { right: 'right', wrong: 'wrong' },
  CANCELED: { right: 'void', wrong: 'void' },
}

describe('a quiz answer is pending until the event is settled', () => {
  it.each(QUIZ_STATUSES.map((s) => [s]))('%s', (status) => {
    expect(answerResult(quiz(status), { correct: true }, NOW)).toBe(EXPECTED[status].right)
    expect(answerResult(quiz(status), { correct: false }, NOW)).toBe(EXPECTED[status].wrong)
  })

  it('a PUBLISHED quiz past its end time counts as IN_PLAY: a wrong answer is still pending', () => {
    expect(answerResult(quiz('PUBLISHED', '2026-05-01T00:00:00Z'), { correct: false }, NOW)).toBe('pending')
  })

  it('what the punter is served: the answer with its result, never the right answer', () => {
    const served = quizInfo(quiz('IN_PLAY'), NOW, { quizId: 'q', answerId: 'away', correct: false })
    expect(served.answered).toEqual({ answerId: 'away', result: 'pending' })
    expect(JSON.stringify(served)).not.toContain('correct')
    expect(quizInfo(quiz('DONE'), NOW, { quizId: 'q', answerId: 'away', correct: false }).answered).toEqual({ answerId: 'away', result: 'wrong' })
  })
})
