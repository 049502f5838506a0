/**
 * The sign-up calls of spec §7 "Registration and bonus", under the mobile gate.
 *
 *   POST v2|v3/signup/phone/begin              phone + form → SMS code, verification state
 *   POST v2|v3/signup/phone/complete           {verificationToken, verificationCode} → punter + login
 *   POST signup/phone/resend-notification-sms  {verificationToken} → new code (60 s cooldown → 429)
 *   POST v2/ru/signup/begin                    Russia: → registration + verification tokens, SMS code
 *   POST ru/signup/confirmation/phone-number   Russia: the code step alone
 *   POST ru/signup/complete                    Russia: {registrationToken, verificationToken, verificationCode?}
 *   POST ru/signup/repeat | ru/signup/continue Russia: resend | the state of a started registration
 *   POST v2/belarus/signup/begin | belarus/signup/complete
 *   POST v2|v3/signup/email, v2/italy/signup, spain/signup   → punter awaiting e-mail confirmation
 *   POST signup/send-confirmation-mail {login} → the confirmation mail again
 *   POST auth/v2/login-by-registration-token {token}, POST account/join/confirm-email {token}
 *   POST bonus/check-promo-code {promoCode, countryId}
 *
 * Every body is checked twice with one declaration: the jurisdiction's flow document (the same
 * step schemas the browser validated with, via `validateFlowData`), then `rules.ts`. A failed
 * step leaves nothing behind: the punter row and the flow's completion commit together.
 */
import { Router, type Request, type Response } from 'express'
import type { Result } from '../../engine/core/contracts'
import type { FlowDocument } from '../../engine/documents/types'
import { SIGNUP_VARIANTS } from '../../engine/documents/signup-variants'
import { captchaServiceFor, powConfig } from '../auth/captcha'
import { consumeConfirmationToken, issueConfirmationToken, noStore } from '../auth/router'
import { remoteConfigFor } from '../documents/router'
import { parsePhone } from '../dictionary/phone-table'
import type { ServerDeps } from '../deps'
import { countryById, currencyById } from '../dictionary/countries'
import { jurisdictionOf, signupPolicy } from '../dictionary'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import type { FieldError } from '../http/validate'
import { hashPassword } from '../punters/password'
import { setPunterState } from '../punters/repository'
import { validateFlowData, resolveFlow, type FlowLike } from '../validators'
import type { DevOutbox, MessageSender } from './outbox'
import { insertSignupPunter, punterById, sendLoggedIn, type NewSignupPunter } from './punters'
import {
  ageErrors,
  answerContainsBirthday,
  countryErrors,
  cprErrors,
  nameErrors,
  NAME_FIELDS,
  nicknameErrors,
  passwordErrors,
  phoneRule,
  signupCheckErrors,
  type CountryCheckPolicy,
  type NicknamePolicy,
} from './rules'
import { createSmsBudgetService, smsBudgetOf, type SmsRecipient } from './sms-budget'
import { createVerificationService, sha256, VERIFICATION_LIMITS, type FlowKind } from './verification'

/** A sign-up variant of the spec's API (engine/documents/signup-variants.json). */
export type Variant = string

/** Fields of a sign-up body that are not form fields (spec §3 "Sign-up payload"). */
const META_FIELDS = ['refererId', 'registrationToken', 'verificationToken', 'verificationCode', 'captcha'] as const

