/**
 * The credentials part's tables and its one-time secrets (spec §3 password flow modes; REFERENCES
 * "SMS/e-mail codes"). Every secret a punter receives (recovery links, SMS codes, password tokens,
 * e-mail confirmation links, authentication and open-profile tokens) is stored only as a SHA-256
 * digest, is single use, expires, and a code allows a bounded number of tries counted atomically
 * before the comparison — so a copy of the database opens nothing and parallel guesses share one
 * budget.
 *
 * An SMS code is digested together with the flow token the browser holds (`recoveryToken`), which
 * the database never sees: six digits are easy to brute-force from a bare hash, not without it.
 */
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'
import { sha256 } from '../auth/sessions'

registerMigration(
  '601-credentials',
  `CREATE TABLE credential_secrets (
     token_sha256 TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     punter_id INTEGER REFERENCES punters(id),
     code_sha256 TEXT,
     attempts_left INTEGER NOT NULL DEFAULT 0,
     detail TEXT NOT NULL DEFAULT '{}',
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX credential_secrets_punter ON credential_secrets(punter_id, kind);
   CREATE TABLE credential_password_history (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     password_hash TEXT NOT NULL,
     replaced_at INTEGER NOT NULL
   );
   CREATE INDEX credential_password_history_punter ON credential_password_history(punter_id, id);
   CREATE TABLE credential_secret_questions (
     punter_id INTEGER PRIMARY KEY REFERENCES punters(id),
     question_type TEXT NOT NULL,
     answer_hash TEXT NOT NULL,
     failed_answers INTEGER NOT NULL DEFAULT 0,
     blocked_until INTEGER,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE credential_requests (
     key TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   CREATE INDEX credential_requests_key ON credential_requests(key, at);
   CREATE TABLE credential_join_forms (
     key_sha256 TEXT PRIMARY KEY,
     jurisdiction TEXT NOT NULL,
     form TEXT NOT NULL,
     saved_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );`,
)

/** What a secret is for; a secret of one kind never passes as another. */
export type SecretKind =
  | 'recovery-code' // the SMS code flow: token = recoveryToken, code digested with it
  | 'password-token' // RECOVERING: an e-mail link, or what a right SMS code is exchanged for
  | 'email-change' // the confirmation link sent to a new e-mail address
  | 'auth-token' // auth/token/obtain → login-by-authentication-token
  | 'open-profile' // POST /punter/open-profile {openToken}

/** Lifetimes and tries (REFERENCES: codes 10 min, 5 tries). Links live longer: mail is slow. */
export const SECRET_RULES = {
  recoveryCodeMs: 10 * 60_000,
  codeAttempts: 5,
  passwordTokenMs: 30 * 60_000,
  emailChangeMs: 24 * 3_600_000,
  authTokenMs: 2 * 60_000,
  openProfileMs: 15 * 60_000,
} as const

export const newToken = () => randomBytes(32).toString('base64url')
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0')
const codeDigest = (token: string, code: string) => sha256(`code:${token}:${code}`)

export interface StoredSecret {
  kind: SecretKind
  punterId: number | null
  attemptsLeft: number
  detail: Record<string, unknown>
  expiresAt: number
}

interface SecretRow {
  kind: SecretKind
  punter_id: number | null
  code_sha256: string | null
  attempts_left: number
  detail: string
  expires_at: number
}

const toSecret = (row: SecretRow): StoredSecret => ({
  kind: row.kind,
  punterId: row.punter_id,
  attemptsLeft: row.attempts_left,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
  expiresAt: row.expires_at,
})

/**
 * Stores a new secret. `supersede` ends the punter's other pending secrets of the same kind (a
 * new recovery request makes the older link or code useless). `punterId` may be null: a decoy
 * for an unknown account behaves like a real one (same tries, same expiry) and matches nothing.
 */
