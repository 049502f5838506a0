/**
 * Logins by one-time token (spec §7): `GET auth/token/obtain` hands a logged-in punter a token
 * that `POST auth/v2/login-by-authentication-token` exchanges, once, within two minutes, for a
 * new session of its own (the app hands a session to the browser, or the reverse); and
 * `POST /punter/open-profile {openToken}` answers a login result for a profile that may open
 * again (its self-exclusion is over) or, while it is still excluded, the exclusion as the error
 * payload (spec §8 "self-exclude open-profile info passed through"). Open tokens are issued by
 * whoever refuses such a login (`issueOpenProfileToken`).
 */
import type { Request, Response, Router } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import { createSession, loginResult } from '../auth/sessions'
import { noStore } from '../auth/router'
import type { Db } from '../db/database'
import { accountStatusOf } from '../../kernel/punters/account-statuses'
import { sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { findPunterById, recordLogin, type Punter } from '../punters/repository'
import { changePunterProfile } from '../punters/lookups'
import type { CredentialsContext } from './context'
import { LOGIN_BY_TOKEN_SCHEMA, OPEN_PROFILE_SCHEMA } from './schemas'
import { SECRET_RULES, consumeSecret, newToken, storeSecret } from './store'

export { issueOpenProfileToken } from './open-token'

/** Every self-exclusion status (kernel/punters/account-statuses.ts), by its state or its spec name. */
const isExcludedState = (state: string) => accountStatusOf(state)?.group === 'self-exclusion'

/** Still excluded: a permanent exclusion, or one whose end date is still ahead. */
function stillExcluded(punter: Punter, now: number): boolean {
  if (!isExcludedState(punter.state)) return false
  const exclusion = punter.profile.selfExclude
  if (!exclusion || exclusion.permanent || exclusion.selfExcludedByRegulator) return true
  return exclusion.endDate === null || Date.parse(exclusion.endDate) > now
}

async function openSession(ctx: CredentialsContext, res: Response, punter: Punter, loginByAuthType: string, extra: Record<string, unknown> = {}) {
  const now = ctx.deps.now()
  const session = await createSession(ctx.deps.data, punter.id, { rememberMe: false }, now)
  await recordLogin(ctx.deps.data, punter.id, now)
  res.setHeader(HEADERS.sessionHash, session.sessionHash)
  return { ...loginResult(session, loginByAuthType), ...extra }
}

export function mountTokenLogin(router: Router, ctx: CredentialsContext): void {
  const { deps } = ctx
  const { db, log } = deps

  router.get('/auth/token/obtain', noStore, ctx.requireSession, async (req: Request, res: Response) => {
    const token = newToken()
    await storeSecret(deps.data, { kind: 'auth-token', punterId: req.punterSession!.punterId, token, ttlMs: SECRET_RULES.authTokenMs }, deps.now())
    log.info('credentials.auth-token.issued', { punterId: req.punterSession!.punterId })
    sendOk(res, { token, expiresInMillis: SECRET_RULES.authTokenMs })
  })

  router.post('/auth/v2/login-by-authentication-token', noStore, validateBody(LOGIN_BY_TOKEN_SCHEMA), async (req, res) => {
    const now = deps.now()
    const secret = await consumeSecret(deps.data, 'auth-token', (req.body as { token: string }).token, now)
    const punter = secret?.punterId != null ? await findPunterById(deps.data, secret.punterId) : undefined
    if (!punter) {
      log.info('credentials.auth-token.refused', {})
      return sendError(res, 400, 'TOKEN_NOT_FOUND')
    }
    if (punter.loginDeniedUntil !== null && punter.loginDeniedUntil > now)
      return sendError(res, 403, 'LOGIN_DENIED_BY_PERMISSION', { disabledUntil: new Date(punter.loginDeniedUntil).toISOString() })
    log.info('credentials.auth-token.login', { punterId: punter.id })
    sendOk(res, await openSession(ctx, res, punter, 'auto_login', { isLoginByAuthToken: true }))
  })

  router.post('/punter/open-profile', noStore, validateBody(OPEN_PROFILE_SCHEMA), async (req, res) => {
    const now = deps.now()
    const secret = await consumeSecret(deps.data, 'open-profile', (req.body as { openToken: string }).openToken, now)
    const punter = secret?.punterId != null ? await findPunterById(deps.data, secret.punterId) : undefined
    res.setHeader('Date', new Date(now).toUTCString()) // the client reads the server date from it (spec §7)
    if (!punter) return sendError(res, 400, 'GENERAL_ERROR')
    if (stillExcluded(punter, now)) {
      log.info('credentials.open-profile.refused', { punterId: punter.id, state: punter.state })
      return sendError(res, 403, 'CUSTOMER_SELFEXCLUDED', { selfExcludeSettings: punter.profile.selfExclude ?? null, state: punter.state })
    }
    if (isExcludedState(punter.state)) {
      // reopened only while the row is still excluded: an operator's block set since the read stays
      await changePunterProfile(deps.data, punter.id, now, ({ profile, state }) => {
        if (!isExcludedState(state)) return undefined
        const reopened = { ...profile }
        delete reopened.selfExclude
        return { profile: reopened, columns: { state: 'OPENED' } }
      })
    }
    log.info('credentials.open-profile.opened', { punterId: punter.id, was: punter.state })
    sendOk(res, { loginResult: await openSession(ctx, res, punter, 'other') })
  })
}
