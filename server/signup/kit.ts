/**
 * What every sign-up call shares: the services (verification flows, SMS budget, captcha, the
 * message sender), the error answers with their HTTP statuses, and the strict token-body reader.
 * Built once per router by `createSignupKit`; the phone-code, e-mail and promo modules take it.
 */
import type { Request, Response } from 'express'
import { captchaServiceFor } from '../auth/captcha'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { validateBody, type FieldError } from '../http/validate'
import type { DevOutbox, MessageSender, OutboxChannel } from './outbox'
import { createSmsBudgetService } from './sms-budget'
import { createVerificationService } from './verification'

/** A sign-up variant of the spec's API (kernel/documents/signup-variants.json). */
export type Variant = string


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
  PROMO_CODE_NOT_FOR_COUNTRY: 400,
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

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
export const str = (value: unknown) => (typeof value === 'string' ? value : undefined)

export interface SignupServices {
  sender: MessageSender
  outbox?: DevOutbox
}

export type SignupKit = ReturnType<typeof createSignupKit>

export function createSignupKit(deps: ServerDeps, services: SignupServices) {
  const { db, log } = deps
  const verification = createVerificationService(deps.data)
  const smsBudget = createSmsBudgetService(deps.data)
  const captcha = captchaServiceFor(deps.data, deps.now)
  const sender = services.sender

  const fail = (res: Response, code: string, payload?: unknown) => sendError(res, STATUS[code] ?? 400, code, payload)
  const failFields = (res: Response, errors: FieldError[]) => {
    // A rule with its own spec code answers with that code (the form still shows it on the field).
    const special = errors.find((e) => ['INCORRECT_PHONE_NUMBER', 'CPR_CODE_INVALID', 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY', 'INVALID_PROMO_CODE', 'PROMO_CODE_NOT_FOR_COUNTRY'].includes(e.code))
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

  async function send(channel: OutboxChannel, to: string, body: string, jurisdiction: string, subject?: string): Promise<boolean> {
    try {
      await sender.send({ channel, to, body, subject, jurisdiction })
      return true
    } catch (error) {
      log.error('signup.message.failed', { channel, error: (error as Error).message })
      return false
    }
  }

  // A body checked against the schema the OpenAPI document shows (strict: unknown fields refused),
  // a problem answered in the sign-up calls' field-error format.
  const strictBody = (schema: object) => validateBody(schema, (res, problem) => failFields(res, [problem]))

  /**
   * The body of a step that carries tokens (and a code): only these fields, each a non-empty string
   * of at most 200 characters (a captcha solution 2000), checked by a schema the OpenAPI document
   * shows. Which of them a step needs is the step's own check (its error names the missing one).
   * Returns the checking middleware and a reader that answers a code not of 6 digits as the code's
   * own error (CODE_NO_MATCH), as a wrong code is.
   */
  const TOKEN_BODY = (fields: string[]) => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(fields.map((field) => [field, { type: 'string', minLength: 1, maxLength: field === 'captcha' ? 2000 : 200 }])),
    }
    const check = strictBody(schema)
    const read = (req: Request, res: Response): Record<string, string> | undefined => {
      const body = req.body as Record<string, string>
      if (body.verificationCode !== undefined && !/^\d{6}$/.test(body.verificationCode)) {
        fail(res, 'CODE_NO_MATCH')
        return undefined
      }
      return body
    }
    return { check, read }
  }
  return { deps, verification, smsBudget, captcha, fail, failFields, blocked, send, TOKEN_BODY, strictBody }
}

/** Bodies of the calls around sign-up that take fixed fields (spec §4): what they validate with,
 * and what the OpenAPI document shows for them. */
export const SEND_CONFIRMATION_MAIL_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['login'],
  properties: { login: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'The e-mail address the confirmation goes to' } },
} as const
export const REGISTRATION_TOKEN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 200, description: "The confirmation link's registration token" } },
} as const
export const CHECK_STEP_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['variant', 'step', 'data'],
  properties: {
    variant: { type: 'string', pattern: '^[a-z]{1,20}$', description: "The sign-up variant whose flow the step belongs to (the flow's join.start variant)" },
    step: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,40}$', description: 'The id of the step being left' },
    data: { type: 'object', description: "The form so far: the step's fields are checked, the others only give context (the country of a promo code)" },
  },
} as const
export const CHECK_PROMO_CODE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['promoCode'],
  properties: {
    promoCode: { type: 'string', minLength: 1, maxLength: 40, pattern: '\\S', description: 'The code as the punter typed it (case does not matter)' },
    countryId: { type: 'integer', description: 'The country the code is checked for (dictionary id); the site default without it' },
  },
} as const
