/**
 * Lost password (spec §3 password flow mode RECOVERING): an e-mail address gets a link, a phone
 * number an SMS code. The answer never says whether the account exists (ASVS 5.0 6.3.8): the same
 * status and fields either way, no password hashing on either path, one stored row either way (a
 * decoy code flow for an unknown phone, which accepts no code), and the message is sent after
 * the answer. Budgets count the address typed and the client, not the account.
 */
import type { Request, Response, Router } from 'express'
import { classifyLogin, classifyPhoneLogin } from '../../kernel/auth/login-classification'
import { clearAccountFailures } from '../auth/throttle'
import { loginIdentifiers } from '../auth/unlock'
import { revokeAllSessions } from '../auth/sessions'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateBody } from '../http/validate'
import { findPunterById, findPunterByLogin, type Punter } from '../punters/repository'
import type { CredentialsContext } from './context'
import { setPassword } from './passwords'
import { RECOVER_CODE_SCHEMA, RECOVER_SCHEMA, PASSWORD_TOKEN_SCHEMA, RESET_SCHEMA } from './schemas'
import { secretQuestionOf } from './secret-question'
import { SECRET_RULES, checkCode, consumeSecret, dropSecrets, newCode, newToken, peekSecret, storeSecret } from './store'
import { clientKey, spend } from './throttle'
import { composeForPunter, composeForRequest } from '../signup/message-texts'
import { chooseCodeChannel, codeTemplate, outboxChannelOf } from '../signup/code-channel'
import { jurisdictionOf } from '../dictionary'

/** Recovery budgets: one message per address per minute, five a day; twenty requests per client an hour. */
export const RECOVERY_BUDGET = { perTargetCooldownMs: 60_000, perTargetPerDay: 5, perClientPerHour: 20 } as const

type Target = { channel: 'email'; email: string } | { channel: 'sms'; phone: string }

function targetOf(login: string, country: string | undefined): Target | undefined {
  const value = login.trim()
  const asLogin = classifyLogin(value)
  if (asLogin.kind === 'email') return { channel: 'email', email: asLogin.value }
  const phone = classifyPhoneLogin(value, country)
  return phone.kind === 'phone_number' ? { channel: 'sms', phone: phone.value } : undefined
}

function budgets(target: Target, ip: string | undefined) {
  const address = target.channel === 'email' ? target.email : target.phone
  return [
    { key: `recover:minute:${address}`, limit: 1, windowMs: RECOVERY_BUDGET.perTargetCooldownMs },
    { key: `recover:day:${address}`, limit: RECOVERY_BUDGET.perTargetPerDay, windowMs: 24 * 3_600_000 },
    { key: `recover:client:${clientKey(ip)}`, limit: RECOVERY_BUDGET.perClientPerHour, windowMs: 3_600_000 },
  ]
}

