/**
 * Every account status of spec §4 as data (docs/adr/0088-account-statuses.md): the spec's name,
 * the stored state name (UPPER_SNAKE, as the live app's OPENED, SELF_EXCLUDED), its group, what
 * the punter may do on the site (log in, bet, deposit, withdraw), the code a refused money action
 * answers, and the text the punter reads (`account.status.<STATE>`, schemas/i18n/*-statuses.json).
 *
 * Statuses that server/regulation/restrictions.ts already derives a restriction from (SELF_EXCLUDED,
 * PLAYER_PROTECTION_MEASURE, SUSPENDED, BLOCKED_ID_UPLOAD, NEED_DOCUMENT) name it in `restriction`:
 * for those the jurisdiction document decides which money actions are closed, and `may` is the
 * default when it is silent. For every other status `may` decides. A state not in the list may do
 * nothing (fail closed).
 */

export const STATUS_GROUPS = ['open', 'registration', 'verification', 'identification', 'protection', 'self-exclusion', 'hold', 'closed'] as const
export type StatusGroup = (typeof STATUS_GROUPS)[number]

export interface Allowed {
  login: boolean
  bet: boolean
  deposit: boolean
  withdraw: boolean
}

export interface AccountStatus {
  /** The spec's name (§4 "Account statuses"). */
  name: string
  /** The state name stored on the punter and sent in the heartbeat (punterInfo.state). */
  state: string
  group: StatusGroup
  may: Allowed
  /** The restriction server/regulation derives from this state (the jurisdiction then decides). */
  restriction?: 'SELF_EXCLUSION' | 'PROTECTION_MEASURE' | 'SUSPENDED' | 'BLOCKED_ID_UPLOAD' | 'NEED_DOCUMENT'
  /** The spec §4 set of statuses the back office sets on an existing account (the ADR). */
  backOffice?: true
}

const ALL: Allowed = { login: true, bet: true, deposit: true, withdraw: true }
const NONE: Allowed = { login: false, bet: false, deposit: false, withdraw: false }
/** Signed in, money held: nothing moves until a check is done. */
const LOOK_ONLY: Allowed = { login: true, bet: false, deposit: false, withdraw: false }
/** Signed in, may take the money out, no new play. */
const PAY_OUT_ONLY: Allowed = { login: true, bet: false, deposit: false, withdraw: true }

const status = (name: string, state: string, group: StatusGroup, may: Allowed, extra: Partial<AccountStatus> = {}): AccountStatus => ({ name, state, group, may, ...extra })

