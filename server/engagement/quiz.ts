/**
 * The quiz (spec §3 quizInfo, §4 statuses, §7 calls): quizzes are operator documents (kind `quiz`,
 * schemas/quizzes/), so a question, its answers, its awards and its schedule go through review
 * like any other change. This file holds the rules that do not depend on HTTP: the status a quiz
 * counts as now, the award shown, and the punter's one answer per quiz.
 */
import type { Kysely } from 'kysely'
import type { QUIZ_STATUSES } from '../../kernel/documents/kinds'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'

// On the query layer (issue 16): one copy of the queries for SQLite and PostgreSQL. The raw-SQL
// migration below is the history of existing SQLite files; the schema step is the table on both
// engines (no foreign key to punters: that store may live in another database while the stores move).

export const sqliteEngagement701QuizAnswers = sqliteHistory(
  'engagement-701-quiz-answers',
  `CREATE TABLE quiz_answers (
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     quiz_id TEXT NOT NULL,
     answer_id TEXT NOT NULL,
     correct INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (punter_id, quiz_id)
   );`,
)

interface QuizAnswerTable {
  punter_id: number
  quiz_id: string
  answer_id: string
  /** 1 when the answer was the right one (an integer on both engines). */
  correct: number
  created_at: number
}

declare module '../db/tables' {
  interface Tables {
    quiz_answers: QuizAnswerTable
  }
}

export const q050QuizAnswers = schemaStep('q050-quiz-answers', async (db) => {
  await db.schema
    .createTable('quiz_answers')
    .ifNotExists()
    .addColumn('punter_id', 'integer', (c) => c.notNull())
    .addColumn('quiz_id', 'text', (c) => c.notNull())
    .addColumn('answer_id', 'text', (c) => c.notNull())
    .addColumn('correct', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('quiz_answers_pkey', ['punter_id', 'quiz_id'])
    .execute()
})

export type QuizStatus = (typeof QUIZ_STATUSES)[number]

export interface QuizAward {
  id: string
  prize: number
  awardCurrencyCode: string
}

export interface QuizDocument {
  id: string
  status: QuizStatus
  title: string
  question: string
  answers: { id: string; text: string }[]
  correctAnswer: string
  startTime: string
  endTime: string
  eventId: string
  awards: QuizAward[]
  personalDataPath?: string
}

/**
 * Statuses after the quiz's event is settled (spec §4): only then is an answer judged. Before
 * (PUBLISHED, IN_PLAY, PAUSE, CONFIRMATION_REQUIRED) it is pending, whatever it is (issue 31: an
 * answer was judged wrong before its match was played); a CANCELED quiz voids it.
 */
const SETTLED: ReadonlySet<QuizStatus> = new Set(['DONE', 'PLAYED', 'COMPLETED'])

export type AnswerResult = 'pending' | 'right' | 'wrong' | 'void'

/** What an answer counts as now. */
export function answerResult(quiz: Pick<QuizDocument, 'status' | 'endTime'>, answer: Pick<StoredAnswer, 'correct'>, now: number): AnswerResult {
  const status = statusAt(quiz, now)
  if (status === 'CANCELED') return 'void'
  if (!SETTLED.has(status)) return 'pending'
  return answer.correct ? 'right' : 'wrong'
}

/** Quizzes a punter no longer sees in the active list. */
const GONE: ReadonlySet<QuizStatus> = new Set(['CANCELED', 'COMPLETED'])

/** Spec §4: a PUBLISHED quiz whose end time has passed is treated as IN_PLAY. */
export function statusAt(quiz: Pick<QuizDocument, 'status' | 'endTime'>, now: number): QuizStatus {
  return quiz.status === 'PUBLISHED' && Date.parse(quiz.endTime) <= now ? 'IN_PLAY' : quiz.status
}

/** A quiz takes answers only while it is PUBLISHED (by the clock) and has started. */
export function takesAnswers(quiz: QuizDocument, now: number): boolean {
  return statusAt(quiz, now) === 'PUBLISHED' && Date.parse(quiz.startTime) <= now
}

/** Shown in the active list: started, and neither cancelled nor completed. */
export function isActive(quiz: QuizDocument, now: number): boolean {
  return Date.parse(quiz.startTime) <= now && !GONE.has(statusAt(quiz, now))
}

/** Spec §9: the award with the highest prize is shown, in the award's own currency. */
export function topAward(awards: QuizAward[]): QuizAward | undefined {
  return awards.reduce<QuizAward | undefined>((best, award) => (best === undefined || award.prize > best.prize ? award : best), undefined)
}

/** The tree id of an event is the number in its id (server/feed/model.ts): e493817042 → 493817042. */
export function treeIdOf(eventId: string): number | undefined {
  const match = /^e([0-9]{1,12})$/.exec(eventId)
  return match ? Number(match[1]) : undefined
}

export interface StoredAnswer {
  quizId: string
  answerId: string
  correct: boolean
}

export async function answersOf(db: Kysely<Tables>, punterId: number): Promise<Map<string, StoredAnswer>> {
  const rows = await db.selectFrom('quiz_answers').select(['quiz_id', 'answer_id', 'correct']).where('punter_id', '=', punterId).execute()
  return new Map(rows.map((r) => [r.quiz_id, { quizId: r.quiz_id, answerId: r.answer_id, correct: r.correct === 1 }]))
}

/**
 * Records the punter's one answer to a quiz; false when the punter answered it before. The primary
 * key decides, so two answers sent at once (to one instance or two) count once.
 */
export async function recordAnswer(db: Kysely<Tables>, punterId: number, quiz: QuizDocument, answerId: string, now: number): Promise<{ recorded: boolean; correct: boolean }> {
  const correct = quiz.correctAnswer === answerId
  const result = await db
    .insertInto('quiz_answers')
    .values({ punter_id: punterId, quiz_id: quiz.id, answer_id: answerId, correct: correct ? 1 : 0, created_at: now })
    .onConflict((oc) => oc.columns(['punter_id', 'quiz_id']).doNothing())
    .executeTakeFirst()
  return { recorded: Number(result.numInsertedOrUpdatedRows ?? 0) > 0, correct }
}

/** What a punter sees of a quiz: never the right answer; texts in the punter's language (`say`). */
export function quizInfo(quiz: QuizDocument, now: number, answer: StoredAnswer | undefined, say: (key: string) => string = (key) => key) {
  const status = statusAt(quiz, now)
  return {
    id: quiz.id,
    eventId: quiz.eventId,
    treeId: treeIdOf(quiz.eventId) ?? null,
    status,
    title: quiz.title,
    titleText: say(quiz.title),
    question: quiz.question,
    questionText: say(quiz.question),
    answers: quiz.answers.map((a) => ({ ...a, label: say(a.text), quizId: quiz.id })),
    startTime: quiz.startTime,
    endTime: quiz.endTime,
    awards: quiz.awards,
    topAward: topAward(quiz.awards) ?? null,
    canAnswer: answer === undefined && takesAnswers(quiz, now),
    answered: answer ? { answerId: answer.answerId, result: answerResult(quiz, answer, now) } : null,
  }
}
