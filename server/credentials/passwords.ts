/**
 * Setting a password in every mode of spec §3 (RECOVERING, CREATING, CHANGING): the sign-up
 * password rules, no personal data in it, and the password-history flag — the last N passwords
 * (the current one included) are refused, N from the jurisdiction document's
 * `credentials.passwordHistory` (0 turns the check off). Hashes are argon2id as at login.
 */
import type { DataLayer } from '../db/data-layer'
import type { Db } from '../db/database'
import type { FieldError } from '../http/validate'
import { hashPassword, passwordHasherFor } from '../punters/password'
import type { Punter } from '../punters/repository'
import { answerContainsBirthday, passwordErrors } from '../signup/rules'

/** The parts of a person a password must not contain (spec call check-password/for-personal-data/join). */
export interface PersonalData {
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  nickname?: string | null
  phoneNumber?: string | null
  birthDay?: string | null
}

const normalise = (text: string) => text.normalize('NFKC').toLowerCase()

/** Names, nickname and the e-mail's local part (3+ characters), the phone's last 6 digits, the birthday in any spelling. */
export function containsPersonalData(password: string, person: PersonalData): boolean {
  const text = normalise(password)
  const words = [person.firstName, person.lastName, person.nickname, person.email?.split('@')[0]]
    .filter((w): w is string => typeof w === 'string')
    .map((w) => normalise(w.trim()))
    .filter((w) => [...w].length >= 3)
  if (words.some((w) => text.includes(w))) return true
  const phoneTail = (person.phoneNumber ?? '').replace(/\D/g, '').slice(-6)
  if (phoneTail.length === 6 && password.replace(/\D/g, '').includes(phoneTail)) return true
  return typeof person.birthDay === 'string' && answerContainsBirthday(password, person.birthDay)
}

export function newPasswordErrors(password: unknown, person: PersonalData, field = 'password'): FieldError[] {
  const rules = passwordErrors(password, field)
  if (rules.length > 0) return rules
  return containsPersonalData(password as string, person) ? [{ field, code: 'PASSWORD_CONTAINS_PERSONAL_DATA' }] : []
}

export const personOf = (punter: Punter): PersonalData => ({
  firstName: punter.firstName,
  lastName: punter.lastName,
  email: punter.email,
  nickname: punter.nickname,
  phoneNumber: punter.phone,
  birthDay: punter.birthDay,
})

/** The last `depth` password hashes of a punter, newest first, the current one included. */
async function recentHashes(data: DataLayer, punter: Punter, depth: number): Promise<string[]> {
  if (depth <= 0) return []
  const older = depth > 1 ? await data.db.selectFrom('credential_password_history').select('password_hash').where('punter_id', '=', punter.id).orderBy('id', 'desc').limit(depth - 1).execute() : []
  return [punter.passwordHash, ...older.map((r) => r.password_hash)]
}

/** Where passwords live: the punter's hash and the history (query layer); `db` only picks the hasher (tests swap in a fast one per database). */
export interface PasswordStores {
  db: Db
  data: DataLayer
}

export type SetPasswordOutcome = { ok: true } | { ok: false; errors: FieldError[] }

/**
 * Checks and stores a new password. The old hash goes into the history (kept to the depth the
 * jurisdiction asks, at most 24), so the next change can refuse it.
 */
export async function setPassword({ db, data }: PasswordStores, punter: Punter, password: string, historyDepth: number, now: number, field = 'password'): Promise<SetPasswordOutcome> {
  const errors = newPasswordErrors(password, personOf(punter), field)
  if (errors.length > 0) return { ok: false, errors }
  const hasher = passwordHasherFor(db)
  for (const hash of await recentHashes(data, punter, historyDepth)) {
    if (await hasher.verify(hash, password)) return { ok: false, errors: [{ field, code: 'PASSWORD_USED_BEFORE' }] }
  }
  const hash = await hashPassword(password)
  // Two stores (recipe step 6): the old hash goes into the history first (a failure after it
  // leaves one extra history row, harmless), the new hash replaces the punter's last.
  await data.transaction(async (tx) => {
    await tx.insertInto('credential_password_history').values({ punter_id: punter.id, password_hash: punter.passwordHash, replaced_at: now }).execute()
    const kept = tx.selectFrom('credential_password_history').select('id').where('punter_id', '=', punter.id).orderBy('id', 'desc').limit(24)
    await tx.deleteFrom('credential_password_history').where('punter_id', '=', punter.id).where('id', 'not in', kept).execute()
  })
  await data.db.updateTable('punters').set({ password_hash: hash, updated_at: now }).where('id', '=', punter.id).execute()
  return { ok: true }
}
