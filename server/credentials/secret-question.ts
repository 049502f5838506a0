/**
 * The secret question (spec §3 "Security question types", §5 "the answer must not contain the
 * birthday", §8 SQ_* codes). A punter has at most one; the answer is kept as an argon2id hash of
 * its normalised form (case, spacing and Unicode form do not matter). Five wrong answers in a row
 * block answering for an hour (SQ_ATTEMPTS_LIMIT_EXCEEDED, then SQ_VERIFICATION_BLOCKED).
 */
import type { Db } from '../db/database'
import type { FieldError } from '../http/validate'
import { hashPassword, passwordHasherFor } from '../punters/password'
import type { Punter } from '../punters/repository'
import { answerContainsBirthday } from '../signup/rules'

/** The 14 types of spec §3, in its order. */
export const SECRET_QUESTION_TYPES = [
  'DigitalCode',
  'FathersName',
  'FavouriteArtist',
  'FavouriteColour',
  'FavouriteSportsPerson',
  'FavouriteSportsTeam',
  'FirstPetName',
  'LastDriverLicenceNumberDigits',
  'MemorableWord',
  'MotherName',
  'NameOfFirstTeacher',
  'NearestSiblingBirthDate',
  'SchoolName',
  'WhereBorn',
] as const
export type SecretQuestionType = (typeof SECRET_QUESTION_TYPES)[number]

export const SECRET_ANSWER = { min: 2, max: 60, failuresBeforeBlock: 5, blockMs: 3_600_000 } as const

const normaliseAnswer = (answer: string) => answer.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase()

export function answerErrors(answer: string, punter: Pick<Punter, 'birthDay'>): FieldError[] {
  const length = [...answer.trim()].length
  if (length < SECRET_ANSWER.min) return [{ field: 'answer', code: 'minLength' }]
  if (length > SECRET_ANSWER.max) return [{ field: 'answer', code: 'maxLength' }]
  if (punter.birthDay && answerContainsBirthday(answer, punter.birthDay)) return [{ field: 'answer', code: 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY' }]
  return []
}

export function secretQuestionOf(db: Db, punterId: number): SecretQuestionType | null {
  const row = db.prepare('SELECT question_type FROM credential_secret_questions WHERE punter_id = ?').get(punterId) as { question_type: SecretQuestionType } | undefined
  return row?.question_type ?? null
}

export async function saveSecretQuestion(db: Db, punterId: number, type: SecretQuestionType, answer: string, now: number): Promise<void> {
  const hash = await hashPassword(normaliseAnswer(answer))
  db.prepare(
    `INSERT INTO credential_secret_questions (punter_id, question_type, answer_hash, failed_answers, blocked_until, updated_at) VALUES (?, ?, ?, 0, NULL, ?)
     ON CONFLICT(punter_id) DO UPDATE SET question_type = excluded.question_type, answer_hash = excluded.answer_hash, failed_answers = 0, blocked_until = NULL, updated_at = excluded.updated_at`,
  ).run(punterId, type, hash, now)
}

export type AnswerCheck = { ok: true } | { ok: false; code: 'SQ_NOT_FOUND' | 'SQ_ANSWER_NOT_MATCH' | 'SQ_ATTEMPTS_LIMIT_EXCEEDED' | 'SQ_VERIFICATION_BLOCKED' }

/** Checks an answer; the failure is counted before the (slow) comparison, so parallel guesses share the budget. */
export async function checkAnswer(db: Db, punterId: number, answer: string, now: number): Promise<AnswerCheck> {
  const row = db.prepare('SELECT answer_hash, failed_answers, blocked_until FROM credential_secret_questions WHERE punter_id = ?').get(punterId) as
    | { answer_hash: string; failed_answers: number; blocked_until: number | null }
    | undefined
  if (!row) return { ok: false, code: 'SQ_NOT_FOUND' }
  if (row.blocked_until !== null && row.blocked_until > now) return { ok: false, code: 'SQ_VERIFICATION_BLOCKED' }
  const failures = db
    .prepare(
      `UPDATE credential_secret_questions SET failed_answers = CASE WHEN blocked_until IS NOT NULL AND blocked_until <= ? THEN 1 ELSE failed_answers + 1 END,
         blocked_until = CASE WHEN blocked_until IS NOT NULL AND blocked_until <= ? THEN NULL ELSE blocked_until END
       WHERE punter_id = ? RETURNING failed_answers`,
    )
    .get(now, now, punterId) as { failed_answers: number }
  if (failures.failed_answers > SECRET_ANSWER.failuresBeforeBlock) return { ok: false, code: 'SQ_VERIFICATION_BLOCKED' }
  const matches = await passwordHasherFor(db).verify(row.answer_hash, normaliseAnswer(answer))
  if (matches) {
    db.prepare('UPDATE credential_secret_questions SET failed_answers = 0, blocked_until = NULL WHERE punter_id = ?').run(punterId)
    return { ok: true }
  }
  if (failures.failed_answers >= SECRET_ANSWER.failuresBeforeBlock) {
    db.prepare('UPDATE credential_secret_questions SET blocked_until = ? WHERE punter_id = ?').run(now + SECRET_ANSWER.blockMs, punterId)
    return { ok: false, code: 'SQ_ATTEMPTS_LIMIT_EXCEEDED' }
  }
  return { ok: false, code: 'SQ_ANSWER_NOT_MATCH' }
}
