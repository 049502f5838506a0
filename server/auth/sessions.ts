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
 */
import { PREVIEW_SESSION_PREFIX, previewPunterSession } from '../store/preview'
import { createHash, randomBytes } from 'node:crypto'
import type { Result } from '../../engine/core/contracts'
import { registerMigration, type Db } from '../db/database'

registerMigration(
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

function issueTokens(db: Db, sessionId: string, rememberMe: boolean, now: number): SessionTokens {
  const accessToken = randomToken()
  const refreshToken = randomToken()
  const accessExpiresAt = now + TOKEN_LIFETIME.accessMs
  const refreshExpiresAt = now + (rememberMe ? TOKEN_LIFETIME.refreshRememberMeMs : TOKEN_LIFETIME.refreshMs)
  const insert = db.prepare('INSERT INTO auth_tokens (token_sha256, session_id, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
  insert.run(sha256(accessToken), sessionId, 'access', now, accessExpiresAt)
  insert.run(sha256(refreshToken), sessionId, 'refresh', now, refreshExpiresAt)
  db.prepare('UPDATE auth_sessions SET access_expires_at = ?, refresh_expires_at = ? WHERE id = ?').run(accessExpiresAt, refreshExpiresAt, sessionId)
  return { accessToken, refreshToken, creationTime: now, loginTimeout: TOKEN_LIFETIME.accessMs, expireTokenTime: accessExpiresAt, rememberMe }
}

/** Opens a new session for a punter (every login gets a new one; sign-up may call it too). */
export function createSession(db: Db, punterId: number, options: { rememberMe?: boolean }, now: number): OpenedSession {
  const sessionId = randomBytes(16).toString('hex')
  const sessionHash = randomToken()
  const rememberMe = options.rememberMe === true
  return db.transaction(() => {
    db.prepare(
      `INSERT INTO auth_sessions (id, punter_id, hash_sha256, remember_me, created_at, access_expires_at, refresh_expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(sessionId, punterId, sha256(sessionHash), rememberMe ? 1 : 0, now, now, now)
    return { ...issueTokens(db, sessionId, rememberMe, now), sessionHash, sessionId }
  })()
}

/**
 * The live session of a request: the session hash must name an unrevoked session whose access
 * token has not expired; an access token, when sent too, must be a live token of that session.
 */
export function authenticate(db: Db, sessionHash: string | undefined, accessToken: string | undefined, now: number): AuthenticatedSession | undefined {
  if (!sessionHash || sessionHash.length > 200) return undefined
  // an admin's preview as a demo punter: read-only, in memory only (server/store/preview.ts)
  if (sessionHash.startsWith(PREVIEW_SESSION_PREFIX)) {
    const preview = previewPunterSession(sessionHash, accessToken, now)
    return preview && { sessionId: 'preview', punterId: preview.punterId, accessExpiresAt: preview.expiresAt }
  }
  const session = db
    .prepare('SELECT id, punter_id, access_expires_at FROM auth_sessions WHERE hash_sha256 = ? AND revoked_at IS NULL')
    .get(sha256(sessionHash)) as { id: string; punter_id: number; access_expires_at: number } | undefined
  if (!session || now >= session.access_expires_at) return undefined
  if (accessToken !== undefined) {
    const token = db
      .prepare("SELECT expires_at FROM auth_tokens WHERE token_sha256 = ? AND session_id = ? AND kind = 'access' AND revoked_at IS NULL")
      .get(sha256(accessToken), session.id) as { expires_at: number } | undefined
    if (!token || now >= token.expires_at) return undefined
  }
  return { sessionId: session.id, punterId: session.punter_id, accessExpiresAt: session.access_expires_at }
}

function revokeSessionIn(db: Db, sessionId: string, reason: RevokeReason, now: number): void {
  db.prepare('UPDATE auth_sessions SET revoked_at = ?, revoke_reason = ? WHERE id = ? AND revoked_at IS NULL').run(now, reason, sessionId)
  db.prepare('UPDATE auth_tokens SET revoked_at = ? WHERE session_id = ? AND revoked_at IS NULL').run(now, sessionId)
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
 * Rotates a refresh token. Synchronous (one SQLite transaction), so two requests racing with the
 * same token cannot both win: the second one is a reuse and kills the family.
 */
export function refreshSession(db: Db, refreshToken: string, now: number): RefreshOutcome {
  return db.transaction((): RefreshOutcome => {
    const token = db
      .prepare(
        `SELECT t.session_id, t.expires_at, t.used_at, t.revoked_at, s.punter_id, s.remember_me, s.revoked_at AS session_revoked
         FROM auth_tokens t JOIN auth_sessions s ON s.id = t.session_id
         WHERE t.token_sha256 = ? AND t.kind = 'refresh'`,
      )
      .get(sha256(refreshToken)) as
      | { session_id: string; expires_at: number; used_at: number | null; revoked_at: number | null; punter_id: number; remember_me: number; session_revoked: number | null }
      | undefined
    if (!token) return { ok: false, code: 'INVALID_REFRESH_TOKEN' }
    if (token.used_at !== null || token.revoked_at !== null || token.session_revoked !== null) {
      revokeSessionIn(db, token.session_id, 'refresh-reuse', now)
      return { ok: false, code: 'INVALID_REFRESH_TOKEN', reuse: true }
    }
    if (now >= token.expires_at) {
      revokeSessionIn(db, token.session_id, 'refresh-expired', now)
      return { ok: false, code: 'INVALID_REFRESH_TOKEN' }
    }
    db.prepare('UPDATE auth_tokens SET used_at = ? WHERE token_sha256 = ?').run(now, sha256(refreshToken))
    db.prepare("UPDATE auth_tokens SET revoked_at = ? WHERE session_id = ? AND kind = 'access' AND revoked_at IS NULL").run(now, token.session_id)
    return { ok: true, value: { ...issueTokens(db, token.session_id, token.remember_me === 1, now), punterId: token.punter_id } }
  })()
}

/** The punter a refresh token belongs to, whether or not it is still usable (logout by token). */
export function punterOfRefreshToken(db: Db, refreshToken: string): number | undefined {
  const row = db
    .prepare("SELECT s.punter_id FROM auth_tokens t JOIN auth_sessions s ON s.id = t.session_id WHERE t.token_sha256 = ? AND t.kind = 'refresh'")
    .get(sha256(refreshToken)) as { punter_id: number } | undefined
  return row?.punter_id
}

/** Ends every session, session hash and token of a punter at once (logout, blocking, exclusion). */
export function revokeAllSessions(db: Db, punterId: number, reason: RevokeReason, now: number): number {
  return db.transaction(() => {
    const sessions = db.prepare('SELECT id FROM auth_sessions WHERE punter_id = ? AND revoked_at IS NULL').all(punterId) as { id: string }[]
    for (const { id } of sessions) revokeSessionIn(db, id, reason, now)
    return sessions.length
  })()
}

/** How long the session's access token has left (spec: auth/punter-session/expiration-timeout). */
export function sessionExpiration(db: Db, sessionId: string, now: number): { expirationTimeout: number; expiresAt: number } | undefined {
  const row = db.prepare('SELECT access_expires_at FROM auth_sessions WHERE id = ? AND revoked_at IS NULL').get(sessionId) as { access_expires_at: number } | undefined
  return row && { expirationTimeout: Math.max(0, row.access_expires_at - now), expiresAt: row.access_expires_at }
}

/**
 * Ends every session of a punter but one (a changed credential: the punter's other devices must
 * log in again with it, the one that made the change stays). Without `keepSessionId`, all end.
 */
export function revokeOtherSessions(db: Db, punterId: number, keepSessionId: string | undefined, reason: RevokeReason, now: number): number {
  return db.transaction(() => {
    const sessions = db.prepare('SELECT id FROM auth_sessions WHERE punter_id = ? AND revoked_at IS NULL').all(punterId) as { id: string }[]
    const others = sessions.filter(({ id }) => id !== keepSessionId)
    for (const { id } of others) revokeSessionIn(db, id, reason, now)
    return others.length
  })()
}

/**
 * The punter of a refresh token whose session is still live. Logout by token uses this: a device
 * whose session already ended (a password change elsewhere, a reuse) must not be able to end the
 * sessions the punter kept — its logout only forgets itself.
 */
export function punterOfLiveRefreshToken(db: Db, refreshToken: string): number | undefined {
  const row = db
    .prepare("SELECT s.punter_id FROM auth_tokens t JOIN auth_sessions s ON s.id = t.session_id WHERE t.token_sha256 = ? AND t.kind = 'refresh' AND s.revoked_at IS NULL")
    .get(sha256(refreshToken)) as { punter_id: number } | undefined
  return row?.punter_id
}
