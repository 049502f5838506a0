/**
 * The session and user calls of the mobile gate (spec §7 "Session and user"), one envelope each.
 *
 * Login answers for an unknown login, a wrong password and a throttled (locked) login are the same
 * code, status and shape, and each runs one argon2 verify, so none of them tells which logins
 * exist. Answers that do depend on the account (unconfirmed e-mail or phone, denied by
 * permission) are only given after the right password.
 */
import { randomBytes } from 'node:crypto'
import { Router, type NextFunction, type Request, type Response } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import {
  AUTH_TYPE_NEEDED,
  classifyLogin,
  classifyPhoneLogin,
  type ClassifiedLogin,
} from '../../kernel/auth/login-classification'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory } from '../db/schema'
import type { ServerDeps } from '../deps'
import { remoteConfigFor } from '../documents/router'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateBody, validateQuery, noBody } from '../http/validate'
import {
  SERVER_SETTINGS_SCHEMA,
  findPunterById,
  findPunterByLogin,
  movePunterStatus,
  recordLogin,
  saveServerSettings,
  setLegalAgreement,
  userData,
  type Punter,
} from '../punters/repository'
import { bonusAccountsView } from '../punters/bonuses'
import { passwordHasherFor } from '../punters/password'
import { captchaServiceFor, powConfig, type CaptchaService } from './captcha'
import { otherChallenge, siteCaptcha, verifyCaptcha } from './captcha-gate'
import { NONCE_PURPOSES, type NoncePurpose } from './captcha-nonce'
import { authenticate, createSession, loginResult, punterOfLiveRefreshToken, refreshSession, revokeAllSessions, sessionExpiration, sha256 } from './sessions'
import { clearFailures, createLanes, isLocked, needsCaptcha, recordFailure, throttleState, type ThrottleState } from './throttle'
import { sendUnlockLink, useUnlockToken } from './unlock'
import { requirePunterSession } from './session-check'
import { jurisdictionFor, restrictionsView } from '../regulation/restrictions'
import { selfExclusionAtLogin } from '../regulation/self-exclusion'
import { composeForPunter } from '../signup/message-texts'
import { nicknameEnabledFor } from '../identity/nickname'
import { emitPunterEvent } from '../punters/events'

export const sqlite105AuthConfirmationTokens = sqliteHistory(
  '105-auth-confirmation-tokens',
  `CREATE TABLE auth_confirmation_tokens (
     token_sha256 TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     kind TEXT NOT NULL CHECK (kind IN ('email', 'phone')),
     expires_at INTEGER NOT NULL
   );`,
)

declare module '../db/tables' {
  interface Tables {
    auth_confirmation_tokens: { token_sha256: string; punter_id: number; kind: 'email' | 'phone'; expires_at: number }
  }
}

// The punter id is not a foreign key here: on PostgreSQL the punters may live elsewhere until
// their store moves (server/db/README.md); SQLite files keep the key their history made.
export const q061AuthConfirmationTokens = schemaStep('q061-auth-confirmation-tokens', async (db) => {
  await db.schema
    .createTable('auth_confirmation_tokens')
    .ifNotExists()
    .addColumn('token_sha256', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['email', 'phone'])))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
})

/** The one answer for unknown login, wrong password and locked login. */
export const LOGIN_FAILED = { status: 400, code: 'INCORRECT_PASSWORD' } as const

const CONFIRMATION_TOKEN_MS = 30 * 60_000

/** A short-lived token the confirmation flow (sign-up) exchanges to resend or confirm. */
export async function issueConfirmationToken(data: DataLayer, punterId: number, kind: 'email' | 'phone', now: number): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  await data.db.insertInto('auth_confirmation_tokens').values({ token_sha256: sha256(token), punter_id: punterId, kind, expires_at: now + CONFIRMATION_TOKEN_MS }).execute()
  return token
}

/**
 * Uses up a confirmation token; the punter id it was for, if valid. One conditional delete that
 * hands back the row it removed: of two uses at once, on one instance or two, only the one whose
 * delete removed the row gets the punter (a token of another kind, or expired, is spent all the same).
 */
