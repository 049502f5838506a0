/**
 * Everything a sign-up body must pass before anything is stored or sent (spec §5), for every
 * variant: the jurisdiction's flow schemas, the rules JSON Schema cannot say (./rules.ts, with the
 * checks the jurisdiction document names), promo code, duplicates; then the new punter's row.
 */
import { storedReferer } from './referer'
import type { Request, Response } from 'express'
import type { Result } from '../../kernel/core/contracts'
import type { ServerDeps } from '../deps'
import type { FlowDocument } from '../../kernel/documents/types'
import { countryById, currencyById } from '../dictionary/countries'
import { jurisdictionOf, signupPolicy } from '../dictionary'
import { siteContext } from '../http/site'
import type { FieldError } from '../http/validate'
import { hashPassword } from '../punters/password'
import { lowerIs } from '../punters/repository'
import { validateFlowData, resolveFlow, type FlowLike } from '../validators'
import { isRecord, str, type SignupKit, type Variant } from './kit'
import type { NewSignupPunter } from './punters'
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
import { sha256 } from './verification'

/** Fields of a sign-up body that are not form fields (spec §3 "Sign-up payload"). */
const META_FIELDS = ['refererId', 'registrationToken', 'verificationToken', 'verificationCode', 'captcha', 'channelType'] as const

export interface PromoCode {
  code: string
  countries?: string[]
  bonus?: string
}

export interface Prepared {
  data: Record<string, unknown>
  meta: Record<string, unknown>
  punter: NewSignupPunter
  phone?: { e164: string; country: string }
}

export type SignupPreparation = ReturnType<typeof signupPreparation>

type JurisdictionRules = { nickname?: NicknamePolicy; countryCheck?: CountryCheckPolicy; minimumAge: number; currency: string }

/** The flow document of a sign-up variant on the request's site (its signup policy's `flows`); undefined: the site has no such variant. */
function flowFor(deps: ServerDeps, req: Request, variant: Variant): FlowDocument | undefined {
  const flows = signupPolicy(deps, req).flows
  const id = isRecord(flows) ? str(flows[variant]) : undefined
  return id ? resolveFlow(deps, req, id) : undefined
}

/**
 * A promo code among the site's codes, compared trimmed and case-folded: INVALID_PROMO_CODE when
 * none matches, PROMO_CODE_NOT_FOR_COUNTRY when it is limited to countries and the punter's (ISO
 * code; undefined when not known) is not one of them. An unknown code and a code of other
 * countries are told apart (issue 31: "not valid for your country" for a nonsense code).
 */
export function matchPromoCode(codes: readonly PromoCode[], promoCode: string, countryCode: string | undefined): Result<PromoCode> {
  const found = codes.find((c) => c.code.toUpperCase() === promoCode.trim().toUpperCase())
  if (!found) return { ok: false, code: 'INVALID_PROMO_CODE' }
  if (found.countries && (!countryCode || !found.countries.includes(countryCode))) return { ok: false, code: 'PROMO_CODE_NOT_FOR_COUNTRY' }
  return { ok: true, value: found }
}

function promoCheck(deps: ServerDeps, req: Request, promoCode: string, countryId: number | undefined): Result<PromoCode> {
  const codes = (signupPolicy(deps, req).promoCodes ?? []) as PromoCode[]
  return matchPromoCode(codes, promoCode, countryId === undefined ? undefined : countryById(countryId)?.code)
}

/** The sign-up code of the first of phone, e-mail and nickname another punter already has (e-mail and nickname compared case-folded). */
async function duplicateOf(deps: ServerDeps, phone: string | undefined, email: string | undefined, nickname: string | undefined): Promise<'DUPLICATE_PHONE_NUMBER' | 'DUPLICATE_EMAIL' | 'NICKNAME_ALREADY_EXIST' | undefined> {
  const punters = deps.data.db.selectFrom('punters').select('id')
  if (phone && (await punters.where('phone', '=', phone).executeTakeFirst())) return 'DUPLICATE_PHONE_NUMBER'
  if (email && (await punters.where(lowerIs('email', email)).executeTakeFirst())) return 'DUPLICATE_EMAIL'
  if (nickname && (await punters.where(lowerIs('nickname', nickname)).executeTakeFirst())) return 'NICKNAME_ALREADY_EXIST'
  return undefined
}

