/**
 * The secret question (spec §3 "Security question types", §5 "the answer must not contain the
 * birthday", §8 SQ_* codes). A punter has at most one; the answer is kept as an argon2id hash of
 * its normalised form (case, spacing and Unicode form do not matter). Five wrong answers in a row
 * block answering for an hour (SQ_ATTEMPTS_LIMIT_EXCEEDED, then SQ_VERIFICATION_BLOCKED).
 */
import type { DataLayer } from '../db/data-layer'
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
  if (length < SECRET_ANSWER.min) return [{ field: 'answer', code: 'minLength', limit: SECRET_ANSWER.min }]
  if (length > SECRET_ANSWER.max) return [{ field: 'answer', code: 'maxLength', limit: SECRET_ANSWER.max }]
  if (punter.birthDay && answerContainsBirthday(answer, punter.birthDay)) return [{ field: 'answer', code: 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY' }]
  return []
}

export async function secretQuestionOf(data: DataLayer, punterId: number): Promise<SecretQuestionType | null> {
  const row = await data.db.selectFrom('credential_secret_questions').select('question_type').where('punter_id', '=', punterId).executeTakeFirst()
  return (row?.question_type as SecretQuestionType | undefined) ?? null
}

export async function saveSecretQuestion(data: DataLayer, punterId: number, type: SecretQuestionType, answer: string, now: number): Promise<void> {
  const hash = await hashPassword(normaliseAnswer(answer))
  await data.db
    .insertInto('credential_secret_questions')
    .values({ punter_id: punterId, question_type: type, answer_hash: hash, failed_answers: 0, blocked_until: null, updated_at: now })
    .onConflict((oc) => oc.column('punter_id').doUpdateSet({ question_type: type, answer_hash: hash, failed_answers: 0, blocked_until: null, updated_at: now }))
    .execute()
}

export type AnswerCheck = { ok: true } | { ok: false; code: 'SQ_NOT_FOUND' | 'SQ_ANSWER_NOT_MATCH' | 'SQ_ATTEMPTS_LIMIT_EXCEEDED' | 'SQ_VERIFICATION_BLOCKED' }

type Counted = { ok: true; answerHash: string; failures: number } | { ok: false; code: 'SQ_NOT_FOUND' | 'SQ_VERIFICATION_BLOCKED' }

/** Counts one answer before it is compared (one transaction per punter across instances); a block that has ended starts the count again. */
function countAnswer(data: DataLayer, punterId: number, now: number): Promise<Counted> {
  return data.transaction(
    async (tx): Promise<Counted> => {
      const row = await tx.selectFrom('credential_secret_questions').select(['answer_hash', 'failed_answers', 'blocked_until']).where('punter_id', '=', punterId).executeTakeFirst()
      if (!row) return { ok: false, code: 'SQ_NOT_FOUND' }
      if (row.blocked_until !== null && row.blocked_until > now) return { ok: false, code: 'SQ_VERIFICATION_BLOCKED' }
      const blockEnded = row.blocked_until !== null && row.blocked_until <= now
      const failures = blockEnded ? 1 : row.failed_answers + 1
      await tx.updateTable('credential_secret_questions').set({ failed_answers: failures, blocked_until: blockEnded ? null : row.blocked_until }).where('punter_id', '=', punterId).execute()
      return { ok: true, answerHash: row.answer_hash, failures }
    },
    { serialiseOn: `secret-question:${punterId}` },
  )
}

/** Checks an answer; the failure is counted before the (slow) comparison, so parallel guesses share the budget. */
export async function checkAnswer({ db, data }: { db: Db; data: DataLayer }, punterId: number, answer: string, now: number): Promise<AnswerCheck> {
  const counted = await countAnswer(data, punterId, now)
  if (!counted.ok) return counted
  if (counted.failures > SECRET_ANSWER.failuresBeforeBlock) return { ok: false, code: 'SQ_VERIFICATION_BLOCKED' }
  const matches = await passwordHasherFor(db).verify(counted.answerHash, normaliseAnswer(answer))
  if (matches) {
    await data.db.updateTable('credential_secret_questions').set({ failed_answers: 0, blocked_until: null }).where('punter_id', '=', punterId).execute()
    return { ok: true }
  }
  if (counted.failures >= SECRET_ANSWER.failuresBeforeBlock) {
    await data.db.updateTable('credential_secret_questions').set({ blocked_until: now + SECRET_ANSWER.blockMs }).where('punter_id', '=', punterId).execute()
    return { ok: false, code: 'SQ_ATTEMPTS_LIMIT_EXCEEDED' }
  }
  return { ok: false, code: 'SQ_ANSWER_NOT_MATCH' }
}
