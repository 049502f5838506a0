/**
 * The two login calls (spec §7 "Session and user": by login, by phone number) as named handlers
 * of one login kit, and the steps of an attempt: the captcha gate, one password verification, the
 * account's own refusals, the session.
 *
 * Login answers for an unknown login, a wrong password and a throttled (locked) login are the same
 * code, status and shape, and each runs one argon2 verify, so none of them tells which logins
 * exist. Answers that do depend on the account (unconfirmed e-mail or phone, denied by
 * permission) are only given after the right password.
 */
import type { Request, RequestHandler, Response } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import { AUTH_TYPE_NEEDED, classifyLogin, classifyPhoneLogin, type ClassifiedLogin } from '../../kernel/auth/login-classification'
import type { ServerDeps } from '../deps'
import { remoteConfigFor } from '../documents/router'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { findPunterById, findPunterByLogin, recordLogin, type Punter } from '../punters/repository'
import { passwordHasherFor } from '../punters/password'
import { selfExclusionAtLogin } from '../regulation/self-exclusion'
import { powConfig, type CaptchaService } from './captcha'
import { verifyCaptcha } from './captcha-gate'
import { issueConfirmationToken } from './confirmation-tokens'
import { notifyOwnerOfLock } from './lock-notice'
import type { LoginBody } from '../../kernel/auth/login-classification'
import { createSession, loginResult } from './sessions'
import { clearFailures, isLocked, needsCaptcha, recordFailure, throttleState, type createLanes, type ThrottleState } from './throttle'

/** The one answer for unknown login, wrong password and locked login. */
export const LOGIN_FAILED = { status: 400, code: 'INCORRECT_PASSWORD' } as const


/** What the login handlers share: the deps, the proof-of-work captcha and the per-account lanes. */
export interface LoginKit {
  deps: ServerDeps
  captcha: CaptchaService
  inLane: ReturnType<typeof createLanes>
}

/** One login attempt: what was typed, how it classified, and the punter it names (if any). */
interface Attempt {
  classified: ClassifiedLogin
  body: LoginBody
  method: 'login' | 'phone'
  ip: string
  loginValue: string
  found: Punter | undefined
}

/** The captcha gate: undefined when the attempt may go on, else the refusal code. Counts nothing. */
async function captchaRefusal({ deps, captcha }: LoginKit, req: Request, state: ThrottleState, captchaPayload: string | undefined): Promise<string | undefined> {
  if (!powConfig(remoteConfigFor(deps, req)).enabled || !needsCaptcha(state)) return undefined
  if (!captchaPayload) return 'CAPTCHA_REQUIRED'
  return (await verifyCaptcha(deps, req, captcha, captchaPayload, 'login')) ? undefined : 'INVALID_CAPTCHA'
}

/**
 * Why an account whose password was right may not log in yet, first reason first: an unconfirmed
 * e-mail, then an unconfirmed phone (each only when the account has one), then a login denial
 * still in force at `now`. Undefined: nothing of the account's own stands in the way.
 */
export function pendingLoginRefusal(
  punter: Pick<Punter, 'email' | 'emailConfirmed' | 'phone' | 'phoneConfirmed' | 'loginDeniedUntil'>,
  now: number,
): { kind: 'confirm-email'; email: string } | { kind: 'confirm-phone'; phone: string } | { kind: 'denied'; until: number } | undefined {
  if (!punter.emailConfirmed && punter.email) return { kind: 'confirm-email', email: punter.email }
  if (!punter.phoneConfirmed && punter.phone) return { kind: 'confirm-phone', phone: punter.phone }
  if (punter.loginDeniedUntil !== null && punter.loginDeniedUntil > now) return { kind: 'denied', until: punter.loginDeniedUntil }
  return undefined
}

/** The 403 answer for an account that may not log in (pendingLoginRefusal, then self-exclusion), logged; undefined when it may. */
async function accountRefusal(deps: ServerDeps, punter: Punter, now: number): Promise<{ code: string; payload: unknown } | undefined> {
  const pending = pendingLoginRefusal(punter, now)
  const refused = (code: string) => deps.log.info('auth.login.refused', { outcome: code, punterId: punter.id })
  if (pending?.kind === 'confirm-email') {
    refused('CANNOT_LOGIN_NO_EMAIL_CONFIRMED')
    return { code: 'CANNOT_LOGIN_NO_EMAIL_CONFIRMED', payload: { confirmationToken: await issueConfirmationToken(deps.data, punter.id, 'email', now), email: pending.email } }
  }
  if (pending?.kind === 'confirm-phone') {
    refused('CANNOT_LOGIN_PENDING_CONFIRMATION')
    return { code: 'CANNOT_LOGIN_PENDING_CONFIRMATION', payload: { confirmationToken: await issueConfirmationToken(deps.data, punter.id, 'phone', now), phoneNumber: pending.phone } }
  }
  if (pending?.kind === 'denied') {
    refused('LOGIN_DENIED_BY_PERMISSION')
    return { code: 'LOGIN_DENIED_BY_PERMISSION', payload: { disabledUntil: new Date(pending.until).toISOString() } }
  }
  const excluded = await selfExclusionAtLogin(deps.data, punter, now)
  if (excluded) refused(excluded.code)
  return excluded && { code: excluded.code, payload: excluded.payload }
}