/**
 * The rules JSON Schema cannot say (./rules.ts), over a body the flow's schemas accepted: the
 * password, names, age (the jurisdiction's minimum), nickname and country policies, the checks
 * the jurisdiction names (a Spanish DNI/NIE …), the promo code for the country, the phone. The
 * final submit and the step check (./step-check.ts) run the same function.
 */
function dataRuleErrors(deps: ServerDeps, req: Request, data: Record<string, unknown>, now: number): { errors: FieldError[]; phone?: Prepared['phone'] } {
  const context = siteContext(req, deps)
  const doc = jurisdictionOf(deps, req) as unknown as JurisdictionRules
  const policy = signupPolicy(deps, req)
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
    const promo = promoCheck(deps, req, data.promoCode, typeof data.countryId === 'number' ? data.countryId : undefined)
    if (!promo.ok) errors.push({ field: 'promoCode', code: promo.code })
  }
  let phone: Prepared['phone']
  if (data.phoneNumber !== undefined) {
    const checked = phoneRule(data.phoneNumber, undefined)
    errors.push(...checked.errors)
    if (checked.phone) phone = { e164: checked.phone.e164, country: checked.phone.country.code }
  }
  return { errors, phone }
}

/** A sign-up body split in two: the meta fields (META_FIELDS: tokens, code, captcha, referrer, channel) and the form data (everything else). */
export function splitBody(body: Record<string, unknown>): { data: Record<string, unknown>; meta: Record<string, unknown> } {
  const data: Record<string, unknown> = {}
  const meta: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body)) ((META_FIELDS as readonly string[]).includes(key) ? meta : data)[key] = value
  return { data, meta }
}

/** A referrer id in the body must be 1 to 64 letters, digits, '_' or '-'. */
export const refererIdErrors = (meta: Record<string, unknown>): FieldError[] =>
  meta.refererId !== undefined && (typeof meta.refererId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(meta.refererId)) ? [{ field: 'refererId', code: 'pattern' }] : []

/**
 * The new punter's profile from an accepted body: the country (the body's, else the phone's), a
 * digest of the CPR number (never the number), the fiscal code, document number and promo code
 * upper-cased, the referrer (the body's, else `storedRefererId`), then the site's own profile
 * fields (`newPunterProfile` of its signup policy) over all of them.
 */
export function newPunterProfile(
  data: Record<string, unknown>,
  meta: Record<string, unknown>,
  countryCode: string | undefined,
  storedRefererId: string | undefined,
  siteProfile: unknown,
): Record<string, unknown> {
  const profile: Record<string, unknown> = { countryCode }
  if (typeof data.cpr === 'string') profile.cprDigest = sha256(`cpr:${data.cpr.replace('-', '')}`)
  if (typeof data.fiscalCode === 'string') profile.fiscalCode = data.fiscalCode.toUpperCase()
  if (typeof data.documentNumber === 'string') profile.documentNumber = data.documentNumber.toUpperCase()
  if (typeof data.communeId === 'number') profile.communeId = data.communeId
  if (typeof data.promoCode === 'string' && data.promoCode.trim()) profile.promoCode = data.promoCode.trim().toUpperCase()
  const refererId = typeof meta.refererId === 'string' ? meta.refererId : storedRefererId
  if (refererId) profile.refererId = refererId
  if (isRecord(siteProfile)) Object.assign(profile, siteProfile)
  return profile
}

