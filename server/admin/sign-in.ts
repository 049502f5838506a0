/**
 * Admin sign-in in two steps (issue 30):
 *
 *   POST /admin/api/login                 e-mail + password → a challenge: `totp` (enrolled) or
 *                                         `enrol` (first sign-in: a new secret, as text, otpauth URI and QR code)
 *   POST /admin/api/login/second-factor   challenge + TOTP code, or + a recovery code → the session
 *   POST /admin/api/login/enrol           challenge + the first code from the new secret → the
 *                                         session and ten recovery codes, shown this once
 *
 * and, through `account`, the signed-in admin's own routes (./account.ts).
 * Throttling without enumeration: the password step counts failures per e-mail and per address
 * (10 in 15 minutes, then 429 for any e-mail, known or not, disabled or not — the same answer); a
 * challenge takes 5 codes, and an admin 10 failed codes in 15 minutes across challenges. Every
 * decision is an audit entry. The demo's accounts (demo start only) may reuse a code within its
 * window: their secrets are published, so refusing a replay of them proves nothing.
 */
import { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { busOf, type Bus } from '../bus'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { currentCheckpoint } from '../store/audit'
import { checkPassword, openSession, SESSION_MS, type AdminUser } from './accounts'
import { CHALLENGE_MS, claimStep, enrol, newRecoveryCodes, openChallenge, spendChallenge, takeAttempt, totpStepOf, useRecoveryCode, type ChallengeAttempt } from './second-factor'
import { createAccountRouter } from './account'
import { enrolmentOf } from './enrolment'
import type { Audit, SessionOf, Throttle } from './sign-in-types'

export const ADMIN_COOKIE = 'parlay_admin'
const WINDOW_MS = 15 * 60 * 1000
const MAX_FAILURES = 10

/** Failure counters on the bus, so every instance sees them (Redis away: the callers answer 503). */
export function createThrottle(bus: Bus): Throttle {
  const key = (k: string) => `admin-login:${k}`
  return {
    blocked: async (keys: string[]) => (await Promise.all(keys.map((k) => bus.count(key(k))))).some((n) => n >= MAX_FAILURES),
    fail: async (keys: string[]) => void (await Promise.all(keys.map((k) => bus.hit(key(k), WINDOW_MS)))),
    clear: (k: string) => bus.forget(key(k)),
  }
}

const CODE = { type: 'string', minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' }
const CHALLENGE = { type: 'string', minLength: 20, maxLength: 100 }
const loginSchema = {
  type: 'object',
  required: ['email', 'password'],
  properties: { email: { type: 'string', minLength: 3, maxLength: 254 }, password: { type: 'string', minLength: 1, maxLength: 200 } },
  additionalProperties: false,
}
const secondFactorSchema = {
  type: 'object',
  required: ['challenge'],
  properties: { challenge: CHALLENGE, code: CODE, recoveryCode: { type: 'string', minLength: 12, maxLength: 20, pattern: '^[A-Za-z0-9 -]+$' } },
  oneOf: [{ required: ['code'] }, { required: ['recoveryCode'] }],
  additionalProperties: false,
}
const enrolSchema = { type: 'object', required: ['challenge', 'code'], properties: { challenge: CHALLENGE, code: CODE }, additionalProperties: false }
/** Paths under /admin/api that need no session (the router's authentication skips them). */
export const SIGN_IN_PATHS: ReadonlySet<string> = new Set(['/login', '/login/second-factor', '/login/enrol'])

export type { Audit, SessionOf, Throttle } from './sign-in-types'

export function createSignInRouter(deps: ServerDeps, audit: Audit, adminsReady: Promise<unknown>): { signIn: Router; account: (sessionOf: SessionOf) => Router } {
  const signIn = Router()
  const throttle = createThrottle(busOf(deps))
  const guarded = async (res: Response, keys: string[]): Promise<boolean> => {
    // fails closed: without the shared counters no password or code is tried
    const blocked = await throttle.blocked(keys).catch(() => undefined)
    if (blocked === undefined) sendError(res, 503, 'SERVICE_UNAVAILABLE')
    else if (blocked) sendError(res, 429, HTTP_ERRORS.tooManyRequests)
    return blocked === false
  }

  signIn.post('/admin/api/login', validateBody(loginSchema), async (req, res) => {
    const { email, password } = req.body as { email: string; password: string }
    const keys = [`email:${email.toLowerCase()}`, `ip:${req.ip}`]
    if (!(await guarded(res, keys))) return
    await adminsReady
    const user = await checkPassword(deps.data, email, password)
    if (!user || user.disabled) {
      await throttle.fail(keys).catch(() => undefined)
      await audit(email.toLowerCase().slice(0, 254), 'admin.login-failed', 'admin', user?.disabled ? { reason: 'disabled' } : {})
      return sendError(res, 401, 'INVALID_CREDENTIALS')
    }
    const step = user.totpSecret ? 'totp' : 'enrol'
    const { token, secret } = await openChallenge(deps.data, deps.totpKeys, user, step, deps.now())
    await audit(user.email, 'admin.password-accepted', 'admin', { next: step })
    sendOk(res, { step, challenge: token, expiresInSeconds: CHALLENGE_MS / 1000, ...(secret ? { enrolment: await enrolmentOf(secret, user.email) } : {}) })
  })

  const { attempt, refuse, open, codeAccepted } = secondStep(deps, audit, throttle, guarded)

  signIn.post('/admin/api/login/second-factor', validateBody(secondFactorSchema), async (req, res) => {
    const { code, recoveryCode } = req.body as { code?: string; recoveryCode?: string }
    const found = await attempt(req, res, 'totp')
    if (!found) return
    const { user, challenge } = found
    if (recoveryCode !== undefined) {
      const left = await useRecoveryCode(deps.data, user.id, recoveryCode, deps.now())
      if (left === null) return refuse(res, user, 'wrong-recovery-code')
      await audit(user.email, 'admin.recovery-code-used', 'admin', { left })
      await audit(user.email, 'admin.login', 'admin', { role: user.role, factor: 'recovery-code' })
      return open(req, res, user, challenge, { recoveryCodesLeft: left })
    }
    const verdict = user.totpSecret === null ? 'unreadable-secret' : await codeAccepted(user, user.totpSecret, code!)
    if (verdict !== 'ok') return refuse(res, user, verdict)
    await audit(user.email, 'admin.login', 'admin', { role: user.role, factor: 'totp' })
    await open(req, res, user, challenge, {})
  })

  signIn.post('/admin/api/login/enrol', validateBody(enrolSchema), async (req, res) => {
    const found = await attempt(req, res, 'enrol')
    if (!found) return
    const { user, challenge } = found
    const secret = challenge.secret && deps.totpKeys.open(challenge.secret, user.email)
    if (!secret) return sendError(res, 401, 'SIGN_IN_EXPIRED')
    const verdict = await codeAccepted(user, secret, (req.body as { code: string }).code)
    if (verdict !== 'ok') return refuse(res, user, verdict)
    if (!(await enrol(deps.data, deps.totpKeys, user, secret, deps.now()))) return sendError(res, 409, 'ALREADY_ENROLLED')
    const recoveryCodes = await newRecoveryCodes(deps.data, user.id, deps.now())
    await audit(user.email, 'admin.two-factor-enrolled', 'admin', { method: 'totp', recoveryCodes: recoveryCodes.length })
    await audit(user.email, 'admin.login', 'admin', { role: user.role, factor: 'totp' })
    await open(req, res, user, challenge, { recoveryCodes })
  })

  const account = (sessionOf: SessionOf) => createAccountRouter(deps, audit, sessionOf, throttle)
  return { signIn, account }
}

type StepUser = AdminUser & { demo: boolean; totpSecret: string | null }

/** The second step's parts: a counted attempt on a challenge, a refusal, the session it opens, the code's check. */
function secondStep(deps: ServerDeps, audit: Audit, throttle: Throttle, guarded: (res: Response, keys: string[]) => Promise<boolean>) {
  /** The challenge's admin after one counted attempt, or the answer already sent. */
  const attempt = async (req: Request, res: Response, purpose: 'totp' | 'enrol'): Promise<{ challenge: ChallengeAttempt; user: StepUser } | undefined> => {
    const challenge = await takeAttempt(deps.data, (req.body as { challenge: string }).challenge, deps.now())
    if (!challenge || challenge.purpose !== purpose) {
      sendError(res, 401, 'SIGN_IN_EXPIRED')
      return undefined
    }
    const row = await deps.data.db
      .selectFrom('admin_users')
      .select(['id', 'email', 'name', 'role', 'demo', 'totp_secret', 'totp_key_id', 'disabled_at'])
      .where('id', '=', challenge.userId)
      .executeTakeFirst()
    if (!row || row.disabled_at !== null) {
      sendError(res, 401, 'SIGN_IN_EXPIRED')
      return undefined
    }
    if (!(await guarded(res, [`factor:${row.id}`]))) return undefined
    // the secret opened here only (null when it does not open: the code is then refused, never a 500)
    const stored = row.totp_secret && row.totp_key_id ? { sealed: row.totp_secret, keyId: row.totp_key_id } : undefined
    const totpSecret = (stored && deps.totpKeys.open(stored, row.email)) ?? null
    if (stored && totpSecret === null) deps.log.error('admin.totp-secret.unreadable', { admin: row.email, keyId: row.totp_key_id })
    return { challenge, user: { id: Number(row.id), email: row.email, name: row.name, role: row.role, demo: row.demo === 1, totpSecret } }
  }
  const refuse = async (res: Response, user: AdminUser, reason: string) => {
    await throttle.fail([`factor:${user.id}`]).catch(() => undefined)
    await audit(user.email, 'admin.second-factor-failed', 'admin', { reason })
    sendError(res, 401, 'INVALID_CODE')
  }
  const open = async (req: Request, res: Response, user: AdminUser, challenge: ChallengeAttempt, extra: Record<string, unknown>) => {
    await spendChallenge(deps.data, challenge.tokenHash)
    await throttle.clear(`email:${user.email.toLowerCase()}`).catch(() => undefined)
    await throttle.clear(`factor:${user.id}`).catch(() => undefined)
    const { token, csrf } = await openSession(deps.data, user, deps.now())
    const secure = req.secure ? '; Secure' : ''
    res.setHeader('Set-Cookie', `${ADMIN_COOKIE}=${token}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure}`)
    sendOk(res, { user: { id: user.id, email: user.email, name: user.name, role: user.role }, csrf, checkpoint: await currentCheckpoint(deps.data, deps.now()), ...extra })
  }
  /** A TOTP code: valid for the secret now, and its time step not used before (a demo account excepted). */
  const codeAccepted = async (user: { id: number; demo: boolean }, secret: string, code: string): Promise<'ok' | 'wrong-code' | 'replayed'> => {
    const step = totpStepOf(secret, code, deps.now())
    if (step === null) return 'wrong-code'
    const fresh = await claimStep(deps.data, user.id, step, deps.now())
    return fresh || (deps.config.demo && user.demo) ? 'ok' : 'replayed'
  }

  return { attempt, refuse, open, codeAccepted }
}
