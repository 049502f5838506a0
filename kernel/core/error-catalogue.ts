/**
 * Spec §8's error catalogue as data, so the translations lint can prove that every code the
 * product can show has a text in every locale, and that a text only uses the placeholders its
 * code actually carries (the `{{disabledUntil}}` bug was a text whose caller never filled it).
 *
 * `values` lists what the gateway envelope's payload carries for a code (server/auth/router.ts,
 * server/signup/*): the notice and the form pass that payload to the text as its values.
 * Identification errors and lock reasons (Russia's identification service) get their own keys:
 * `identification.error.{code}` and `identification.lockReason.{reason}`.
 */
import { errorMessageKey } from './error-keys'

export interface CatalogueCode {
  code: string
  /** The payload fields this code's answer carries (what its text may interpolate). */
  values?: readonly string[]
}

const codes = (values: readonly string[] | undefined, ...names: string[]): CatalogueCode[] => names.map((code) => (values ? { code, values } : { code }))

/** Every code of spec §8, grouped as the spec groups them. */
export const SPEC_ERROR_CODES: readonly CatalogueCode[] = [
  // display rules and the gateway itself
  ...codes(undefined, 'EMPTY_TOKEN', 'TOKEN_NOT_FOUND', 'LOGIN_NOT_FOUND', 'INCORRECT_PUNTER_STATE', 'ERROR'),
  ...codes(undefined, 'UNAUTHORIZED', 'PLAYER_NOT_VERIFIED_PASSWORD', 'INTERNAL_SERVER_ERROR'),
  // verification and code checks
  ...codes(undefined, 'VERIFICATION_ERROR', 'DUPLICATE_PHONE_NUMBER', 'DISABLED_SMS_REGION', 'DUPLICATE_EMAIL', 'NONE', 'CPS_EMAIL_ALREADY_EXISTS', 'UNKNOWN_HASH'),
  ...codes(undefined, 'CODE_NO_MATCH', 'CODE_EXPIRED', 'CODE_OVERRIDDEN', 'CODE_NO_MATCH_OR_EXPIRED', 'PUNTER_BLOCKED', 'EXCEEDED_LIMIT'),
  ...codes(['nextAllowedAt'], 'TEMPORARY_BLOCKED'),
  ...codes(undefined, 'FORBIDDEN', 'SAME_PHONE_NUMBER', 'INCORRECT_PHONE_NUMBER', 'INCORRECT_PASSWORD', 'SESSION_ALREADY_VERIFIED', 'FORBIDDEN_THREE_DS_DISABLED'),
  ...codes(undefined, 'SQ_ANSWER_NOT_MATCH', 'SQ_ATTEMPTS_LIMIT_EXCEEDED', 'SQ_VERIFICATION_BLOCKED', 'SQ_RECOVERY_ACTIVATED', 'SQ_INIT_ACTIVATED', 'SQ_NOT_FOUND', 'SECRET_QUESTION_CHECK_NOT_PASSED'),
  // captcha
  ...codes(undefined, 'CAPTCHA_REQUIRED', 'INVALID_CAPTCHA', 'CAPTCHA_ANSWER_INVALID'),
  // login
  ...codes(['login'], 'NICKNAME_AUTH_TYPE_NEEDED', 'LOGIN_AUTH_TYPE_NEEDED', 'EMAIL_AUTH_TYPE_NEEDED', 'PHONE_NUMBER_AUTH_TYPE_NEEDED'),
  ...codes(['confirmationToken', 'email'], 'CANNOT_LOGIN_NO_EMAIL_CONFIRMED'),
  ...codes(['confirmationToken', 'phoneNumber'], 'CANNOT_LOGIN_PENDING_CONFIRMATION'),
  ...codes(['disabledUntil'], 'LOGIN_DENIED_BY_PERMISSION'),
  ...codes(undefined, 'NEED_CPR_REQUEST', 'PUNTER_NOT_LINKED_WITH_EXTERNAL_SYSTEM', 'GENERAL', 'access_denied', 'unknown', 'mitid_user_aborted'),
  ...codes(undefined, 'GENERAL_ERROR', 'INVALID_REFRESH_TOKEN'),
  // registration
  ...codes(undefined, 'CUSTOMER_SELFEXCLUDED', 'COMMON_ERROR', 'CPR_CODE_INVALID', 'DAILY_DEPOSIT_LIMIT_EXCEED', 'WEEKLY_DEPOSIT_LIMIT_EXCEED', 'MONTHLY_DEPOSIT_LIMIT_EXCEED'),
  ...codes(undefined, 'NICKNAME_ALREADY_EXIST', 'CUSTOMER_ERROR_CHECK_VERIFY', 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY', 'ValidationError'),
]

/** Identification errors of spec §8 (the identification service's `error`). */
export const IDENTIFICATION_ERROR_CODES = [
  'unsupportedCitizenship', 'DuplicateBind', 'ExternalError', 'discreditSnils', 'incorrectExternalData', 'passportInvalid',
  'IncorrectPersonalData', 'IncorrectBirthDate', 'sberInvalidCitizenship', 'ExternalServicePhoneNumberMismatch', 'sberUnavailable',
] as const

/** Lock reasons of spec §8 (the identification service's `lockReason`). */
export const LOCK_REASON_CODES = [
  'age', 'antifraud', 'arm', 'bankrupt', 'client', 'discredit', 'duplicate', 'egovServiceFail', 'fms', 'foreigner', 'general',
  'incorrectData', 'locked', 'outsiderData', 'tinkoffIncorrectData', 'unknownLocked', 'usaCitizenship', 'yankee',
] as const

export const identificationErrorKey = (code: string) => `identification.error.${code}`
export const lockReasonKey = (reason: string) => `identification.lockReason.${reason}`

export interface CatalogueKey {
  key: string
  /** Placeholders a caller can fill for this key; every other placeholder is never filled. */
  values: readonly string[]
  /** Where the key comes from, for lint messages. */
  source: string
}

/** Every key the catalogue needs: the display key of each §8 code (through the same mapping the
 * gateway client uses), the generic request error, identification errors and lock reasons. A key
 * shared by several codes (server.error.undefined) may use only what all of them carry: none. */
export function catalogueKeys(): CatalogueKey[] {
  const byKey = new Map<string, CatalogueKey>()
  const add = (key: string, values: readonly string[], source: string) => {
    const known = byKey.get(key)
    byKey.set(key, known ? { ...known, values: known.values.filter((v) => values.includes(v)) } : { key, values, source })
  }
  add(errorMessageKey(undefined), [], 'spec §8 generic request error')
  for (const { code, values } of SPEC_ERROR_CODES) add(errorMessageKey(code), values ?? [], `spec §8 code ${code}`)
  for (const code of IDENTIFICATION_ERROR_CODES) add(identificationErrorKey(code), [], `spec §8 identification error ${code}`)
  for (const reason of LOCK_REASON_CODES) add(lockReasonKey(reason), [], `spec §8 lock reason ${reason}`)
  return [...byKey.values()]
}
