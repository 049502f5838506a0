/**
 * The site-level sign-up calls of spec §7 "Registration and bonus" that are not one variant's own:
 *
 *   POST account/v2/sign-up          the site's own sign-up: its first variant (jurisdiction
 *                                    `signup.variants`) with that variant's begin rules, one code path
 *   GET|POST account/join/config     what the site's sign-up form needs: its variants, their flows and
 *                                    calls, methods, default country, minimum age, captcha kind
 *   POST account/ru/signup/add-email {registrationToken, email}: the e-mail a started registration
 *                                    of a variant with registration tokens (Russia) is created with
 *
 * `v2/signup/ru` is the ru variant's second begin path (kernel/documents/signup-variants.json): it
 * runs Russia's rules through the same handler as `v2/ru/signup/begin`. No variant or jurisdiction
 * is named here: the site's documents choose.
 */
import type { Request, Response } from 'express'
import { SIGNUP_VARIANTS, signupVariant } from '../../kernel/documents/signup-variants'
import { powConfig } from '../auth/captcha'
import { jurisdictionOf, signupPolicy } from '../dictionary'
import { remoteConfigFor } from '../documents/router'
import { sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { isRecord, str, type SignupKit, type Variant } from './kit'

type Handler = (req: Request, res: Response) => Promise<void>

/** The variants a site offers, in its document's order (the first is the site's own sign-up). */
export function siteVariants(policy: Record<string, unknown>): Variant[] {
  return (Array.isArray(policy.variants) ? policy.variants : []).filter((v): v is Variant => typeof v === 'string' && signupVariant(v) !== undefined)
}

/** POST v2/sign-up: the site's first variant's begin handler (phone: code sent; e-mail: punter made). */
export function siteSignup(kit: SignupKit, beginOf: (variant: Variant) => Handler): Handler {
  return async (req, res) => {
    const variant = siteVariants(signupPolicy(kit.deps, req))[0]
    if (!variant) return void kit.fail(res, 'FORBIDDEN')
    await beginOf(variant)(req, res)
  }
}

export const JOIN_CONFIG_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const

/** GET|POST join/config: the site's sign-up as its documents set it (behind a session: the punter's own site's). */
export function joinConfig(kit: SignupKit) {
  return (req: Request, res: Response) => {
    const policy = signupPolicy(kit.deps, req)
    const flows = isRecord(policy.flows) ? policy.flows : {}
    const variants = siteVariants(policy).map((name) => {
      const api = SIGNUP_VARIANTS[name]
      return { name, channel: api.channel, flow: str(flows[name]) ?? null, begin: api.begin[0], complete: api.complete?.[0] ?? null, registrationToken: api.registrationToken === true }
    })
    const doc = jurisdictionOf(kit.deps, req) as unknown as { minimumAge: number; currency: string }
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, {
      jurisdiction: siteContext(req, kit.deps).site.jurisdiction,
      methods: Array.isArray(policy.methods) ? policy.methods : [],
      variants,
      defaultCountry: str(policy.defaultCountry) ?? null,
      minimumAge: doc.minimumAge,
      currency: doc.currency,
      captcha: { kind: 'POW', enabled: powConfig(remoteConfigFor(kit.deps, req)).enabled },
    })
  }
}

export const ADD_EMAIL_SCHEMA = {
  type: 'object',
  required: ['registrationToken', 'email'],
  additionalProperties: false,
  properties: {
    registrationToken: { type: 'string', minLength: 1, maxLength: 200 },
    email: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
  },
} as const

/** POST ru/signup/add-email: sets the e-mail of an open registration of this site (unknown: UNKNOWN_HASH). */
export function addEmail(kit: SignupKit): Handler {
  return async (req, res) => {
    const { registrationToken, email } = req.body as { registrationToken: string; email: string }
    const { site } = siteContext(req, kit.deps)
    const added = await kit.verification.addEmail(registrationToken, site.jurisdiction, email.trim().toLowerCase(), kit.deps.now())
    if (!added) return void kit.fail(res, 'UNKNOWN_HASH')
    sendOk(res, { status: 'EMAIL_ADDED' })
  }
}