export function storeSecret(
  db: Db,
  input: { kind: SecretKind; punterId: number | null; token: string; code?: string; attempts?: number; detail?: Record<string, unknown>; ttlMs: number; supersede?: boolean },
  now: number,
): void {
  db.transaction(() => {
    db.prepare('DELETE FROM credential_secrets WHERE expires_at <= ?').run(now)
    if (input.supersede && input.punterId !== null) db.prepare('DELETE FROM credential_secrets WHERE punter_id = ? AND kind = ?').run(input.punterId, input.kind)
    db.prepare(
      'INSERT INTO credential_secrets (token_sha256, kind, punter_id, code_sha256, attempts_left, detail, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      sha256(input.token),
      input.kind,
      input.punterId,
      input.code === undefined ? null : codeDigest(input.token, input.code),
      input.attempts ?? 0,
      JSON.stringify(input.detail ?? {}),
      now,
      now + input.ttlMs,
    )
  })()
}

/** A live secret of this kind, left in place (look only). */
export function peekSecret(db: Db, kind: SecretKind, token: string, now: number): StoredSecret | undefined {
  const row = db.prepare('SELECT * FROM credential_secrets WHERE token_sha256 = ? AND kind = ?').get(sha256(token), kind) as SecretRow | undefined
  return row && row.expires_at > now ? toSecret(row) : undefined
}

/** Uses a secret up: deleted whether or not it was still live; the secret if it was. */
export function consumeSecret(db: Db, kind: SecretKind, token: string, now: number): StoredSecret | undefined {
  const row = db.prepare('DELETE FROM credential_secrets WHERE token_sha256 = ? AND kind = ? RETURNING *').get(sha256(token), kind) as SecretRow | undefined
  return row && row.expires_at > now ? toSecret(row) : undefined
}

export function updateSecretDetail(db: Db, kind: SecretKind, token: string, detail: Record<string, unknown>): void {
  db.prepare('UPDATE credential_secrets SET detail = ? WHERE token_sha256 = ? AND kind = ?').run(JSON.stringify(detail), sha256(token), kind)
}

export type CodeCheck = { ok: true; secret: StoredSecret } | { ok: false; code: 'CODE_NO_MATCH_OR_EXPIRED' | 'EXCEEDED_LIMIT' }

/**
 * Checks a code against its flow token. One transaction (better-sqlite3 is synchronous): the try
 * is spent before the comparison, so N parallel guesses spend N tries. A right code uses the
 * secret up; the last wrong one deletes it.
 */
export function checkCode(db: Db, token: string, code: string, now: number): CodeCheck {
  return db.transaction((): CodeCheck => {
    const row = db.prepare("SELECT * FROM credential_secrets WHERE token_sha256 = ? AND kind = 'recovery-code'").get(sha256(token)) as SecretRow | undefined
    if (!row || row.expires_at <= now) return { ok: false, code: 'CODE_NO_MATCH_OR_EXPIRED' }
    if (row.attempts_left <= 0) return { ok: false, code: 'EXCEEDED_LIMIT' }
    db.prepare('UPDATE credential_secrets SET attempts_left = attempts_left - 1 WHERE token_sha256 = ?').run(sha256(token))
    const expected = Buffer.from(row.code_sha256 ?? '', 'hex')
    const given = Buffer.from(codeDigest(token, code), 'hex')
    const matches = row.punter_id !== null && expected.length === given.length && timingSafeEqual(expected, given)
    if (matches) {
      db.prepare('DELETE FROM credential_secrets WHERE token_sha256 = ?').run(sha256(token))
      return { ok: true, secret: toSecret(row) }
    }
    return { ok: false, code: row.attempts_left - 1 <= 0 ? 'EXCEEDED_LIMIT' : 'CODE_NO_MATCH_OR_EXPIRED' }
  })()
}

/** Ends every pending secret of a punter of these kinds (a password set ends every recovery). */
export function dropSecrets(db: Db, punterId: number, kinds: SecretKind[]): void {
  for (const kind of kinds) db.prepare('DELETE FROM credential_secrets WHERE punter_id = ? AND kind = ?').run(punterId, kind)
}