export function mountRecovery(router: Router, ctx: CredentialsContext): void {
  const { deps } = ctx
  const { log } = deps

  router.post('/account/password/recover', validateBody(RECOVER_SCHEMA), async (req: Request, res: Response) => {
    const { site } = siteContext(req, deps)
    const target = targetOf((req.body as { login: string }).login, site.country)
    if (!target) return sendError(res, 400, 'ValidationError', [{ field: 'login', code: 'emailOrPhone' }])
    // a phone code goes by the channel asked for, if the site allows it (./../signup/code-channel.ts)
    const codeChannel = chooseCodeChannel(jurisdictionOf(deps, req), (req.body as { channelType?: string }).channelType)
    if (target.channel === 'sms' && !codeChannel) return sendError(res, 400, 'ValidationError', [{ field: 'channelType', code: 'enum' }])
    const now = deps.now()
    const allowed = await spend(deps.data, budgets(target, req.ip), now)
    if (!allowed.ok) return sendError(res, 429, 'TEMPORARY_BLOCKED', { nextAttemptAt: new Date(allowed.retryAt).toISOString() })
    const punter =
      target.channel === 'email' ? await findPunterByLogin(deps.data, site.jurisdiction, 'email', target.email) : await findPunterByLogin(deps.data, site.jurisdiction, 'phone_number', target.phone)
    log.info('credentials.recovery.requested', { channel: target.channel, punterId: punter?.id, known: punter !== undefined })
    if (target.channel === 'email') {
      const token = newToken()
      await storeSecret(deps.data, { kind: 'password-token', punterId: punter?.id ?? null, token, ttlMs: SECRET_RULES.passwordTokenMs, supersede: true }, now)
      if (punter) sendRecoveryLink(ctx, req, punter, token)
      return sendOk(res, { channel: 'email', linkExpiredAfterMillis: SECRET_RULES.passwordTokenMs })
    }
    const recoveryToken = newToken()
    const code = newCode()
    await storeSecret(deps.data, { kind: 'recovery-code', punterId: punter?.id ?? null, token: recoveryToken, code, attempts: SECRET_RULES.codeAttempts, ttlMs: SECRET_RULES.recoveryCodeMs, supersede: true }, now)
    if (punter)
      ctx.sendLater(
        { channel: outboxChannelOf(codeChannel!), to: target.phone, body: composeForRequest(deps, req, codeTemplate('recovery', codeChannel!), { code }).body, jurisdiction: punter.jurisdiction },
        { punterId: punter.id, purpose: 'recovery-code' },
      )
    sendOk(res, { channel: 'sms', channelType: codeChannel, recoveryToken, codeExpiredAfterMillis: SECRET_RULES.recoveryCodeMs, attemptCodeCount: SECRET_RULES.codeAttempts })
  })

  router.post('/account/password/recover/code', validateBody(RECOVER_CODE_SCHEMA), async (req, res) => {
    const { recoveryToken, code } = req.body as { recoveryToken: string; code: string }
    const now = deps.now()
    const checked = await checkCode(deps.data, recoveryToken, code, now)
    if (!checked.ok) {
      log.info('credentials.recovery.code-refused', { outcome: checked.code })
      return sendError(res, 400, checked.code)
    }
    const punterId = checked.secret.punterId!
    const passwordToken = newToken()
    await storeSecret(deps.data, { kind: 'password-token', punterId, token: passwordToken, ttlMs: SECRET_RULES.passwordTokenMs, supersede: true }, now)
    log.info('credentials.recovery.code-accepted', { punterId })
    sendOk(res, { passwordToken, secretQuestion: await secretQuestionOf(deps.data, punterId) })
  })

  /** What the page behind a recovery link needs first: is the link good, and is there a secret question to answer. */
  router.post('/account/password/recover/token', validateBody(PASSWORD_TOKEN_SCHEMA), async (req, res) => {
    const secret = await peekSecret(deps.data, 'password-token', (req.body as { token: string }).token, deps.now())
    if (!secret || secret.punterId === null) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    sendOk(res, { secretQuestion: await secretQuestionOf(deps.data, secret.punterId), secretQuestionPassed: secret.detail.secretQuestionPassed === true })
  })

  router.post('/account/password/reset', validateBody(RESET_SCHEMA), async (req, res) => {
    const { token, password } = req.body as { token: string; password: string }
    const now = deps.now()
    const secret = await peekSecret(deps.data, 'password-token', token, now)
    const punter = secret?.punterId != null ? await findPunterById(deps.data, secret.punterId) : undefined
    if (!secret || !punter) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    if ((await secretQuestionOf(deps.data, punter.id)) !== null && secret.detail.secretQuestionPassed !== true) return sendError(res, 400, 'SECRET_QUESTION_CHECK_NOT_PASSED')
    // Proving ownership of the address lifts a login lock, as the unlock link would (first: a
    // store that cannot lift it answers 503 before anything else changed).
    await clearAccountFailures(deps.data.db, punter.id, loginIdentifiers(punter))
    const outcome = await setPassword(deps, punter, password, ctx.policy(req).passwordHistory, now)
    if (!outcome.ok) return sendError(res, 400, outcome.errors[0].code === 'PASSWORD_USED_BEFORE' ? 'PASSWORD_USED_BEFORE' : 'ValidationError', outcome.errors)
    // Single use: a token that raced this one past the peek finds nothing to consume.
    if (!(await consumeSecret(deps.data, 'password-token', token, now))) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    await dropSecrets(deps.data, punter.id, ['password-token', 'recovery-code'])
    const ended = await revokeAllSessions(deps.data, punter.id, 'password-reset', now)
    log.info('credentials.password.reset', { punterId: punter.id, sessions: ended })
    notifyPasswordChanged(ctx, req, punter)
    sendOk(res, { status: 'OK' })
  })
}

function sendRecoveryLink(ctx: CredentialsContext, req: Request, punter: Punter, token: string): void {
  const link = ctx.link(req, `/change-password?token=${encodeURIComponent(token)}`)
  const mail = composeForRequest(ctx.deps, req, 'recoveryLink', { link })
  ctx.sendLater(
    {
      channel: 'email',
      to: punter.email!,
      subject: mail.subject,
      body: mail.body,
      jurisdiction: punter.jurisdiction,
    },
    { punterId: punter.id, purpose: 'recovery-link' },
  )
}

/** The owner hears of every password change, so a change they did not make does not go unseen. */
export function notifyPasswordChanged(ctx: CredentialsContext, req: Request, punter: Punter): void {
  if (!punter.email) return
  const mail = composeForPunter(ctx.deps, req, punter, 'passwordChanged')
  ctx.sendLater(
    {
      channel: 'email',
      to: punter.email,
      subject: mail.subject,
      body: mail.body,
      jurisdiction: punter.jurisdiction,
    },
    { punterId: punter.id, purpose: 'password-changed' },
  )
}