const STATUS: Record<string, number> = {
  ValidationError: 400,
  INCORRECT_PHONE_NUMBER: 400,
  DISABLED_SMS_REGION: 400,
  UNKNOWN_HASH: 400,
  CODE_NO_MATCH: 400,
  CODE_EXPIRED: 400,
  CODE_OVERRIDDEN: 400,
  CODE_NO_MATCH_OR_EXPIRED: 400,
  INVALID_PROMO_CODE: 400,
  SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY: 400,
  CPR_CODE_INVALID: 400,
  CAPTCHA_REQUIRED: 400,
  INVALID_CAPTCHA: 400,
  FORBIDDEN: 403,
  EXCEEDED_LIMIT: 403,
  PUNTER_BLOCKED: 403,
  DUPLICATE_PHONE_NUMBER: 409,
  DUPLICATE_EMAIL: 409,
  NICKNAME_ALREADY_EXIST: 409,
  SESSION_ALREADY_VERIFIED: 409,
  VERIFICATION_ERROR: 409,
  TEMPORARY_BLOCKED: 429,
  COMMON_ERROR: 500,
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const str = (value: unknown) => (typeof value === 'string' ? value : undefined)

interface PromoCode {
  code: string
  countries?: string[]
  bonus?: string
}

export interface SignupServices {
  sender: MessageSender
  outbox?: DevOutbox
}

export function createSignupRouter(deps: ServerDeps, services: SignupServices): Router {
  const router = Router()
  const { db, log } = deps
  const verification = createVerificationService(db)
  const smsBudget = createSmsBudgetService(db)
  const captcha = captchaServiceFor(db, deps.now)
  const sender = services.sender

  // Sign-up answers carry verification, registration and login tokens: never cached (RFC 6749 §5.1).
  router.use('/account', noStore)

  const fail = (res: Response, code: string, payload?: unknown) => sendError(res, STATUS[code] ?? 400, code, payload)
  const failFields = (res: Response, errors: FieldError[]) => {
    // A rule with its own spec code answers with that code (the form still shows it on the field).
    const special = errors.find((e) => ['INCORRECT_PHONE_NUMBER', 'CPR_CODE_INVALID', 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY', 'INVALID_PROMO_CODE'].includes(e.code))
    return sendError(res, 400, special?.code ?? HTTP_ERRORS.validation, errors)
  }
  const blocked = (res: Response, result: { code: string; nextAllowedAt?: number }) =>
    fail(
      res,
      result.code,
      result.nextAllowedAt !== undefined
        ? { nextVerificationAfterMillis: Math.max(0, result.nextAllowedAt - deps.now()), nextAllowedAt: new Date(result.nextAllowedAt).toISOString() }
        : undefined,
    )

  const flowFor = (req: Request, variant: Variant): FlowDocument | undefined => {
    const flows = signupPolicy(deps, req).flows
    const id = isRecord(flows) ? str(flows[variant]) : undefined
    return id ? resolveFlow(deps, req, id) : undefined
  }

  const promoCheck = (req: Request, promoCode: string, countryId: number | undefined): Result<PromoCode> => {
    const codes = (signupPolicy(deps, req).promoCodes ?? []) as PromoCode[]
    const found = codes.find((c) => c.code.toUpperCase() === promoCode.trim().toUpperCase())
    if (!found) return { ok: false, code: 'INVALID_PROMO_CODE' }
    const country = countryId === undefined ? undefined : countryById(countryId)
    if (found.countries && (!country || !found.countries.includes(country.code))) return { ok: false, code: 'INVALID_PROMO_CODE' }
    return { ok: true, value: found }
  }

  interface Prepared {
    data: Record<string, unknown>
    meta: Record<string, unknown>
    punter: NewSignupPunter
    phone?: { e164: string; country: string }
  }

  /**
   * Everything a sign-up body must pass before anything is stored or sent: the flow's schemas,
   * then the rules JSON Schema cannot say, then duplicates. The password is hashed afterwards
   * (`withPasswordHash`), so only its hash is ever kept while the code is pending, and refused
   * requests (SMS budget, captcha) cost no argon2 work.
   */
  async function prepare(req: Request, res: Response, variant: Variant): Promise<Prepared | undefined> {
    if (!isRecord(req.body)) {
      if (!req.is('application/json')) fail(res, 'UNSUPPORTED_MEDIA_TYPE')
      else failFields(res, [{ field: '', code: 'type' }])
      return undefined
    }
    const flow = flowFor(req, variant)
    if (!flow) {
      fail(res, 'FORBIDDEN')
      return undefined
    }
    const context = siteContext(req, deps)
    const doc = jurisdictionOf(deps, req) as unknown as { nickname?: NicknamePolicy; countryCheck?: CountryCheckPolicy; minimumAge: number; currency: string }
    const policy = signupPolicy(deps, req)
    const data: Record<string, unknown> = {}
    const meta: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(req.body)) ((META_FIELDS as readonly string[]).includes(key) ? meta : data)[key] = value
    const now = deps.now()
    const schemaErrors = validateFlowData(flow as unknown as FlowLike, data, undefined, { now })
    if (meta.refererId !== undefined && (typeof meta.refererId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(meta.refererId)))
      schemaErrors.push({ field: 'refererId', code: 'pattern' })
    if (schemaErrors.length > 0) {
      failFields(res, schemaErrors)
      return undefined
    }
    const country = typeof data.countryId === 'number' ? countryById(data.countryId) : undefined
    const errors: FieldError[] = [
      ...passwordErrors(data.password),
      ...nameErrors(data, NAME_FIELDS),
      ...ageErrors(data.birthDay, doc.minimumAge, now),
      ...nicknameErrors(data.nickname, doc.nickname, country?.code),
      ...countryErrors(data.countryId, doc.countryCheck, context.locale),
    ]
    if (typeof data.secretAnswer === 'string' && typeof data.birthDay === 'string' && answerContainsBirthday(data.secretAnswer, data.birthDay))
      errors.push({ field: 'secretAnswer', code: 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY' })
    if (policy.requireCpr === true) errors.push(...cprErrors(data.cpr))
    errors.push(...signupCheckErrors(policy.checks, data))
    if (typeof data.promoCode === 'string' && data.promoCode.trim() !== '') {
      const promo = promoCheck(req, data.promoCode, typeof data.countryId === 'number' ? data.countryId : undefined)
      if (!promo.ok) errors.push({ field: 'promoCode', code: 'INVALID_PROMO_CODE' })
    }
    let phone: Prepared['phone']
    if (data.phoneNumber !== undefined) {
      const checked = phoneRule(data.phoneNumber, undefined)
      errors.push(...checked.errors)
      if (checked.phone) phone = { e164: checked.phone.e164, country: checked.phone.country.code }
    }
    if (errors.length > 0) {
      failFields(res, errors)
      return undefined
    }
    const disabled = (policy.disabledSmsRegions ?? []) as string[]
    if (phone && disabled.includes(phone.country)) {
      fail(res, 'DISABLED_SMS_REGION', { country: phone.country })
      return undefined
    }
    const email = str(data.email)?.trim().toLowerCase()
    const nickname = str(data.nickname)?.trim()
    if (phone && db.prepare('SELECT 1 FROM punters WHERE phone = ?').get(phone.e164)) {
      fail(res, 'DUPLICATE_PHONE_NUMBER')
      return undefined
    }
    if (email && db.prepare('SELECT 1 FROM punters WHERE email = ?').get(email)) {
      fail(res, 'DUPLICATE_EMAIL')
      return undefined
    }
    if (nickname && db.prepare('SELECT 1 FROM punters WHERE nickname = ?').get(nickname)) {
      fail(res, 'NICKNAME_ALREADY_EXIST')
      return undefined
    }
    const currency = (typeof data.currencyId === 'number' ? currencyById(data.currencyId)?.code : undefined) ?? doc.currency
    const profile: Record<string, unknown> = { countryCode: country?.code ?? phone?.country }
    if (typeof data.cpr === 'string') profile.cprDigest = sha256(`cpr:${data.cpr.replace('-', '')}`)
    if (typeof data.fiscalCode === 'string') profile.fiscalCode = data.fiscalCode.toUpperCase()
    if (typeof data.documentNumber === 'string') profile.documentNumber = data.documentNumber.toUpperCase()
    if (typeof data.communeId === 'number') profile.communeId = data.communeId
    if (typeof data.promoCode === 'string' && data.promoCode.trim()) profile.promoCode = data.promoCode.trim().toUpperCase()
    if (typeof meta.refererId === 'string') profile.refererId = meta.refererId
    if (isRecord(policy.newPunterProfile)) Object.assign(profile, policy.newPunterProfile)
    const punter: NewSignupPunter = {
      jurisdiction: context.site.jurisdiction,
      passwordHash: '', // hashed by `withPasswordHash` once the request has passed every cheap check
      email: email ?? null,
      phone: phone?.e164 ?? null,
      nickname: nickname || null,
      firstName: str(data.firstName) ?? '',
      lastName: str(data.lastName) ?? '',
      birthDay: str(data.birthDay) ?? null,
      countryId: country?.id ?? null,
      currency,
      identityState: 'none',
      emailConfirmed: !email || variant !== 'email' ? true : false,
      phoneConfirmed: true,
      profile: profile as NewSignupPunter['profile'],
    }
    return { data, meta, punter, phone }
  }

  /**
   * One SMS from the budget (./sms-budget.ts): refusals are answered here, and a captcha is asked
   * for (and verified) only past the client's free sends. The spent send's id, or undefined when
   * the request has been answered.
   */
  async function spendSms(req: Request, res: Response, phone: string, captchaPayload: unknown): Promise<number | undefined> {
    const to: SmsRecipient = { ip: req.ip ?? 'unknown', phone, dialCode: parsePhone(phone)?.country.dial ?? phone.slice(1, 4) }
    const budget = smsBudgetOf(jurisdictionOf(deps, req))
    let solved = !powConfig(remoteConfigFor(deps, req)).enabled
    const first = smsBudget.check(to, budget, deps.now(), solved)
    if (!first.ok && first.code === 'CAPTCHA_REQUIRED') {
      const refusal = typeof captchaPayload !== 'string' || captchaPayload === '' ? 'CAPTCHA_REQUIRED' : (await captcha.verify(captchaPayload)) ? undefined : 'INVALID_CAPTCHA'
      if (refusal) {
        log.info('signup.sms.refused', { outcome: refusal })
        fail(res, refusal)
        return undefined
      }
      solved = true
    }
    const spent = smsBudget.spend(to, budget, deps.now(), solved)
    if (!spent.ok) {
      log.warn('signup.sms.refused', { outcome: spent.code, dialCode: to.dialCode })
      blocked(res, spent)
      return undefined
    }
    return spent.value
  }

  const withPasswordHash = async (prepared: Prepared): Promise<NewSignupPunter> => ({ ...prepared.punter, passwordHash: await hashPassword(prepared.data.password as string) })

  const smsText = (code: string) => `Parlay: your sign-up code is ${code}. It is valid for 10 minutes. Never share it.`

  async function send(channel: 'sms' | 'email', to: string, body: string, jurisdiction: string, subject?: string): Promise<boolean> {
    try {
      await sender.send({ channel, to, body, subject, jurisdiction })
      return true
    } catch (error) {
      log.error('signup.message.failed', { channel, error: (error as Error).message })
      return false
    }
  }

  // ---- phone-code variants -------------------------------------------------------------------

  function begin(variant: Variant) {
    return async (req: Request, res: Response) => {
      const prepared = await prepare(req, res, variant)
      if (!prepared) return
      if (!prepared.phone) return failFields(res, [{ field: 'phoneNumber', code: 'required' }])
      const jurisdiction = prepared.punter.jurisdiction
      const spent = await spendSms(req, res, prepared.phone.e164, prepared.meta.captcha)
      if (spent === undefined) return
      const punter = await withPasswordHash(prepared)
      const started = verification.start(
        { flow: variant, jurisdiction, channel: 'sms', contact: prepared.phone.e164, payload: { punter }, withRegistrationToken: SIGNUP_VARIANTS[variant].registrationToken === true },
        deps.now(),
      )
      if (!started.ok) {
        smsBudget.refund(spent) // nothing was sent
        return blocked(res, started)
      }
      if (!(await send('sms', prepared.phone.e164, smsText(started.value.code), jurisdiction))) {
        smsBudget.refund(spent)
        return fail(res, 'VERIFICATION_ERROR')
      }
      log.info('signup.begin', { variant, jurisdiction, country: prepared.phone.country })
      sendOk(res, started.value.state)
    }
  }

  /** Creates the punter of a verified flow and completes the flow, in one transaction. */
  function finish(res: Response, verified: { payload: Record<string, unknown>; tokenDigest: string }, variant: string): void {
    const now = deps.now()
    const input = verified.payload.punter as NewSignupPunter
    const outcome = db.transaction((): Result<ReturnType<typeof punterById>> => {
      if (!verification.complete(verified.tokenDigest)) return { ok: false, code: 'SESSION_ALREADY_VERIFIED' }
      const created = insertSignupPunter(db, input, now)
      if (!created.ok) throw Object.assign(new Error(created.code), { signupCode: created.code })
      return { ok: true, value: created.value }
    })
    let result: Result<ReturnType<typeof punterById>>
    try {
      result = outcome()
    } catch (error) {
      const code = (error as { signupCode?: string }).signupCode
      if (!code) throw error
      result = { ok: false, code }
    }
    if (!result.ok || !result.value) return fail(res, result.ok ? 'COMMON_ERROR' : result.code)
    log.info('signup.completed', { variant, jurisdiction: input.jurisdiction, punterId: result.value.id })
    sendLoggedIn(db, res, result.value, now, { registration: 'success' })
  }

  const TOKEN_BODY = (fields: string[]) => (req: Request, res: Response): Record<string, string> | undefined => {
    if (!isRecord(req.body)) {
      failFields(res, [{ field: '', code: 'type' }])
      return undefined
    }
    const body = req.body
    for (const key of Object.keys(body))
      if (!fields.includes(key)) {
        failFields(res, [{ field: key, code: 'unknownField' }])
        return undefined
      }
    const out: Record<string, string> = {}
    for (const field of fields) {
      const value = body[field]
      if (value === undefined) continue
      if (typeof value !== 'string' || value.length === 0 || value.length > (field === 'captcha' ? 2000 : 200)) {
        failFields(res, [{ field, code: 'type' }])
        return undefined
      }
      if (field === 'verificationCode' && !/^\d{6}$/.test(value)) {
        fail(res, 'CODE_NO_MATCH')
        return undefined
      }
      out[field] = value
    }
    return out
  }
  const codeBody = TOKEN_BODY(['verificationToken', 'verificationCode'])

  function complete(flow: FlowKind, variant: string) {
    return (req: Request, res: Response) => {
      const body = codeBody(req, res)
      if (!body) return
      if (!body.verificationToken || !body.verificationCode) return failFields(res, [{ field: body.verificationToken ? 'verificationCode' : 'verificationToken', code: 'required' }])
      const { site } = siteContext(req, deps)
      const verified = verification.verify(body.verificationToken, body.verificationCode, flow, site.jurisdiction, deps.now())
      if (!verified.ok) return fail(res, verified.code, verified.state)
      finish(res, verified.value, variant)
    }
  }

  const resendBody = TOKEN_BODY(['verificationToken', 'captcha'])
  function resend(flows: FlowKind[]) {
    return async (req: Request, res: Response) => {
      const body = resendBody(req, res)
      if (!body) return
      if (!body.verificationToken) return failFields(res, [{ field: 'verificationToken', code: 'required' }])
      const { site } = siteContext(req, deps)
      const contact = verification.contactOf(body.verificationToken)
      const spent = contact === undefined ? undefined : await spendSms(req, res, contact, body.captcha)
      if (contact !== undefined && spent === undefined) return
      const refund = () => spent !== undefined && smsBudget.refund(spent)
      let result: ReturnType<typeof verification.resend> = { ok: false, code: 'UNKNOWN_HASH' }
      for (const flow of flows) {
        result = verification.resend(body.verificationToken, flow, site.jurisdiction, deps.now())
        if (result.ok || result.code !== 'UNKNOWN_HASH') break
      }
      if (!result.ok) {
        refund()
        return blocked(res, result)
      }
      if (!(await send('sms', result.value.contact, smsText(result.value.code), site.jurisdiction))) {
        refund()
        return fail(res, 'VERIFICATION_ERROR')
      }
      sendOk(res, result.value.state)
    }
  }

  /** The code step alone of a variant with a registration token. */
  function confirmCode(variant: Variant) {
    return (req: Request, res: Response) => {
      const body = codeBody(req, res)
      if (!body) return
      if (!body.verificationToken || !body.verificationCode) return failFields(res, [{ field: 'verificationCode', code: 'required' }])
      const { site } = siteContext(req, deps)
      const verified = verification.verify(body.verificationToken, body.verificationCode, variant, site.jurisdiction, deps.now())
      if (!verified.ok) return fail(res, verified.code, verified.state)
      sendOk(res, { status: 'VERIFIED' })
    }
  }

  const registrationCompleteBody = TOKEN_BODY(['registrationToken', 'verificationToken', 'verificationCode'])
  /** Completes a variant with a registration token: the code now, or one confirmed before. */
  function completeWithRegistrationToken(variant: Variant) {
    return (req: Request, res: Response) => {
      const body = registrationCompleteBody(req, res)
      if (!body) return
      if (!body.registrationToken || !body.verificationToken) return failFields(res, [{ field: body.registrationToken ? 'verificationToken' : 'registrationToken', code: 'required' }])
      if (!verification.registrationTokenMatches(body.verificationToken, body.registrationToken)) return fail(res, 'UNKNOWN_HASH')
      const { site } = siteContext(req, deps)
      const now = deps.now()
      const verified = body.verificationCode
        ? verification.verify(body.verificationToken, body.verificationCode, variant, site.jurisdiction, now)
        : verification.verified(body.verificationToken, variant, site.jurisdiction, now)
      if (!verified.ok) return fail(res, verified.code, 'state' in verified ? verified.state : undefined)
      finish(res, verified.value, variant)
    }
  }

  const continueBody = TOKEN_BODY(['registrationToken'])
  /** The state of a started registration, by its registration token. */
  function continueRegistration() {
    return (req: Request, res: Response) => {
      const body = continueBody(req, res)
      if (!body) return
      if (!body.registrationToken) return failFields(res, [{ field: 'registrationToken', code: 'required' }])
      const { site } = siteContext(req, deps)
      const state = verification.byRegistrationToken(body.registrationToken, site.jurisdiction, deps.now())
      if (!state) return fail(res, 'UNKNOWN_HASH')
      const { tokenDigest: _digest, ...visible } = state
      sendOk(res, visible)
    }
  }

  // ---- e-mail variants ---------------------------------------------------------------------

  const confirmationLink = (req: Request, token: string) => `${req.protocol}://${req.get('host')}/join/confirm-email?token=${encodeURIComponent(token)}`

  function emailSignup(variant: Variant) {
    return async (req: Request, res: Response) => {
      const prepared = await prepare(req, res, variant)
      if (!prepared) return
      const email = prepared.punter.email
      if (!email) return failFields(res, [{ field: 'email', code: 'required' }])
      const now = deps.now()
      const input = { ...(await withPasswordHash(prepared)), emailConfirmed: false }
      let token = ''
      const created = db.transaction((): Result<NonNullable<ReturnType<typeof punterById>>> => {
        const inserted = insertSignupPunter(db, input, now)
        if (!inserted.ok) return inserted
        token = issueConfirmationToken(db, inserted.value.id, 'email', now)
        return inserted
      })()
      if (!created.ok) return fail(res, created.code)
      const sent = await send('email', email, `Welcome to Parlay. Confirm your e-mail address: ${confirmationLink(req, token)}\nThe link is valid for 30 minutes.`, input.jurisdiction, 'Confirm your e-mail')
      if (!sent) {
        // Nothing half-registered: without the mail the punter could never confirm.
        db.transaction(() => {
          db.prepare('DELETE FROM auth_confirmation_tokens WHERE punter_id = ?').run(created.value.id)
          db.prepare('DELETE FROM punters WHERE id = ?').run(created.value.id)
        })()
        return fail(res, 'VERIFICATION_ERROR')
      }
      log.info('signup.email.created', { variant, jurisdiction: input.jurisdiction, punterId: created.value.id })
      sendOk(res, { status: 'OK', needEmailConfirmation: true, email })
    }
  }

  // Every variant's calls, from the variants' data; one resend path may serve several variants.
  const resendFlows = new Map<string, Variant[]>()
  for (const [variant, api] of Object.entries(SIGNUP_VARIANTS)) {
    for (const path of api.begin) router.post(path, api.channel === 'email' ? emailSignup(variant) : begin(variant))
    for (const path of api.complete ?? []) router.post(path, api.registrationToken ? completeWithRegistrationToken(variant) : complete(variant, variant))
    if (api.confirm) router.post(api.confirm, confirmCode(variant))
    if (api.continue) router.post(api.continue, continueRegistration())
    if (api.resend) resendFlows.set(api.resend, [...(resendFlows.get(api.resend) ?? []), variant])
  }
  for (const [path, flows] of resendFlows) router.post(path, resend(flows))

  const lastMailAt = new Map<string, number>()
  const mailBody = TOKEN_BODY(['login'])
  router.post('/account/signup/send-confirmation-mail', async (req, res) => {
    const body = mailBody(req, res)
    if (!body) return
    if (!body.login) return failFields(res, [{ field: 'login', code: 'required' }])
    const login = body.login.trim().toLowerCase()
    const now = deps.now()
    const last = lastMailAt.get(login)
    // The cooldown applies whether or not the address has an account: the answer reveals nothing.
    if (last !== undefined && now < last + VERIFICATION_LIMITS.resendCooldownMs) return blocked(res, { code: 'TEMPORARY_BLOCKED', nextAllowedAt: last + VERIFICATION_LIMITS.resendCooldownMs })
    lastMailAt.set(login, now)
    const { site } = siteContext(req, deps)
    const row = db.prepare('SELECT id FROM punters WHERE email = ? AND jurisdiction = ? AND email_confirmed = 0').get(login, site.jurisdiction) as { id: number } | undefined
    if (row) {
      const token = issueConfirmationToken(db, row.id, 'email', now)
      await send('email', login, `Confirm your e-mail address: ${confirmationLink(req, token)}`, site.jurisdiction, 'Confirm your e-mail')
    }
    sendOk(res, { status: 'OK' })
  })

  // Registration by registration token (spec §4): confirms the e-mail and logs the punter in.
  const tokenBody = TOKEN_BODY(['token'])
  const loginByRegistrationToken = (req: Request, res: Response) => {
    const body = tokenBody(req, res)
    if (!body) return
    if (!body.token) return failFields(res, [{ field: 'token', code: 'required' }])
    const now = deps.now()
    const punterId = consumeConfirmationToken(db, body.token, 'email', now)
    const punter = punterId === undefined ? undefined : punterById(db, punterId)
    const { site } = siteContext(req, deps)
    if (!punter || punter.jurisdiction !== site.jurisdiction) return fail(res, 'TOKEN_NOT_FOUND')
    db.prepare('UPDATE punters SET email_confirmed = 1, updated_at = ? WHERE id = ?').run(now, punter.id)
    if (punter.state === 'PROCESSING') setPunterState(db, punter.id, 'OPENED', now)
    log.info('signup.email.confirmed', { punterId: punter.id })
    sendLoggedIn(db, res, punterById(db, punter.id)!, now)
  }
  router.post('/auth/v2/login-by-registration-token', loginByRegistrationToken)
  router.post('/account/join/confirm-email', loginByRegistrationToken)

  // ---- promo code --------------------------------------------------------------------------
  router.post('/bonus/check-promo-code', (req, res) => {
    if (!isRecord(req.body)) return failFields(res, [{ field: '', code: 'type' }])
    const { promoCode, countryId, ...rest } = req.body
    const unknown = Object.keys(rest)[0]
    if (unknown) return failFields(res, [{ field: unknown, code: 'unknownField' }])
    if (typeof promoCode !== 'string' || promoCode.trim() === '' || promoCode.length > 40) return failFields(res, [{ field: 'promoCode', code: 'required' }])
    if (countryId !== undefined && (typeof countryId !== 'number' || !Number.isInteger(countryId))) return failFields(res, [{ field: 'countryId', code: 'type' }])
    const result = promoCheck(req, promoCode, countryId as number | undefined)
    if (!result.ok) return fail(res, result.code)
    sendOk(res, { promoCode: result.value.code, bonus: result.value.bonus ?? null, valid: true })
  })

  return router
}
