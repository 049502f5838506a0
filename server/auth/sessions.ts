/**
 * Punter sessions and tokens (spec §3 "Session", §4 "Token refresh"; RFC 9700 §4.14.2).
 *
 * A login opens a new session: a session hash (256 random bits, sent back by the client as the
 * `punter-session-hash` header), an access token and a refresh token. Only SHA-256 digests of the
 * three are stored, so a copy of the database opens nobody's account.
 *
 * The refresh tokens of one session form a family. Each refresh uses its token up and issues the
 * next pair; presenting a used (or revoked) refresh token again is a theft signal and revokes the
 * whole family — the session, its hash and the successor tokens die together.
 * Logout and blocking revoke every session of the punter at once.
 *
 * Every function takes `now`: the clock is injected (tests move it, nobody sleeps).
 *
 * On the query layer (issue 16): the same statements on SQLite and PostgreSQL, so a session opened
 * on one instance is live on all, and a logout or a revoked family on one ends it on all. Every
 * write to a punter's sessions runs serialised on `sessions:<punter>` (an advisory lock on
 * PostgreSQL; SQLite's IMMEDIATE transactions serialise every writer anyway): two instances
 * rotating one refresh token cannot both win, and a rotation racing a logout cannot deadlock.
 */
import { PREVIEW_SESSION_PREFIX, previewPunterSession } from '../store/preview'
import { createHash, randomBytes } from 'node:crypto'
import type { Result } from '../../kernel/core/contracts'
import { preparedStatement, type DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory } from '../db/schema'
import type { Kysely, Transaction } from 'kysely'
import type { Tables } from '../db/tables'
import { inboxStatistics, inboxStatisticsColumns, toInboxStatistics, type InboxStatistics } from '../messages/store'
import { findPunterById, punterFromRow, type Punter } from '../punters/repository'

export const sqlite102AuthSessions = sqliteHistory(
  '102-auth-sessions',
  `CREATE TABLE auth_sessions (
     id TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     hash_sha256 TEXT NOT NULL UNIQUE,
     remember_me INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     access_expires_at INTEGER NOT NULL,
     refresh_expires_at INTEGER NOT NULL,
     revoked_at INTEGER,
     revoke_reason TEXT
   );
   CREATE INDEX auth_sessions_punter ON auth_sessions(punter_id);
   CREATE TABLE auth_tokens (
     token_sha256 TEXT PRIMARY KEY,
     session_id TEXT NOT NULL REFERENCES auth_sessions(id),
     kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     used_at INTEGER,
     revoked_at INTEGER
   );
   CREATE INDEX auth_tokens_session ON auth_tokens(session_id);`,
)

interface AuthSessionTable {
  id: string
  punter_id: number
  /** SHA-256 of the session hash (the hash itself is only on the punter's device). */
  hash_sha256: string
  /** 1 when the refresh token lives TOKEN_LIFETIME.refreshRememberMeMs, else 0. */
  remember_me: number
  created_at: number
  access_expires_at: number
  refresh_expires_at: number
  revoked_at: number | null
  revoke_reason: string | null
}

interface AuthTokenTable {
  token_sha256: string
  session_id: string
  kind: 'access' | 'refresh'
  created_at: number
  expires_at: number
  used_at: number | null
  revoked_at: number | null
}

declare module '../db/tables' {
  interface Tables {
    auth_sessions: AuthSessionTable
    auth_tokens: AuthTokenTable
  }
}

