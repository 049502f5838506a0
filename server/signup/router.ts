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
 *   POST account/signup/check-step {variant, step, data}   one step's fields, as the final submit checks them
 *   POST account/v2/sign-up, GET|POST account/join/config, POST ru/signup/add-email   (./site-signup.ts)
 *   POST v2/signup/ru                          Russia: the ru variant's begin, a second path
 *
 * Every body is checked twice with one declaration: the jurisdiction's flow document (the same
 * step schemas the browser validated with, via `validateFlowData`), then `rules.ts`. A failed
 * step leaves nothing behind: the punter row and the flow's completion commit together.
 *
 * This module mounts the calls; the kit (./kit.ts) holds what they share, ./prepare.ts checks a
 * body, ./phone-routes.ts and ./email-routes.ts are the two kinds of variant.
 */
import { Router } from 'express'
import { SIGNUP_VARIANTS } from '../../kernel/documents/signup-variants'
import { noStore } from '../auth/router'
import type { ServerDeps } from '../deps'
import { sendOk } from '../http/envelope'
import { emailRoutes } from './email-routes'
import { CHECK_PROMO_CODE_SCHEMA, CHECK_STEP_SCHEMA, createSignupKit, type SignupServices, type Variant } from './kit'
import { phoneCodeRoutes } from './phone-routes'
import { signupPreparation } from './prepare'
import { stepCheck } from './step-check'
import { REFERER_STORE_SCHEMA, storeReferer } from './referer'
import { ADD_EMAIL_SCHEMA, addEmail, JOIN_CONFIG_SCHEMA, joinConfig, siteSignup } from './site-signup'
import { punterSiteIfLoggedIn } from '../auth/session-check'

export type { SignupServices, Variant } from './kit'

export function createSignupRouter(deps: ServerDeps, services: SignupServices): Router {
  const router = Router()
  const kit = createSignupKit(deps, services)
  const { fail } = kit
  const preparation = signupPreparation(kit)
  const { promoCheck } = preparation
  const { begin, complete, resend, confirmCode, completeWithRegistrationToken, continueRegistration } = phoneCodeRoutes(kit, preparation)

  // Sign-up answers carry verification, registration and login tokens: never cached (RFC 6749 §5.1).
  router.use('/account', noStore)
  const { emailSignup } = emailRoutes(router, kit, preparation)

  // Every variant's calls, from the variants' data; one resend path may serve several variants.
  const resendFlows = new Map<string, Variant[]>()
  for (const [variant, api] of Object.entries(SIGNUP_VARIANTS)) {
    for (const path of api.begin) router.post(path, api.channel === 'email' ? emailSignup(variant) : begin(variant))
    for (const path of api.complete ?? []) router.post(path, api.registrationToken ? completeWithRegistrationToken(variant) : complete(variant, variant))
    if (api.confirm) router.post(api.confirm, confirmCode(variant))
    if (api.continue) router.post(api.continue, continueRegistration())
    if (api.addEmail) router.post(api.addEmail, kit.strictBody(ADD_EMAIL_SCHEMA), addEmail(kit))
    if (api.resend) resendFlows.set(api.resend, [...(resendFlows.get(api.resend) ?? []), variant])
  }
  for (const [path, flows] of resendFlows) router.post(path, resend(flows))

  // the site's own sign-up, and its form's configuration (./site-signup.ts)
  router.post('/referer/store', kit.strictBody(REFERER_STORE_SCHEMA), storeReferer)
  router.post('/account/v2/sign-up', siteSignup(kit, (variant) => (SIGNUP_VARIANTS[variant].channel === 'email' ? emailSignup(variant) : begin(variant))))
  router.get('/account/join/config', punterSiteIfLoggedIn(deps), joinConfig(kit))
  router.post('/account/join/config', kit.strictBody(JOIN_CONFIG_SCHEMA), punterSiteIfLoggedIn(deps), joinConfig(kit))

  router.post('/account/signup/check-step', kit.strictBody(CHECK_STEP_SCHEMA), stepCheck(kit, preparation))

  // ---- promo code --------------------------------------------------------------------------
  router.post('/bonus/check-promo-code', kit.strictBody(CHECK_PROMO_CODE_SCHEMA), (req, res) => {
    const { promoCode, countryId } = req.body as { promoCode: string; countryId?: number }
    const result = promoCheck(req, promoCode, countryId)
    if (!result.ok) return fail(res, result.code)
    sendOk(res, { promoCode: result.value.code, bonus: result.value.bonus ?? null, valid: true })
  })

  return router
}