export async function consumeConfirmationToken(data: DataLayer, token: string, kind: 'email' | 'phone', now: number): Promise<number | undefined> {
  const row = await data.db.deleteFrom('auth_confirmation_tokens').where('token_sha256', '=', sha256(token)).returning(['punter_id', 'kind', 'expires_at']).executeTakeFirst()
  return row && row.kind === kind && row.expires_at > now ? Number(row.punter_id) : undefined
}

/** Forgets a punter's confirmation tokens (a sign-up undone because its mail could not go out). */
export async function dropConfirmationTokens(data: DataLayer, punterId: number): Promise<void> {
  await data.db.deleteFrom('auth_confirmation_tokens').where('punter_id', '=', punterId).execute()
}

const loginFields = {
  password: { type: 'string', minLength: 1, maxLength: 256 },
  rememberMe: { type: 'boolean' },
  keepPunterLoggedIn: { type: 'boolean' },
  captcha: { type: 'string', minLength: 1, maxLength: 2000 },
} as const

export const LOGIN_SCHEMA = {
  type: 'object',
  required: ['login', 'password'],
  additionalProperties: false,
  properties: { login: { type: 'string', minLength: 1, maxLength: 254 }, ...loginFields },
} as const

export const PHONE_LOGIN_SCHEMA = {
  type: 'object',
  required: ['phoneNumber', 'password'],
  additionalProperties: false,
  properties: { phoneNumber: { type: 'string', minLength: 1, maxLength: 40 }, ...loginFields },
} as const

export const REFRESH_SCHEMA = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
} as const

export const UNLOCK_SCHEMA = REFRESH_SCHEMA

/** Cache-Control: no-store and Pragma: no-cache (RFC 6749 §5.1 for token answers). */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store')
  res.setHeader('Pragma', 'no-cache')
  next()
}

export const LEGAL_AGREEMENT_SCHEMA = {
  type: 'object',
  required: ['accepted'],
  additionalProperties: false,
  properties: { accepted: { type: 'boolean' } },
} as const

interface LoginBody {
  login?: string
  phoneNumber?: string
  password: string
  rememberMe?: boolean
  keepPunterLoggedIn?: boolean
  captcha?: string
}

const CHALLENGE_QUERY = { type: 'object', properties: { purpose: { enum: [...NONCE_PURPOSES] } }, additionalProperties: false }