/** The new punter's row (its password hashed later, by `withPasswordHash`). */
function newPunter(deps: ServerDeps, req: Request, variant: Variant, accepted: Omit<Prepared, 'punter'>, email: string | undefined, nickname: string | undefined): NewSignupPunter {
  const { data, meta, phone } = accepted
  const context = siteContext(req, deps)
  const doc = jurisdictionOf(deps, req) as unknown as JurisdictionRules
  const country = typeof data.countryId === 'number' ? countryById(data.countryId) : undefined
  const currency = (typeof data.currencyId === 'number' ? currencyById(data.currencyId)?.code : undefined) ?? doc.currency
  // the body's referrer, else the one stored for this visitor by POST /referer/store (./referer.ts)
  const profile = newPunterProfile(data, meta, country?.code ?? phone?.country, storedReferer(req), signupPolicy(deps, req).newPunterProfile)
  return {
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
    // the language the punter signs up in: later SMS and e-mails are written in it (./message-texts.ts)
    signupLocale: context.locale,
  }
}

/**
 * Everything a sign-up body must pass before anything is stored or sent: the flow's schemas,
 * then the rules JSON Schema cannot say, then duplicates. The password is hashed afterwards
 * (`withPasswordHash`), so only its hash is ever kept while the code is pending, and refused
 * requests (SMS budget, captcha) cost no argon2 work.
 */
async function prepare({ deps, fail, failFields }: SignupKit, req: Request, res: Response, variant: Variant): Promise<Prepared | undefined> {
  if (!isRecord(req.body)) {
    if (!req.is('application/json')) fail(res, 'UNSUPPORTED_MEDIA_TYPE')
    else failFields(res, [{ field: '', code: 'type' }])
    return undefined
  }
  const flow = flowFor(deps, req, variant)
  if (!flow) {
    fail(res, 'FORBIDDEN')
    return undefined
  }
  const { data, meta } = splitBody(req.body)
  const now = deps.now()
  const schemaErrors = [...validateFlowData(flow as unknown as FlowLike, data, undefined, { now }), ...refererIdErrors(meta)]
  if (schemaErrors.length > 0) {
    failFields(res, schemaErrors)
    return undefined
  }
  const { errors, phone } = dataRuleErrors(deps, req, data, now)
  if (errors.length > 0) {
    failFields(res, errors)
    return undefined
  }
  const disabled = (signupPolicy(deps, req).disabledSmsRegions ?? []) as string[]
  if (phone && disabled.includes(phone.country)) {
    fail(res, 'DISABLED_SMS_REGION', { country: phone.country })
    return undefined
  }
  const email = str(data.email)?.trim().toLowerCase()
  const nickname = str(data.nickname)?.trim()
  // Early answers for the form (before any code is sent); the unique indexes are the final guard
  // when two sign-ups with one address run at once, on one instance or two.
  const duplicate = await duplicateOf(deps, phone?.e164, email, nickname)
  if (duplicate) {
    fail(res, duplicate)
    return undefined
  }
  return { data, meta, punter: newPunter(deps, req, variant, { data, meta, phone }, email, nickname), phone }
}

const withPasswordHash = async (prepared: Prepared): Promise<NewSignupPunter> => ({ ...prepared.punter, passwordHash: await hashPassword(prepared.data.password as string) })

/** The sign-up checks bound to one kit: prepare (the whole body), promoCheck, withPasswordHash, flowFor and dataRuleErrors (the step check's). */
export function signupPreparation(kit: SignupKit) {
  const { deps } = kit
  return {
    prepare: (req: Request, res: Response, variant: Variant) => prepare(kit, req, res, variant),
    promoCheck: (req: Request, promoCode: string, countryId: number | undefined) => promoCheck(deps, req, promoCode, countryId),
    withPasswordHash,
    flowFor: (req: Request, variant: Variant) => flowFor(deps, req, variant),
    dataRuleErrors: (req: Request, data: Record<string, unknown>, now: number) => dataRuleErrors(deps, req, data, now),
  }
}
