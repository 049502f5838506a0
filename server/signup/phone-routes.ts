/**
 * The phone-code variants (spec §4 "Phone-code registration"): begin sends an SMS code from the
 * SMS budget (captcha past the free sends), complete checks it and creates the punter in one
 * transaction, resend, and for variants with a registration token the confirm and continue steps.
 */
import type { Request, Response } from 'express'
import type { Result } from '../../kernel/core/contracts'
import { powConfig } from '../auth/captcha'
import { verifyCaptcha } from '../auth/captcha-gate'
import { remoteConfigFor } from '../documents/router'
import { parsePhone } from '../../kernel/core/phone-rule'
import { jurisdictionOf } from '../dictionary'
import { sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { SIGNUP_VARIANTS } from '../../kernel/documents/signup-variants'
import type { SignupKit, Variant } from './kit'
import type { SignupPreparation } from './prepare'
import { insertSignupPunter, punterById, sendLoggedIn, type NewSignupPunter } from './punters'
import { smsBudgetOf, type SmsRecipient } from './sms-budget'
import type { FlowKind } from './verification'
import { composeForRequest } from './message-texts'
import { chooseCodeChannel, codeTemplate, outboxChannelOf, type CodeChannel } from './code-channel'

type TokenBody = ReturnType<SignupKit['TOKEN_BODY']>

/** What every phone-code step shares: the sign-up kit, the preparation and the bodies' checks (made once). */
interface PhoneCodeContext {
  kit: SignupKit
  preparation: SignupPreparation
  bodies: { code: TokenBody; resend: TokenBody; registrationComplete: TokenBody; continue: TokenBody }
}

export function phoneCodeRoutes(kit: SignupKit, preparation: SignupPreparation) {
  const { TOKEN_BODY } = kit
  const bodies = {
    code: TOKEN_BODY(['verificationToken', 'verificationCode']),
    resend: TOKEN_BODY(['verificationToken', 'captcha']),
    registrationComplete: TOKEN_BODY(['registrationToken', 'verificationToken', 'verificationCode']),
    continue: TOKEN_BODY(['registrationToken']),
  }
  const ctx: PhoneCodeContext = { kit, preparation, bodies }
  return {
    begin: (variant: Variant) => begin(ctx, variant),
    complete: (flow: FlowKind, variant: string) => complete(ctx, flow, variant),
    resend: (flows: FlowKind[]) => resend(ctx, flows),
    confirmCode: (variant: Variant) => confirmCode(ctx, variant),
    completeWithRegistrationToken: (variant: Variant) => completeWithRegistrationToken(ctx, variant),
    continueRegistration: () => continueRegistration(ctx),
  }
}

/**
 * One SMS from the budget (./sms-budget.ts): refusals are answered here, and a captcha is asked
 * for (and verified) only past the client's free sends. The spent send's id, or undefined when
 * the request has been answered.
 */
async function spendSms({ kit: { deps, smsBudget, captcha, fail, blocked } }: PhoneCodeContext, req: Request, res: Response, phone: string, captchaPayload: unknown): Promise<number | undefined> {
  const { log } = deps
  const to: SmsRecipient = { ip: req.ip ?? 'unknown', phone, dialCode: parsePhone(phone)?.country.dial ?? phone.slice(1, 4) }
  const budget = smsBudgetOf(jurisdictionOf(deps, req))
  let solved = !powConfig(remoteConfigFor(deps, req)).enabled
  const first = await smsBudget.check(to, budget, deps.now(), solved)
  if (!first.ok && first.code === 'CAPTCHA_REQUIRED') {
    const refusal = typeof captchaPayload !== 'string' || captchaPayload === '' ? 'CAPTCHA_REQUIRED' : (await verifyCaptcha(deps, req, captcha, captchaPayload, 'signup-sms')) ? undefined : 'INVALID_CAPTCHA'
    if (refusal) {
      log.info('signup.sms.refused', { outcome: refusal })
      fail(res, refusal)
      return undefined
    }
    solved = true
  }
  const spent = await smsBudget.spend(to, budget, deps.now(), solved)
  if (!spent.ok) {
    log.warn('signup.sms.refused', { outcome: spent.code, dialCode: to.dialCode })
    blocked(res, spent)
    return undefined
  }
  return spent.value
}


/** The code in the language the punter signs up in (schemas/i18n/*-outbox.json), by its channel's template. */
const codeText = (deps: SignupKit['deps'], req: Request, channel: CodeChannel, code: string) => composeForRequest(deps, req, codeTemplate('signup', channel), { code }).body

function begin(ctx: PhoneCodeContext, variant: Variant) {
  const { deps, verification, smsBudget, fail, failFields, blocked, send } = ctx.kit
  const { prepare, withPasswordHash } = ctx.preparation
  return async (req: Request, res: Response) => {
    const prepared = await prepare(req, res, variant)
    if (!prepared) return
    if (!prepared.phone) return failFields(res, [{ field: 'phoneNumber', code: 'required' }])
    const jurisdiction = prepared.punter.jurisdiction
    const channel = chooseCodeChannel(jurisdictionOf(deps, req), prepared.meta.channelType)
    if (!channel) return failFields(res, [{ field: 'channelType', code: 'enum' }])
    const spent = await spendSms(ctx, req, res, prepared.phone.e164, prepared.meta.captcha)
    if (spent === undefined) return
    const punter = await withPasswordHash(prepared)
    const started = await verification.start(
      { flow: variant, jurisdiction, channel, contact: prepared.phone.e164, payload: { punter }, withRegistrationToken: SIGNUP_VARIANTS[variant].registrationToken === true },
      deps.now(),
    )
    if (!started.ok) {
      await smsBudget.refund(spent) // nothing was sent
      return blocked(res, started)
    }
    if (!(await send(outboxChannelOf(channel), prepared.phone.e164, codeText(deps, req, channel, started.value.code), jurisdiction))) {
      await smsBudget.refund(spent)
      return fail(res, 'VERIFICATION_ERROR')
    }
    deps.log.info('signup.begin', { variant, jurisdiction, country: prepared.phone.country })
    sendOk(res, started.value.state)
  }
}

/**
 * Creates the punter of a verified flow and completes the flow. The two live in different stores
 * (the punter on the accounts store, the flow on the query layer: server/db/README.md, recipe
 * step 6), so they are ordered to lose nothing: the punter first (its unique phone makes a second
 * creation from the same flow a DUPLICATE_PHONE_NUMBER, never a second account), the flow's
 * single use last. A failure in between leaves the account made and the flow VERIFIED: the punter
 * can log in, and the flow can only ever complete into that account's duplicate refusal.
 */
async function finish({ deps, verification, fail }: SignupKit, res: Response, verified: { payload: Record<string, unknown>; tokenDigest: string }, variant: string): Promise<void> {
  const now = deps.now()
  const input = verified.payload.punter as NewSignupPunter
  const created = await insertSignupPunter(deps.data, input, now)
  if (!created.ok) return void fail(res, created.code)
  if (!(await verification.complete(verified.tokenDigest))) {
    deps.log.warn('signup.complete.raced', { variant, punterId: created.value.id })
    return void fail(res, 'SESSION_ALREADY_VERIFIED')
  }
  deps.log.info('signup.completed', { variant, jurisdiction: input.jurisdiction, punterId: created.value.id })
  await sendLoggedIn(deps, res, created.value, now, { registration: 'success' })
}

function complete(ctx: PhoneCodeContext, flow: FlowKind, variant: string) {
  const { deps, verification, fail, failFields } = ctx.kit
  const codeBody = ctx.bodies.code
  return [codeBody.check, async (req: Request, res: Response) => {
    const body = codeBody.read(req, res)
    if (!body) return
    if (!body.verificationToken || !body.verificationCode) return failFields(res, [{ field: body.verificationToken ? 'verificationCode' : 'verificationToken', code: 'required' }])
    const { site } = siteContext(req, deps)
    const verified = await verification.verify(body.verificationToken, body.verificationCode, flow, site.jurisdiction, deps.now())
    if (!verified.ok) return fail(res, verified.code, verified.state)
    await finish(ctx.kit, res, verified.value, variant)
  }]
}

function resend(ctx: PhoneCodeContext, flows: FlowKind[]) {
  const { deps, verification, smsBudget, fail, failFields, blocked, send } = ctx.kit
  const resendBody = ctx.bodies.resend
  return [resendBody.check, async (req: Request, res: Response) => {
    const body = resendBody.read(req, res)
    if (!body) return
    if (!body.verificationToken) return failFields(res, [{ field: 'verificationToken', code: 'required' }])
    const { site } = siteContext(req, deps)
    const contact = await verification.contactOf(body.verificationToken)
    const spent = contact === undefined ? undefined : await spendSms(ctx, req, res, contact, body.captcha)
    if (contact !== undefined && spent === undefined) return
    const refund = async () => {
      if (spent !== undefined) await smsBudget.refund(spent)
    }
    let result: Awaited<ReturnType<typeof verification.resend>> = { ok: false, code: 'UNKNOWN_HASH' }
    for (const flow of flows) {
      result = await verification.resend(body.verificationToken, flow, site.jurisdiction, deps.now())
      if (result.ok || result.code !== 'UNKNOWN_HASH') break
    }
    if (!result.ok) {
      await refund()
      return blocked(res, result)
    }
    // a resend goes by the flow's own channel (its limits are the flow's, whatever the channel)
    const channel: CodeChannel = result.value.state.channelType === 'tg_gateway' ? 'tg_gateway' : 'sms'
    if (!(await send(outboxChannelOf(channel), result.value.contact, codeText(deps, req, channel, result.value.code), site.jurisdiction))) {
      await refund()
      return fail(res, 'VERIFICATION_ERROR')
    }
    sendOk(res, result.value.state)
  }]
}

/** The code step alone of a variant with a registration token. */
function confirmCode(ctx: PhoneCodeContext, variant: Variant) {
  const { deps, verification, fail, failFields } = ctx.kit
  const codeBody = ctx.bodies.code
  return [codeBody.check, async (req: Request, res: Response) => {
    const body = codeBody.read(req, res)
    if (!body) return
    if (!body.verificationToken || !body.verificationCode) return failFields(res, [{ field: 'verificationCode', code: 'required' }])
    const { site } = siteContext(req, deps)
    const verified = await verification.verify(body.verificationToken, body.verificationCode, variant, site.jurisdiction, deps.now())
    if (!verified.ok) return fail(res, verified.code, verified.state)
    sendOk(res, { status: 'VERIFIED' })
  }]
}

/** Completes a variant with a registration token: the code now, or one confirmed before. */
function completeWithRegistrationToken(ctx: PhoneCodeContext, variant: Variant) {
  const { deps, verification, fail, failFields } = ctx.kit
  const registrationCompleteBody = ctx.bodies.registrationComplete
  return [registrationCompleteBody.check, async (req: Request, res: Response) => {
    const body = registrationCompleteBody.read(req, res)
    if (!body) return
    if (!body.registrationToken || !body.verificationToken) return failFields(res, [{ field: body.registrationToken ? 'verificationToken' : 'registrationToken', code: 'required' }])
    if (!(await verification.registrationTokenMatches(body.verificationToken, body.registrationToken))) return fail(res, 'UNKNOWN_HASH')
    const { site } = siteContext(req, deps)
    const now = deps.now()
    const verified = body.verificationCode
      ? await verification.verify(body.verificationToken, body.verificationCode, variant, site.jurisdiction, now)
      : await verification.verified(body.verificationToken, variant, site.jurisdiction, now)
    if (!verified.ok) return fail(res, verified.code, 'state' in verified ? verified.state : undefined)
    await finish(ctx.kit, res, verified.value, variant)
  }]
}

/** The state of a started registration, by its registration token. */
function continueRegistration(ctx: PhoneCodeContext) {
  const { deps, verification, fail, failFields } = ctx.kit
  const continueBody = ctx.bodies.continue
  return [continueBody.check, async (req: Request, res: Response) => {
    const body = continueBody.read(req, res)
    if (!body) return
    if (!body.registrationToken) return failFields(res, [{ field: 'registrationToken', code: 'required' }])
    const { site } = siteContext(req, deps)
    const state = await verification.byRegistrationToken(body.registrationToken, site.jurisdiction, deps.now())
    if (!state) return fail(res, 'UNKNOWN_HASH')
    const { tokenDigest: _digest, ...visible } = state
    sendOk(res, visible)
  }]
}