export function createAuthRouter(deps: ServerDeps, captcha: CaptchaService = captchaServiceFor(deps.data, deps.now)): Router {
  const { db, log } = deps
  const router = Router()

  // Answers carrying tokens must never be stored by a cache (RFC 6749 §5.1): every auth call.
  router.use('/auth', noStore)

  /** Session check: punter-session-hash header (+ optional Bearer access token) → 401 if not live. */
  const requireSession = requirePunterSession(deps)
  /** The heartbeat's: the inbox counts come with the session and the punter in one statement. */
  const requireSessionWithInbox = requirePunterSession(deps, { withInboxStatistics: true })

  const inLane = createLanes()

  /** The captcha gate: undefined when the attempt may go on, else the refusal code. Counts nothing. */
  async function captchaRefusal(req: Request, state: ThrottleState, captchaPayload: string | undefined): Promise<string | undefined> {
    if (!powConfig(remoteConfigFor(deps, req)).enabled || !needsCaptcha(state)) return undefined
    if (!captchaPayload) return 'CAPTCHA_REQUIRED'
    return (await verifyCaptcha(deps, req, captcha, captchaPayload, 'login')) ? undefined : 'INVALID_CAPTCHA'
  }

  /** The request's host if it is one of its site's hosts, else the site's first: a forged Host never gets into a link. */
  function trustedHost(req: Request): string {
    const context = siteContext(req, deps)
    const hosts = ((deps.documents.resolve('jurisdiction', context.site.id, context)?.source as { hosts?: string[] } | undefined)?.hosts ?? []) as string[]
    if (hosts.includes(req.hostname)) return req.get('host') ?? req.hostname
    const port = /:\d+$/.exec(req.get('host') ?? '')?.[0] ?? ''
    return (hosts[0] ?? 'localhost') + port
  }

  /** The lock engaged on this failure: tell the owner how to lift it (never awaited by the answer). */
  function notifyOwnerOfLock(req: Request, punter: Punter): void {
    const linkBase = `${req.protocol}://${trustedHost(req)}${req.baseUrl}/auth/login/unlock`
    // the owner's saved language, else the page's (schemas/i18n/*-outbox.json)
    const compose = (link: string) => {
      const email = composeForPunter(deps, req, punter, 'unlockEmail', { link })
      return { subject: email.subject!, email: email.body, sms: composeForPunter(deps, req, punter, 'unlockSms', { link }).body }
    }
    void sendUnlockLink(deps, punter, linkBase, compose).catch((error: Error) => log.error('auth.unlock.failed', { punterId: punter.id, error: error.message }))
  }

  async function login(req: Request, res: Response, classified: ClassifiedLogin, body: LoginBody, method: 'login' | 'phone') {
    const { site } = siteContext(req, deps)
    const ip = req.ip ?? 'unknown'
    const loginValue = `${classified.kind}:${classified.value}`
    const found = await findPunterByLogin(deps.data, site.jurisdiction, classified.kind, classified.value)
    // One account's attempts (or one unknown identifier's) run one after another.
    await inLane(found ? `account:${found.id}` : `login:${loginValue.toLowerCase()}`, () => attempt(req, res, classified, body, method, ip, loginValue, found))
  }

  async function attempt(req: Request, res: Response, classified: ClassifiedLogin, body: LoginBody, method: string, ip: string, loginValue: string, found: Punter | undefined) {
    const keys = { login: loginValue, accountId: found?.id, client: ip }
    const state = await throttleState(deps.data.db, keys, deps.now())
    const refusal = await captchaRefusal(req, state, body.captcha)
    if (refusal) {
      // An unsolved or invalid captcha is not a password attempt: nothing is counted.
      log.info('auth.login.refused', { outcome: refusal, ip, method })
      return sendError(res, 400, refusal)
    }
    const punter = found && (await findPunterById(deps.data, found.id))
    const hasher = passwordHasherFor(db)
    // Exactly one verification on every path: a dummy hash when no punter matches.
    const passwordOk = await hasher.verify(punter?.passwordHash ?? (await hasher.dummyHash()), body.password)
    const locked = isLocked(state)
    if (!punter || !passwordOk || locked) {
      // Log the reason for the audit trail; the answer is the same for all three.
      log.info('auth.login.failed', { reason: !punter ? 'unknown-login' : locked ? 'locked' : 'wrong-password', punterId: punter?.id, ip, method, kind: classified.kind })
      // Attempts while locked are not counted, so a lock ends at most a window after the last failure.
      if (!locked && (await recordFailure(deps.data, keys, deps.now())).lockedNow && punter) notifyOwnerOfLock(req, punter)
      return sendError(res, LOGIN_FAILED.status, LOGIN_FAILED.code)
    }
    await clearFailures(deps.data.db, keys)

    const after = deps.now()
    if (!punter.emailConfirmed && punter.email) {
      log.info('auth.login.refused', { outcome: 'CANNOT_LOGIN_NO_EMAIL_CONFIRMED', punterId: punter.id })
      return sendError(res, 403, 'CANNOT_LOGIN_NO_EMAIL_CONFIRMED', { confirmationToken: await issueConfirmationToken(deps.data, punter.id, 'email', after), email: punter.email })
    }
    if (!punter.phoneConfirmed && punter.phone) {
      log.info('auth.login.refused', { outcome: 'CANNOT_LOGIN_PENDING_CONFIRMATION', punterId: punter.id })
      return sendError(res, 403, 'CANNOT_LOGIN_PENDING_CONFIRMATION', { confirmationToken: await issueConfirmationToken(deps.data, punter.id, 'phone', after), phoneNumber: punter.phone })
    }
    if (punter.loginDeniedUntil !== null && punter.loginDeniedUntil > after) {
      log.info('auth.login.refused', { outcome: 'LOGIN_DENIED_BY_PERMISSION', punterId: punter.id })
      return sendError(res, 403, 'LOGIN_DENIED_BY_PERMISSION', { disabledUntil: new Date(punter.loginDeniedUntil).toISOString() })
    }
    const excluded = await selfExclusionAtLogin(deps.data, punter, after)
    if (excluded) {
      log.info('auth.login.refused', { outcome: excluded.code, punterId: punter.id })
      return sendError(res, 403, excluded.code, excluded.payload)
    }

    const session = await createSession(deps.data, punter.id, { rememberMe: body.rememberMe === true || body.keepPunterLoggedIn === true }, after)
    await recordLogin(deps.data, punter.id, after)
    log.info('auth.login.succeeded', { punterId: punter.id, ip, method, kind: classified.kind, state: punter.state })
    res.setHeader(HEADERS.sessionHash, session.sessionHash)
    sendOk(res, loginResult(session, classified.kind))
  }

  router.post('/auth/v2/login', validateBody(LOGIN_SCHEMA), async (req, res) => {
    const body = req.body as LoginBody
    const { site } = siteContext(req, deps)
    const classified = classifyLogin(body.login!, site.country)
    if (classified.kind === 'phone_number') return sendError(res, 400, AUTH_TYPE_NEEDED.phone_number, { login: classified.value })
    await login(req, res, classified, body, 'login')
  })

  router.post('/auth/v2/login/phone-number', validateBody(PHONE_LOGIN_SCHEMA), async (req, res) => {
    const body = req.body as LoginBody
    const { site } = siteContext(req, deps)
    const classified = classifyPhoneLogin(body.phoneNumber!, site.country)
    if (classified.kind !== 'phone_number' && classified.kind !== 'other') return sendError(res, 400, AUTH_TYPE_NEEDED[classified.kind], { login: classified.value })
    await login(req, res, classified, body, 'phone')
  })

  // `purpose`: the call the answer is for (a NONCE is good for that call only); default login
  router.get('/auth/captcha/challenge', validateQuery(CHALLENGE_QUERY), async (req, res) => {
    const pow = powConfig(remoteConfigFor(deps, req))
    const purpose = (req.query.purpose as NoncePurpose | undefined) ?? 'login'
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, (await otherChallenge(deps, siteCaptcha(deps, req), purpose)) ?? (await captcha.challenge(pow)))
  })

  /** The owner's unlock link (./unlock.ts): the same redirect whether or not the token was good. */
  router.get('/auth/login/unlock', async (req, res) => {
    const token = typeof req.query.token === 'string' && req.query.token.length <= 200 ? req.query.token : ''
    const punterId = token ? await useUnlockToken(deps, token, (id) => findPunterById(deps.data, id)) : undefined
    log.info('auth.unlock', { punterId, ok: punterId !== undefined, by: 'link' })
    res.redirect(303, '/')
  })

  router.post('/auth/login/unlock', validateBody(UNLOCK_SCHEMA), async (req, res) => {
    const punterId = await useUnlockToken(deps, (req.body as { token: string }).token, (id) => findPunterById(deps.data, id))
    log.info('auth.unlock', { punterId, ok: punterId !== undefined, by: 'api' })
    if (punterId === undefined) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    sendOk(res, { unlocked: true })
  })

  router.post('/auth/v2/token/refresh', validateBody(REFRESH_SCHEMA), async (req, res) => {
    const outcome = await refreshSession(deps.data, (req.body as { token: string }).token, deps.now())
    if (!outcome.ok) {
      log.warn('auth.refresh.refused', { reuse: outcome.reuse === true })
      // 401: the session is over (spec §8); the client's gateway keeps this code (reason RT_EXPIRED).
      return sendError(res, 401, outcome.code)
    }
    const { punterId, ...tokens } = outcome.value
    log.info('auth.refresh.rotated', { punterId })
    sendOk(res, { status: 'OK', ...tokens, punterToken: userData((await findPunterById(deps.data, punterId))!, 'en').punterToken })
  })

  /** Logout by refresh token (plain-text body): ends every session of its punter. */
  router.post('/auth/token/logout', async (req, res) => {
    if (!req.is('text/plain')) return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType)
    const token = typeof req.body === 'string' ? req.body.trim() : ''
    if (token.length === 0 || token.length > 200) return sendError(res, 400, HTTP_ERRORS.validation, { field: '', code: 'token' })
    // Only a live session's token ends the punter's sessions: a device already logged out (its
    // session ended by a password change elsewhere) must not log out the device that changed it.
    const punterId = await punterOfLiveRefreshToken(deps.data, token)
    if (punterId !== undefined) {
      const ended = await revokeAllSessions(deps.data, punterId, 'logout', deps.now())
      log.info('auth.logout', { punterId, sessions: ended, by: 'refresh-token' })
    } else log.info('auth.logout.ignored', { by: 'refresh-token', reason: 'no-live-session' })
    // The same answer whether or not the token was known.
    sendOk(res, null)
  })

  /** Plain logout: by the session hash; also ends every session of the punter. */
  router.post('/auth/logout', noBody(), async (req, res) => {
    const session = await authenticate(deps.data, req.header(HEADERS.sessionHash), undefined, Number.NEGATIVE_INFINITY)
    if (session) {
      const ended = await revokeAllSessions(deps.data, session.punterId, 'logout', deps.now())
      log.info('auth.logout', { punterId: session.punterId, sessions: ended, by: 'session-hash' })
    }
    sendOk(res, null)
  })

  router.get('/heartbeat', requireSessionWithInbox, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    const { punter, inboxStatistics } = req.punterSession!
    const bonusAccounts = await bonusAccountsView(deps.data, punter.id, deps.now())
    sendOk(res, { ...userData(punter, siteContext(req, deps).locale, bonusAccounts), restrictions: restrictionsView(punter, jurisdictionFor(deps, req), deps.now()), realityCheckAccepted: punter.profile.realityCheck !== undefined, inboxStatistics })
  })

  router.get('/auth/punter-session/expiration-timeout', requireSession, async (req, res) => {
    sendOk(res, await sessionExpiration(deps.data, req.punterSession!.sessionId, deps.now()))
  })

  router.put('/punter/settings', requireSession, validateBody(SERVER_SETTINGS_SCHEMA), async (req, res) => {
    // a language the punter's site does not offer would never show: refused, not stored
    const locale = (req.body as { locale?: string }).locale
    if (locale !== undefined && !siteContext(req, deps).site.locales.includes(locale)) return sendError(res, 400, 'ValidationError', { field: 'locale', code: 'enum' })
    const saved = await saveServerSettings(deps.data, req.punterSession!.punterId, req.body as Record<string, unknown>, deps.now())
    log.info('punter.settings.saved', { punterId: req.punterSession!.punterId, keys: Object.keys(req.body as object) })
    // the punter's other browsers and devices apply the change at once (spec §3 settingsUpdate)
    emitPunterEvent('settingsUpdate', { punterId: req.punterSession!.punterId, settings: saved, changed: Object.keys(req.body as object) })
    sendOk(res, saved)
  })

  router.post('/punter/legal-aggreement', requireSession, validateBody(LEGAL_AGREEMENT_SCHEMA), async (req, res) => {
    const accepted = (req.body as { accepted: boolean }).accepted
    await setLegalAgreement(deps.data, req.punterSession!.punterId, accepted ? 'accepted' : 'declined', deps.now())
    log.info('punter.legal-agreement', { punterId: req.punterSession!.punterId, accepted })
    sendOk(res, { legalAgreementAccepted: accepted })
  })

  router.get('/nickname/enabled', requireSession, (req, res) => {
    const punter = req.punterSession!.punter
    // one source: the jurisdiction document's nickname block (server/identity/nickname.ts)
    sendOk(res, nicknameEnabledFor(deps, req, punter))
  })

  router.get('/account/first-deposit-date', requireSession, (req, res) => {
    sendOk(res, req.punterSession!.punter.firstDepositDate)
  })

  router.get('/punter/vip/is-punter-vip', requireSession, (req, res) => {
    sendOk(res, req.punterSession!.punter.vip)
  })

  router.get('/punter/identity', requireSession, (req, res) => {
    const punter = req.punterSession!.punter
    sendOk(res, {
      punterIdentityState: punter.identityState,
      identified: ['simple_success', 'bind'].includes(punter.identityState),
      identityCheckedManual: punter.profile.identityCheckedManual ?? false,
      needUploadDocuments: punter.profile.needUploadDocuments ?? false,
    })
  })

  return router
}

/** Blocking (back office, self-exclusion): moves the status (refused when the account-status rule
 * does not allow the move, e.g. out of a closed account), then ends every session (a failure between leaves the block in force). */
export async function blockPunter(deps: Pick<ServerDeps, 'db' | 'data' | 'log' | 'now'>, punterId: number, state: string): Promise<void> {
  await movePunterStatus(deps.data, punterId, state, deps.now())
  const ended = await revokeAllSessions(deps.data, punterId, 'blocked', deps.now())
  deps.log.info('punter.blocked', { punterId, state, sessions: ended })
}