export const ACCOUNT_STATUSES: readonly AccountStatus[] = [
  status('Opened', 'OPENED', 'open', ALL, { backOffice: true }),
  status('antibanOpen', 'ANTIBAN_OPEN', 'open', ALL),
  status('NotRequired', 'NOT_REQUIRED', 'open', ALL),
  status('Inactive', 'INACTIVE', 'open', ALL, { backOffice: true }),
  status('Processing', 'PROCESSING', 'registration', NONE),
  status('LegalAgreement', 'LEGAL_AGREEMENT', 'registration', PAY_OUT_ONLY),
  status('NeedAddEmail', 'NEED_ADD_EMAIL', 'registration', { login: true, bet: true, deposit: false, withdraw: true }),
  status('Required', 'REQUIRED', 'verification', LOOK_ONLY, { backOffice: true }),
  status('PendingVerification', 'PENDING_VERIFICATION', 'verification', LOOK_ONLY, { backOffice: true }),
  status('NeedAutoVerification', 'NEED_AUTO_VERIFICATION', 'verification', LOOK_ONLY),
  status('HooyuProcessing', 'HOOYU_PROCESSING', 'verification', LOOK_ONLY),
  status('PunterUpload', 'PUNTER_UPLOAD', 'verification', LOOK_ONLY),
  status('NeedDocument', 'NEED_DOCUMENT', 'verification', LOOK_ONLY, { restriction: 'NEED_DOCUMENT', backOffice: true }),
  status('BlockedIDUpload', 'BLOCKED_ID_UPLOAD', 'verification', NONE, { restriction: 'BLOCKED_ID_UPLOAD', backOffice: true }),
  status('TsupisSuccess', 'TSUPIS_SUCCESS', 'identification', ALL),
  status('TsupisProcessing', 'TSUPIS_PROCESSING', 'identification', LOOK_ONLY),
  status('TsupisPhoneVerify', 'TSUPIS_PHONE_VERIFY', 'identification', LOOK_ONLY),
  status('TsupisContinueEsiaSimple', 'TSUPIS_CONTINUE_ESIA_SIMPLE', 'identification', LOOK_ONLY),
  status('TsupisContinueEsiaFull', 'TSUPIS_CONTINUE_ESIA_FULL', 'identification', LOOK_ONLY),
  status('TsupisBankVerification', 'TSUPIS_BANK_VERIFICATION', 'identification', LOOK_ONLY),
  status('TsupisFail', 'TSUPIS_FAIL', 'identification', LOOK_ONLY),
  status('TsupisRejectedDataMismatch', 'TSUPIS_REJECTED_DATA_MISMATCH', 'identification', LOOK_ONLY),
  status('TsupisRejectedClientLocked', 'TSUPIS_REJECTED_CLIENT_LOCKED', 'identification', LOOK_ONLY),
  status('TsupisRejectedUnderage', 'TSUPIS_REJECTED_UNDERAGE', 'identification', NONE),
  status('PlayerProtectionMeasure', 'PLAYER_PROTECTION_MEASURE', 'protection', PAY_OUT_ONLY, { restriction: 'PROTECTION_MEASURE', backOffice: true }),
  status('TemporaryProtectionMeasure', 'TEMPORARY_PROTECTION_MEASURE', 'protection', PAY_OUT_ONLY),
  status('PermanentProtectionMeasure', 'PERMANENT_PROTECTION_MEASURE', 'protection', PAY_OUT_ONLY),
  status('SelfExcluded', 'SELF_EXCLUDED', 'self-exclusion', NONE, { restriction: 'SELF_EXCLUSION', backOffice: true }),
  status('TimeOutSelfExclusion', 'TIME_OUT_SELF_EXCLUSION', 'self-exclusion', NONE),
  status('TemporarySelfExclusion', 'TEMPORARY_SELF_EXCLUSION', 'self-exclusion', NONE),
  status('PermanentSelfExclusion', 'PERMANENT_SELF_EXCLUSION', 'self-exclusion', NONE),
  status('ProhibitionSelfExclude', 'PROHIBITION_SELF_EXCLUDE', 'self-exclusion', NONE),
  status('Suspended', 'SUSPENDED', 'hold', LOOK_ONLY, { restriction: 'SUSPENDED', backOffice: true }),
  status('Dormant', 'DORMANT', 'hold', PAY_OUT_ONLY, { backOffice: true }),
  status('Seized', 'SEIZED', 'hold', NONE, { backOffice: true }),
  status('SuspendedGDPR', 'SUSPENDED_GDPR', 'hold', NONE),
  status('Closed', 'CLOSED', 'closed', NONE),
]

const byName = new Map<string, AccountStatus>(ACCOUNT_STATUSES.flatMap((s) => [[s.state, s] as const, [s.name, s] as const]))

/** The status of a stored state, by its state name or its spec name; undefined: unknown (may do nothing). */
export const accountStatusOf = (state: string): AccountStatus | undefined => byName.get(state)

/** The text the punter reads about the status. */
export const statusTextKey = (status: Pick<AccountStatus, 'state'>) => `account.status.${status.state}`

/** The code a money action refused by the status answers (spec §8: self-exclusions have their own). */
export const statusRefusalCode = (status: AccountStatus): 'CUSTOMER_SELFEXCLUDED' | 'INCORRECT_PUNTER_STATE' =>
  status.group === 'self-exclusion' ? 'CUSTOMER_SELFEXCLUDED' : 'INCORRECT_PUNTER_STATE'

/**
 * The groups a status may move to (the ADR): a punter leaves registration and checks by passing
 * them, any open account may be restricted, a permanent exclusion or measure only ends in closing,
 * and a closed account is final (a returning punter opens a new, checked account).
 */
const MOVES: Record<StatusGroup, readonly StatusGroup[]> = {
  open: ['open', 'verification', 'identification', 'protection', 'self-exclusion', 'hold', 'closed', 'registration'],
  registration: ['registration', 'open', 'verification', 'identification', 'closed'],
  verification: ['verification', 'open', 'identification', 'protection', 'self-exclusion', 'hold', 'closed'],
  identification: ['identification', 'open', 'verification', 'protection', 'self-exclusion', 'hold', 'closed'],
  protection: ['protection', 'open', 'self-exclusion', 'hold', 'closed'],
  'self-exclusion': ['self-exclusion', 'open', 'closed'],
  hold: ['hold', 'open', 'verification', 'identification', 'protection', 'self-exclusion', 'closed'],
  closed: [],
}

const FINAL_BUT_CLOSING = new Set(['PERMANENT_SELF_EXCLUSION', 'PERMANENT_PROTECTION_MEASURE', 'TSUPIS_REJECTED_UNDERAGE'])

/** May an account move from one status to another? (Unknown states: no.) */
export function mayMove(from: string, to: string): boolean {
  const a = accountStatusOf(from)
  const b = accountStatusOf(to)
  if (!a || !b || a === b) return false
  if (FINAL_BUT_CLOSING.has(a.state)) return b.group === 'closed'
  return MOVES[a.group].includes(b.group)
}
