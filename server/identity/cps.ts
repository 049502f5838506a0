/**
 * Russia's national identification service (spec §3 "Identity verification", §4 "Identity
 * binding", §8 identification errors and lock reasons), as a local simulator behind the interface
 * a real connector would implement.
 *
 * The simulator decides from the submitted data, so tests and demos can reach every outcome:
 *   - passport number 000000             → fail, error passportInvalid
 *   - last name "Locked"                 → clientStatus locked, lockReason antifraud
 *   - birth date making the punter < 18  → fail, error IncorrectBirthDate, lockReason age
 *   - simplified                         → simple_success, level limited
 *   - simplified with verification       → bind_in_progress; `continue` → bind, level full
 *   - ESIA full                          → an identification link to the portal's simulator page
 *                                          (/dev/identity/esia); approving there → bind, level full
 */
export const IDENTIFICATION_RESULTS = ['none', 'fail', 'unknown', 'simple_fail', 'simple_success', 'data_requested', 'bind', 'bind_in_progress'] as const
export type IdentificationResult = (typeof IDENTIFICATION_RESULTS)[number]
export type ClientStatus = 'ok' | 'locked' | 'deleted'
export type IdentificationLevel = 'full' | 'limited'
export const IDENTIFICATION_METHODS = ['Fast', 'Simplified', 'SimplifiedWithVerification', 'ESIA_Simple', 'ESIA_Full', 'Tinkoff', 'Sber'] as const
export const IDENTIFICATION_ERRORS = [
  'unsupportedCitizenship',
  'DuplicateBind',
  'ExternalError',
  'discreditSnils',
  'incorrectExternalData',
  'passportInvalid',
  'IncorrectPersonalData',
  'IncorrectBirthDate',
  'sberInvalidCitizenship',
  'ExternalServicePhoneNumberMismatch',
  'sberUnavailable',
] as const
export const LOCK_REASONS = [
  'age', 'antifraud', 'arm', 'bankrupt', 'client', 'discredit', 'duplicate', 'egovServiceFail', 'fms', 'foreigner', 'general',
  'incorrectData', 'locked', 'outsiderData', 'tinkoffIncorrectData', 'unknownLocked', 'usaCitizenship', 'yankee',
] as const

export interface IdentityRecord {
  result: IdentificationResult
  clientStatus: ClientStatus
  level: IdentificationLevel | null
  method: (typeof IDENTIFICATION_METHODS)[number] | null
  error: (typeof IDENTIFICATION_ERRORS)[number] | null
  lockReason: (typeof LOCK_REASONS)[number] | null
}

export interface IdentityData {
  lastName: string
  firstName: string
  middleName?: string
  birthDay: string
  passportSeries: string
  passportNumber: string
  passportIssueDate: string
  inn?: string
  snils?: string
}

/** What a real connector to the national service implements. */
export interface NationalIdentityProvider {
  simplified(current: IdentityRecord, data: IdentityData, withVerification: boolean, now: number): IdentityRecord
  continue(current: IdentityRecord): IdentityRecord
  /** Starts a full identification on the state portal; `state` comes back with the portal's answer. */
  esiaFull(current: IdentityRecord, state: string): { record: IdentityRecord; identificationLink: string }
}

export const NO_IDENTITY: IdentityRecord = { result: 'none', clientStatus: 'ok', level: null, method: null, error: null, lockReason: null }

function age(birthDay: string, now: number): number {
  const [y, m, d] = birthDay.split('-').map(Number)
  const today = new Date(now)
  let years = today.getUTCFullYear() - y
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) years--
  return years
}

export const simulatedNationalIdentity: NationalIdentityProvider = {
  simplified(current, data, withVerification, now) {
    const method = withVerification ? 'SimplifiedWithVerification' : 'Simplified'
    if (current.clientStatus !== 'ok') return current
    if (data.passportNumber === '000000') return { ...current, result: 'fail', method, error: 'passportInvalid' }
    if (age(data.birthDay, now) < 18) return { ...current, result: 'fail', method, error: 'IncorrectBirthDate', lockReason: 'age', clientStatus: 'locked' }
    if (data.lastName.toLowerCase() === 'locked') return { ...current, result: 'fail', method, clientStatus: 'locked', lockReason: 'antifraud' }
    if (withVerification) return { ...current, result: 'bind_in_progress', method, error: null }
    return { ...current, result: 'simple_success', method, level: 'limited', error: null }
  },
  continue(current) {
    if (current.result === 'bind_in_progress' || current.result === 'data_requested') return { ...current, result: 'bind', level: 'full', error: null }
    return current
  },
  esiaFull(current, state) {
    return { record: { ...current, result: 'data_requested', method: 'ESIA_Full', error: null }, identificationLink: `/dev/identity/esia?state=${encodeURIComponent(state)}` }
  },
}

/** Limited or full identification level counts as success (spec §4). */
export const isIdentified = (record: IdentityRecord) => record.level === 'full' || record.level === 'limited'