// The punter id is not a foreign key here: on PostgreSQL the punters may live elsewhere until
// their store moves (server/db/README.md); SQLite files keep the key their history made.
export const q060AuthSessions = schemaStep('q060-auth-sessions', async (db) => {
  await db.schema
    .createTable('auth_sessions')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('hash_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('remember_me', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoke_reason', 'text')
    .execute()
  await db.schema.createIndex('auth_sessions_punter').ifNotExists().on('auth_sessions').column('punter_id').execute()
  await db.schema
    .createTable('auth_tokens')
    .ifNotExists()
    .addColumn('token_sha256', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('auth_sessions.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['access', 'refresh'])))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute()
  await db.schema.createIndex('auth_tokens_session').ifNotExists().on('auth_tokens').column('session_id').execute()
})

/** Token lifetimes. The access token is short; the refresh token outlives it per rememberMe. */
export const TOKEN_LIFETIME = {
  /** loginTimeout sent to the client: it refreshes at creationTime + loginTimeout + offset. */
  accessMs: 15 * 60_000,
  refreshMs: 24 * 3_600_000,
  refreshRememberMeMs: 30 * 24 * 3_600_000,
} as const

export interface SessionTokens {
  accessToken: string
  refreshToken: string
  /** ms since epoch (server clock); the client derives its clock offset from it. */
  creationTime: number
  /** ms the access token lives. */
  loginTimeout: number
  expireTokenTime: number
  rememberMe: boolean
}

export interface OpenedSession extends SessionTokens {
  sessionHash: string
  sessionId: string
}

export interface AuthenticatedSession {
  sessionId: string
  punterId: number
  accessExpiresAt: number
}

export type RevokeReason = 'logout' | 'blocked' | 'refresh-reuse' | 'self-excluded' | 'closed' | (string & {})

export const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex')
/** 256 bits from the OS CSPRNG, URL-safe. */
const randomToken = () => randomBytes(32).toString('base64url')

type Tx = Transaction<Tables>

/** The key every write to one punter's sessions is serialised on (see the header). */
const sessionsKey = (punterId: number) => `sessions:${punterId}`

const lifetimes = (rememberMe: boolean, now: number) => ({
  accessExpiresAt: now + TOKEN_LIFETIME.accessMs,
  refreshExpiresAt: now + (rememberMe ? TOKEN_LIFETIME.refreshRememberMeMs : TOKEN_LIFETIME.refreshMs),
})

/** A new access and refresh token for the session; the session's expiries follow them. */
async function issueTokens(tx: Tx, sessionId: string, rememberMe: boolean, now: number): Promise<SessionTokens> {
  const accessToken = randomToken()
  const refreshToken = randomToken()
  const { accessExpiresAt, refreshExpiresAt } = lifetimes(rememberMe, now)
  await tx
    .insertInto('auth_tokens')
    .values([
      { token_sha256: sha256(accessToken), session_id: sessionId, kind: 'access', created_at: now, expires_at: accessExpiresAt },
      { token_sha256: sha256(refreshToken), session_id: sessionId, kind: 'refresh', created_at: now, expires_at: refreshExpiresAt },
    ])
    .execute()
  await tx.updateTable('auth_sessions').set({ access_expires_at: accessExpiresAt, refresh_expires_at: refreshExpiresAt }).where('id', '=', sessionId).execute()
  return { accessToken, refreshToken, creationTime: now, loginTimeout: TOKEN_LIFETIME.accessMs, expireTokenTime: accessExpiresAt, rememberMe }
}

/** Opens a new session for a punter (every login gets a new one; sign-up may call it too). */
export async function createSession(data: DataLayer, punterId: number, options: { rememberMe?: boolean }, now: number): Promise<OpenedSession> {
  const sessionId = randomBytes(16).toString('hex')
  const sessionHash = randomToken()
  const rememberMe = options.rememberMe === true
  // new rows only: nothing to serialise against
  return data.transaction(async (tx) => {
    await tx
      .insertInto('auth_sessions')
      .values({ id: sessionId, punter_id: punterId, hash_sha256: sha256(sessionHash), remember_me: rememberMe ? 1 : 0, created_at: now, access_expires_at: now, refresh_expires_at: now })
      .execute()
    return { ...(await issueTokens(tx, sessionId, rememberMe, now)), sessionHash, sessionId }
  })
}

/**
 * The live session of a request: the session hash must name an unrevoked session whose access
 * token has not expired; an access token, when sent too, must be a live token of that session.
 * Every authenticated request asks this: ONE query on the session hash's unique index (joined to
 * the access token's primary key when one is sent).
 */
export async function authenticate(data: DataLayer, sessionHash: string | undefined, accessToken: string | undefined, now: number): Promise<AuthenticatedSession | undefined> {
  if (!sessionHash || sessionHash.length > 200) return undefined
  // an admin's preview as a demo punter: read-only, in memory only (server/store/preview.ts)
  if (sessionHash.startsWith(PREVIEW_SESSION_PREFIX)) {
    const preview = await previewPunterSession(sessionHash, accessToken, now)
    return preview && { sessionId: 'preview', punterId: preview.punterId, accessExpiresAt: preview.expiresAt }
  }
  const session = await liveSession(data.db, { sessionHash: sha256(sessionHash), accessToken: accessToken === undefined ? undefined : sha256(accessToken), now })
    .select(['s.id', 's.punter_id', 's.access_expires_at'])
    .executeTakeFirst()
  if (!session || now >= session.access_expires_at) return undefined
  return { sessionId: session.id, punterId: Number(session.punter_id), accessExpiresAt: session.access_expires_at }
}

/** The statement both session checks start from: the session hash's unique index, joined to the
 * access token's primary key when one is sent (the access expiry is compared by the caller). The
 * hash and the token come as their SHA-256 digests. */
function liveSession(db: Kysely<Tables>, { sessionHash, accessToken, now }: { sessionHash: string; accessToken: string | undefined; now: number }) {
  return db
    .selectFrom('auth_sessions as s')
    .where('s.hash_sha256', '=', sessionHash)
    .where('s.revoked_at', 'is', null)
    .$if(accessToken !== undefined, (live) =>
      live
        .innerJoin('auth_tokens as t', (join) => join.onRef('t.session_id', '=', 's.id').on('t.token_sha256', '=', accessToken!).on('t.kind', '=', 'access').on('t.revoked_at', 'is', null))
        .where('t.expires_at', '>', now),
    )
}

/** `authenticatePunter`'s statement in its four shapes (access token sent or not, inbox counts
 * asked or not): fixed texts, built once and prepared on PostgreSQL, as every punter request runs one. */
const sessionPunterStatement = (withAccessToken: boolean, withInboxStatistics: boolean) =>
  preparedStatement((db, values: { sessionHash: string; accessToken: string; now: number }) =>
    liveSession(db, { sessionHash: values.sessionHash, accessToken: withAccessToken ? values.accessToken : undefined, now: values.now })
      .innerJoin('punters as p', 'p.id', 's.punter_id')
      .selectAll('p')
      .select(['s.id as auth_session_id', 's.access_expires_at as auth_access_expires_at'])
      .$if(withInboxStatistics, (query) => query.select((eb) => inboxStatisticsColumns(eb.ref('p.id')))),
  )
const SESSION_PUNTER_STATEMENTS = [
  [sessionPunterStatement(false, false), sessionPunterStatement(false, true)],
  [sessionPunterStatement(true, false), sessionPunterStatement(true, true)],
] as const

export interface SessionPunter {
  session: AuthenticatedSession
  punter: Punter
  /** Only when asked for (the heartbeat). */
  inboxStatistics?: InboxStatistics
}

/**
 * The live session of a request with its punter's row (and, when asked, the punter's inbox
 * counts): what every punter route's session check needs, in ONE statement, so a heartbeat costs
 * the database one round trip instead of three (issue 16: on two shared cores, two instances only
 * outrun one when the database's share of a request is small). The same checks as `authenticate`.
 */
export async function authenticatePunter(
  data: DataLayer,
  sessionHash: string | undefined,
  accessToken: string | undefined,
  now: number,
  { withInboxStatistics = false }: { withInboxStatistics?: boolean } = {},
): Promise<SessionPunter | undefined> {
  if (!sessionHash || sessionHash.length > 200) return undefined
  if (sessionHash.startsWith(PREVIEW_SESSION_PREFIX)) {
    // the preview's session lives in memory: only the punter's row is read
    const session = await authenticate(data, sessionHash, accessToken, now)
    const punter = session && (await findPunterById(data, session.punterId))
    if (!session || !punter) return undefined
    return { session, punter, ...(withInboxStatistics ? { inboxStatistics: await inboxStatistics(data.db, punter.id) } : {}) }
  }
  const statement = SESSION_PUNTER_STATEMENTS[accessToken === undefined ? 0 : 1][withInboxStatistics ? 1 : 0]
  const [row] = await statement.execute(data, { sessionHash: sha256(sessionHash), accessToken: accessToken === undefined ? '' : sha256(accessToken), now })
  if (!row || now >= row.auth_access_expires_at) return undefined
  const { auth_session_id, auth_access_expires_at, inbox_total, inbox_unread, ...punterRow } = row
  const punter = punterFromRow(punterRow)
  return {
    session: { sessionId: auth_session_id, punterId: punter.id, accessExpiresAt: auth_access_expires_at },
    punter,
    ...(withInboxStatistics ? { inboxStatistics: toInboxStatistics({ inbox_total: inbox_total ?? null, inbox_unread: inbox_unread ?? null }) } : {}),
  }
}

/** Ends sessions and every token of them (the caller holds the punter's sessions key). */
async function revokeSessionsIn(tx: Tx, sessionIds: string[], reason: RevokeReason, now: number): Promise<void> {
  if (sessionIds.length === 0) return
  await tx.updateTable('auth_sessions').set({ revoked_at: now, revoke_reason: reason }).where('id', 'in', sessionIds).where('revoked_at', 'is', null).execute()
  await tx.updateTable('auth_tokens').set({ revoked_at: now }).where('session_id', 'in', sessionIds).where('revoked_at', 'is', null).execute()
}

/** The login result of spec §3 (status, tokens, punterHash, loginByAuthType) for a new session:
 * one shape for every way a session opens (login, sign-up, registration token, MitID). */
export function loginResult(session: OpenedSession, loginByAuthType: string): Record<string, unknown> {
  return {
    status: 'OK',
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    creationTime: session.creationTime,
    loginTimeout: session.loginTimeout,
    expireTokenTime: session.expireTokenTime,
    rememberMe: session.rememberMe,
    punterHash: session.sessionHash,
    loginByAuthType,
    needEmailConfirmation: false,
  }
}

export type RefreshOutcome = Result<SessionTokens & { punterId: number }> & { reuse?: boolean }

/**
 * Rotates a refresh token. The token's punter is read first (the key to serialise on); then, under
 * that punter's sessions key, the token is claimed with a conditional update (only an unused,
 * unrevoked token is claimed), so two requests racing with the same token — on one instance or
 * two — cannot both win: the second one is a reuse and kills the family.
 */
export async function refreshSession(data: DataLayer, refreshToken: string, now: number): Promise<RefreshOutcome> {
  const tokenHash = sha256(refreshToken)
  const owner = await refreshTokenOwner(data, refreshToken, { liveOnly: false })
  if (owner === undefined) return { ok: false, code: 'INVALID_REFRESH_TOKEN' }
  return data.transaction(
    async (tx): Promise<RefreshOutcome> => {
      const token = await tx
        .selectFrom('auth_tokens as t')
        .innerJoin('auth_sessions as s', 's.id', 't.session_id')
        .select(['t.session_id', 't.expires_at', 't.used_at', 't.revoked_at', 's.punter_id', 's.remember_me', 's.revoked_at as session_revoked'])
        .where('t.token_sha256', '=', tokenHash)
        .where('t.kind', '=', 'refresh')
        .executeTakeFirstOrThrow()
      if (token.used_at !== null || token.revoked_at !== null || token.session_revoked !== null) {
        await revokeSessionsIn(tx, [token.session_id], 'refresh-reuse', now)
        return { ok: false, code: 'INVALID_REFRESH_TOKEN', reuse: true }
      }
      if (now >= token.expires_at) {
        await revokeSessionsIn(tx, [token.session_id], 'refresh-expired', now)
        return { ok: false, code: 'INVALID_REFRESH_TOKEN' }
      }
      const claimed = await tx
        .updateTable('auth_tokens')
        .set({ used_at: now })
        .where('token_sha256', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) !== 1) {
        // only reachable if the lock were bypassed: another rotation claimed it first, a reuse
        await revokeSessionsIn(tx, [token.session_id], 'refresh-reuse', now)
        return { ok: false, code: 'INVALID_REFRESH_TOKEN', reuse: true }
      }
      await tx.updateTable('auth_tokens').set({ revoked_at: now }).where('session_id', '=', token.session_id).where('kind', '=', 'access').where('revoked_at', 'is', null).execute()
      return { ok: true, value: { ...(await issueTokens(tx, token.session_id, token.remember_me === 1, now)), punterId: Number(token.punter_id) } }
    },
    { serialiseOn: sessionsKey(owner) },
  )
}

/** The punter of a refresh token; with `liveOnly`, only while its session is unrevoked. */
async function refreshTokenOwner(data: DataLayer, refreshToken: string, { liveOnly }: { liveOnly: boolean }): Promise<number | undefined> {
  let query = data.db
    .selectFrom('auth_tokens as t')
    .innerJoin('auth_sessions as s', 's.id', 't.session_id')
    .select('s.punter_id')
    .where('t.token_sha256', '=', sha256(refreshToken))
    .where('t.kind', '=', 'refresh')
  if (liveOnly) query = query.where('s.revoked_at', 'is', null)
  const row = await query.executeTakeFirst()
  return row && Number(row.punter_id)
}

/** The punter a refresh token belongs to, whether or not it is still usable (logout by token). */
export function punterOfRefreshToken(data: DataLayer, refreshToken: string): Promise<number | undefined> {
  return refreshTokenOwner(data, refreshToken, { liveOnly: false })
}

/** Ends the punter's live sessions except `keepSessionId` (none kept when undefined); how many ended. */
async function revokeSessionsOf(data: DataLayer, punterId: number, keepSessionId: string | undefined, reason: RevokeReason, now: number): Promise<number> {
  return data.transaction(
    async (tx) => {
      const sessions = await tx.selectFrom('auth_sessions').select('id').where('punter_id', '=', punterId).where('revoked_at', 'is', null).execute()
      const ending = sessions.map(({ id }) => id).filter((id) => id !== keepSessionId)
      await revokeSessionsIn(tx, ending, reason, now)
      return ending.length
    },
    { serialiseOn: sessionsKey(punterId) },
  )
}

/** Ends every session, session hash and token of a punter at once (logout, blocking, exclusion). */
export function revokeAllSessions(data: DataLayer, punterId: number, reason: RevokeReason, now: number): Promise<number> {
  return revokeSessionsOf(data, punterId, undefined, reason, now)
}

/** How long the session's access token has left (spec: auth/punter-session/expiration-timeout). */
export async function sessionExpiration(data: DataLayer, sessionId: string, now: number): Promise<{ expirationTimeout: number; expiresAt: number } | undefined> {
  const row = await data.db.selectFrom('auth_sessions').select('access_expires_at').where('id', '=', sessionId).where('revoked_at', 'is', null).executeTakeFirst()
  return row && { expirationTimeout: Math.max(0, row.access_expires_at - now), expiresAt: row.access_expires_at }
}

/**
 * Ends every session of a punter but one (a changed credential: the punter's other devices must
 * log in again with it, the one that made the change stays). Without `keepSessionId`, all end.
 */
export function revokeOtherSessions(data: DataLayer, punterId: number, keepSessionId: string | undefined, reason: RevokeReason, now: number): Promise<number> {
  return revokeSessionsOf(data, punterId, keepSessionId, reason, now)
}

/**
 * The punter of a refresh token whose session is still live. Logout by token uses this: a device
 * whose session already ended (a password change elsewhere, a reuse) must not be able to end the
 * sessions the punter kept — its logout only forgets itself.
 */
export function punterOfLiveRefreshToken(data: DataLayer, refreshToken: string): Promise<number | undefined> {
  return refreshTokenOwner(data, refreshToken, { liveOnly: true })
}

/** The state of some sessions (the socket server's sweep of its open sockets): one query per 500 ids. */
export async function sessionStates(data: DataLayer, sessionIds: string[]): Promise<Map<string, { revokedAt: number | null; accessExpiresAt: number }>> {
  const states = new Map<string, { revokedAt: number | null; accessExpiresAt: number }>()
  const ids = [...new Set(sessionIds)]
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await data.db.selectFrom('auth_sessions').select(['id', 'revoked_at', 'access_expires_at']).where('id', 'in', ids.slice(i, i + 500)).execute()
    for (const row of rows) states.set(row.id, { revokedAt: row.revoked_at, accessExpiresAt: row.access_expires_at })
  }
  return states
}
