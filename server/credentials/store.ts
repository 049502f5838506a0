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
import { sha256 } from '../auth/sessions'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Generated } from 'kysely'

export const sqlite601Credentials = sqliteHistory(
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

// On the query layer (issue 16): the credentials part's tables (secrets, password history, secret
// questions, join forms) run on SQLite or PostgreSQL. The migration above stays as the history of
// existing SQLite files; this step declares the current shape (a no-op where the tables exist).
// No foreign key to punters on PostgreSQL: these tables moved before the punters store did, when
// the two were in different databases (the SQLite files keep theirs). Adding one now is a schema
// step of its own.
declare module '../db/tables' {
  interface Tables {
    credential_secrets: SecretRow & { token_sha256: string; created_at: number }
    credential_password_history: { id: Generated<number>; punter_id: number; password_hash: string; replaced_at: number }
    credential_secret_questions: { punter_id: number; question_type: string; answer_hash: string; failed_answers: number; blocked_until: number | null; updated_at: number }
    credential_join_forms: { key_sha256: string; jurisdiction: string; form: string; saved_at: number; expires_at: number }
  }
}

export const q020Credentials = schemaStep('q020-credentials', async (db, engine) => {
  await db.schema
    .createTable('credential_secrets')
    .ifNotExists()
    .addColumn('token_sha256', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('punter_id', 'bigint')
    .addColumn('code_sha256', 'text')
    .addColumn('attempts_left', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('credential_secrets_punter').ifNotExists().on('credential_secrets').columns(['punter_id', 'kind']).execute()
  await db.schema
    .createTable('credential_password_history')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('replaced_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('credential_password_history_punter').ifNotExists().on('credential_password_history').columns(['punter_id', 'id']).execute()
  await db.schema
    .createTable('credential_secret_questions')
    .ifNotExists()
    .addColumn('punter_id', 'bigint', (c) => c.primaryKey())
    .addColumn('question_type', 'text', (c) => c.notNull())
    .addColumn('answer_hash', 'text', (c) => c.notNull())
    .addColumn('failed_answers', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('credential_join_forms')
    .ifNotExists()
    .addColumn('key_sha256', 'text', (c) => c.primaryKey())
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('saved_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
})

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
  kind: string
  punter_id: number | null
  code_sha256: string | null
  attempts_left: number
  detail: string
  expires_at: number
}

const toSecret = (row: SecretRow): StoredSecret => ({
  kind: row.kind as SecretKind,
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
export async function storeSecret(
  data: DataLayer,
  input: { kind: SecretKind; punterId: number | null; token: string; code?: string; attempts?: number; detail?: Record<string, unknown>; ttlMs: number; supersede?: boolean },
  now: number,
): Promise<void> {
  const supersedes = input.supersede && input.punterId !== null
  await data.transaction(
    async (tx) => {
      await tx.deleteFrom('credential_secrets').where('expires_at', '<=', now).execute()
      if (supersedes) await tx.deleteFrom('credential_secrets').where('punter_id', '=', input.punterId).where('kind', '=', input.kind).execute()
      await tx
        .insertInto('credential_secrets')
        .values({
          token_sha256: sha256(input.token),
          kind: input.kind,
          punter_id: input.punterId,
          code_sha256: input.code === undefined ? null : codeDigest(input.token, input.code),
          attempts_left: input.attempts ?? 0,
          detail: JSON.stringify(input.detail ?? {}),
          created_at: now,
          expires_at: now + input.ttlMs,
        })
        .execute()
    },
    // two requests of one punter at once on two instances: each supersedes, one secret stays
    supersedes ? { serialiseOn: `credential-secrets:${input.punterId}:${input.kind}` } : {},
  )
}

/** A live secret of this kind, left in place (look only). */
export async function peekSecret(data: DataLayer, kind: SecretKind, token: string, now: number): Promise<StoredSecret | undefined> {
  const row = await data.db.selectFrom('credential_secrets').selectAll().where('token_sha256', '=', sha256(token)).where('kind', '=', kind).executeTakeFirst()
  return row && row.expires_at > now ? toSecret(row) : undefined
}

/** Uses a secret up: deleted whether or not it was still live; the secret if it was (one caller gets it, on any instance). */
export async function consumeSecret(data: DataLayer, kind: SecretKind, token: string, now: number): Promise<StoredSecret | undefined> {
  const row = await data.db.deleteFrom('credential_secrets').where('token_sha256', '=', sha256(token)).where('kind', '=', kind).returningAll().executeTakeFirst()
  return row && row.expires_at > now ? toSecret(row) : undefined
}

export async function updateSecretDetail(data: DataLayer, kind: SecretKind, token: string, detail: Record<string, unknown>): Promise<void> {
  await data.db.updateTable('credential_secrets').set({ detail: JSON.stringify(detail) }).where('token_sha256', '=', sha256(token)).where('kind', '=', kind).execute()
}

export type CodeCheck = { ok: true; secret: StoredSecret } | { ok: false; code: 'CODE_NO_MATCH_OR_EXPIRED' | 'EXCEEDED_LIMIT' }

/**
 * Checks a code against its flow token. One transaction, serialised on the token across
 * instances: the try is spent before the comparison, so N parallel guesses spend N tries. A right
 * code uses the secret up; the last wrong one leaves it with no tries.
 */
export function checkCode(data: DataLayer, token: string, code: string, now: number): Promise<CodeCheck> {
  const digest = sha256(token)
  return data.transaction(
    async (tx): Promise<CodeCheck> => {
      const row = await tx.selectFrom('credential_secrets').selectAll().where('token_sha256', '=', digest).where('kind', '=', 'recovery-code').executeTakeFirst()
      if (!row || row.expires_at <= now) return { ok: false, code: 'CODE_NO_MATCH_OR_EXPIRED' }
      if (row.attempts_left <= 0) return { ok: false, code: 'EXCEEDED_LIMIT' }
      await tx.updateTable('credential_secrets').set((eb) => ({ attempts_left: eb('attempts_left', '-', 1) })).where('token_sha256', '=', digest).execute()
      const expected = Buffer.from(row.code_sha256 ?? '', 'hex')
      const given = Buffer.from(codeDigest(token, code), 'hex')
      const matches = row.punter_id !== null && expected.length === given.length && timingSafeEqual(expected, given)
      if (matches) {
        await tx.deleteFrom('credential_secrets').where('token_sha256', '=', digest).execute()
        return { ok: true, secret: toSecret(row) }
      }
      return { ok: false, code: row.attempts_left - 1 <= 0 ? 'EXCEEDED_LIMIT' : 'CODE_NO_MATCH_OR_EXPIRED' }
    },
    { serialiseOn: `credential-code:${digest}` },
  )
}

/** Ends every pending secret of a punter of these kinds (a password set ends every recovery). */
export async function dropSecrets(data: DataLayer, punterId: number, kinds: SecretKind[]): Promise<void> {
  if (kinds.length > 0) await data.db.deleteFrom('credential_secrets').where('punter_id', '=', punterId).where('kind', 'in', kinds).execute()
}