/**
 * The throttle, the captcha gate and exactly one password verification: the punter when the
 * password was right and no lock is in force (its failures cleared), else undefined with the
 * answer sent (a refused captcha, or the one LOGIN_FAILED answer).
 */
async function passwordCheckedPunter(kit: LoginKit, req: Request, res: Response, { classified, body, method, ip, loginValue, found }: Attempt): Promise<Punter | undefined> {
  const { deps } = kit
  const keys = { login: loginValue, accountId: found?.id, client: ip }
  const state = await throttleState(deps.data.db, keys, deps.now())
  const refusal = await captchaRefusal(kit, req, state, body.captcha)
  if (refusal) {
    // An unsolved or invalid captcha is not a password attempt: nothing is counted.
    deps.log.info('auth.login.refused', { outcome: refusal, ip, method })
    sendError(res, 400, refusal)
    return undefined
  }
  const punter = found && (await findPunterById(deps.data, found.id))
  const hasher = passwordHasherFor(deps.db)
  // Exactly one verification on every path: a dummy hash when no punter matches.
  const passwordOk = await hasher.verify(punter?.passwordHash ?? (await hasher.dummyHash()), body.password)
  const locked = isLocked(state)
  if (!punter || !passwordOk || locked) {
    // Log the reason for the audit trail; the answer is the same for all three.
    deps.log.info('auth.login.failed', { reason: !punter ? 'unknown-login' : locked ? 'locked' : 'wrong-password', punterId: punter?.id, ip, method, kind: classified.kind })
    // Attempts while locked are not counted, so a lock ends at most a window after the last failure.
    if (!locked && (await recordFailure(deps.data, keys, deps.now())).lockedNow && punter) notifyOwnerOfLock(deps, req, punter)
    sendError(res, LOGIN_FAILED.status, LOGIN_FAILED.code)
    return undefined
  }
  await clearFailures(deps.data.db, keys)
  return punter
}

async function attempt(kit: LoginKit, req: Request, res: Response, attempted: Attempt) {
  const { deps } = kit
  const punter = await passwordCheckedPunter(kit, req, res, attempted)
  if (!punter) return
  const after = deps.now()
  const refused = await accountRefusal(deps, punter, after)
  if (refused) return sendError(res, 403, refused.code, refused.payload)

  const { body, ip, method, classified } = attempted
  const session = await createSession(deps.data, punter.id, { rememberMe: body.rememberMe === true || body.keepPunterLoggedIn === true }, after)
  await recordLogin(deps.data, punter.id, after)
  deps.log.info('auth.login.succeeded', { punterId: punter.id, ip, method, kind: classified.kind, state: punter.state })
  res.setHeader(HEADERS.sessionHash, session.sessionHash)
  sendOk(res, loginResult(session, classified.kind))
}

async function login(kit: LoginKit, req: Request, res: Response, classified: ClassifiedLogin, body: LoginBody, method: 'login' | 'phone') {
  const { deps } = kit
  const { site } = siteContext(req, deps)
  const ip = req.ip ?? 'unknown'
  const loginValue = `${classified.kind}:${classified.value}`
  const found = await findPunterByLogin(deps.data, site.jurisdiction, classified.kind, classified.value)
  // One account's attempts (or one unknown identifier's) run one after another.
  await kit.inLane(found ? `account:${found.id}` : `login:${loginValue.toLowerCase()}`, () => attempt(kit, req, res, { classified, body, method, ip, loginValue, found }))
}

/** POST /auth/v2/login: an e-mail, nickname or other login (a phone number is told to use the phone call). */
export function loginByLogin(kit: LoginKit): RequestHandler {
  return async (req, res) => {
    const body = req.body as LoginBody
    const { site } = siteContext(req, kit.deps)
    const classified = classifyLogin(body.login!, site.country)
    if (classified.kind === 'phone_number') return sendError(res, 400, AUTH_TYPE_NEEDED.phone_number, { login: classified.value })
    await login(kit, req, res, classified, body, 'login')
  }
}

/** POST /auth/v2/login/phone-number: a phone number (an e-mail or nickname is told to use its call). */
export function loginByPhoneNumber(kit: LoginKit): RequestHandler {
  return async (req, res) => {
    const body = req.body as LoginBody
    const { site } = siteContext(req, kit.deps)
    const classified = classifyPhoneLogin(body.phoneNumber!, site.country)
    if (classified.kind !== 'phone_number' && classified.kind !== 'other') return sendError(res, 400, AUTH_TYPE_NEEDED[classified.kind], { login: classified.value })
    await login(kit, req, res, classified, body, 'phone')
  }
}
