/**
 * The session and user calls of the mobile gate (spec §7 "Session and user"), one envelope each:
 * the routes, in order, with their request schemas and middleware. The handlers are named, one
 * file per resource: the logins (./login.ts), the session (./session-handlers.ts), the unlock
 * link (./unlock-handlers.ts), the captcha challenge (./captcha-challenge.ts) and the punter's own
 * calls (./punter-handlers.ts).
 */
import { Router, type NextFunction, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { validateBody, validateQuery, noBody } from '../http/validate'
import { SERVER_SETTINGS_SCHEMA, movePunterStatus } from '../punters/repository'
import { captchaServiceFor, type CaptchaService } from './captcha'
import { captchaChallenge } from './captcha-challenge'
import { NONCE_PURPOSES } from './captcha-nonce'
import { loginByLogin, loginByPhoneNumber } from './login'
import { firstDepositDate, heartbeat, isPunterVip, legalAgreement, nicknameEnabled, punterIdentity, saveSettings } from './punter-handlers'
import { logoutByRefreshToken, logoutBySessionHash, refreshTokens, sessionExpirationTimeout } from './session-handlers'
import { revokeAllSessions } from './sessions'
import { requirePunterSession } from './session-check'
import { createLanes } from './throttle'
import { unlockByApi, unlockByLink } from './unlock-handlers'

export {
  consumeConfirmationToken,
  dropConfirmationTokens,
  issueConfirmationToken,
  q061AuthConfirmationTokens,
  sqlite105AuthConfirmationTokens,
} from './confirmation-tokens'
export { LOGIN_FAILED } from './login'

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

const CHALLENGE_QUERY = { type: 'object', properties: { purpose: { enum: [...NONCE_PURPOSES] } }, additionalProperties: false }

export function createAuthRouter(deps: ServerDeps, captcha: CaptchaService = captchaServiceFor(deps.data, deps.now)): Router {
  const router = Router()

  // Answers carrying tokens must never be stored by a cache (RFC 6749 §5.1): every auth call.
  router.use('/auth', noStore)

  /** Session check: punter-session-hash header (+ optional Bearer access token) → 401 if not live. */
  const requireSession = requirePunterSession(deps)
  /** The heartbeat's: the inbox counts come with the session and the punter in one statement. */
  const requireSessionWithInbox = requirePunterSession(deps, { withInboxStatistics: true })
  const login = { deps, captcha, inLane: createLanes() }

  router.post('/auth/v2/login', validateBody(LOGIN_SCHEMA), loginByLogin(login))
  router.post('/auth/v2/login/phone-number', validateBody(PHONE_LOGIN_SCHEMA), loginByPhoneNumber(login))
  router.get('/auth/captcha/challenge', validateQuery(CHALLENGE_QUERY), captchaChallenge(deps, captcha))
  router.get('/auth/login/unlock', unlockByLink(deps))
  router.post('/auth/login/unlock', validateBody(UNLOCK_SCHEMA), unlockByApi(deps))
  router.post('/auth/v2/token/refresh', validateBody(REFRESH_SCHEMA), refreshTokens(deps))
  router.post('/auth/token/logout', logoutByRefreshToken(deps))
  router.post('/auth/logout', noBody(), logoutBySessionHash(deps))

  router.get('/heartbeat', requireSessionWithInbox, heartbeat(deps))
  router.get('/auth/punter-session/expiration-timeout', requireSession, sessionExpirationTimeout(deps))
  router.put('/punter/settings', requireSession, validateBody(SERVER_SETTINGS_SCHEMA), saveSettings(deps))
  router.post('/punter/legal-aggreement', requireSession, validateBody(LEGAL_AGREEMENT_SCHEMA), legalAgreement(deps))
  router.get('/nickname/enabled', requireSession, nicknameEnabled(deps))
  router.get('/account/first-deposit-date', requireSession, firstDepositDate)
  router.get('/punter/vip/is-punter-vip', requireSession, isPunterVip)
  router.get('/punter/identity', requireSession, punterIdentity)

  return router
}

/** Blocking (back office, self-exclusion): moves the status (refused when the account-status rule
 * does not allow the move, e.g. out of a closed account), then ends every session (a failure between leaves the block in force). */
export async function blockPunter(deps: Pick<ServerDeps, 'db' | 'data' | 'log' | 'now'>, punterId: number, state: string): Promise<void> {
  await movePunterStatus(deps.data, punterId, state, deps.now())
  const ended = await revokeAllSessions(deps.data, punterId, 'blocked', deps.now())
  deps.log.info('punter.blocked', { punterId, state, sessions: ended })
}
