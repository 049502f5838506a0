/**
 * Punters in the embedded database: creation (used by sign-up too), look-up by every login kind,
 * updates, and the heartbeat's user data (spec §3 "User data"), built whole from one row.
 *
 * The `punters` table belongs to the foundation (server/db/database.ts); the columns the accounts
 * part needs on top are added by this file's own migration.
 */
import { createHash, randomInt } from 'node:crypto'
import type { Result } from '../../engine/core/contracts'
import type { LoginKind } from '../../engine/auth/login-classification'
import { BET_PLACING_MODES, ODDS_TYPES } from '../../engine/core/odds'
import { SERVER_SETTINGS_DEFAULTS } from '../../engine/core/settings-defaults'
import { registerMigration, type Db } from '../db/database'
import { CURRENCIES } from '../dictionary/countries'
import { STANDBY_TIMEOUTS_MS, TIME_ZONE_IDS } from '../dictionary/settings-choices'
import { hashPassword } from './password'
// the store's tables on the query layer (q070): registered whenever the store is loaded
import './tables'

registerMigration(
  '101-punters-accounts',
  `ALTER TABLE punters ADD COLUMN login_denied_until INTEGER;
   ALTER TABLE punters ADD COLUMN last_login_at INTEGER;
   ALTER TABLE punters ADD COLUMN previous_login_at INTEGER;`,
)

/** Player state names (spec §4 "Player state names in the live app"). */
export const PUNTER_STATES = [
  'OPENED',
  'SELF_EXCLUDED',
  'PLAYER_PROTECTION_MEASURE',
  'NEED_DOCUMENT',
  'SUSPENDED',
  'BLOCKED_ID_UPLOAD',
  'CLOSED',
  'PROCESSING',
  'REQUIRED',
] as const
export type PunterState = (typeof PUNTER_STATES)[number] | (string & {})

export type LegalAgreement = 'accepted' | 'pending' | 'declined'

/** Fields kept in the row's `profile` JSON: what the heartbeat shows but nothing queries by. */
export interface PunterProfile {
  countryCode?: string
  personalDomain?: string
  accessCode?: string
  selfExclude?: { endDate: string | null; permanent: boolean; selfExcludedByRegulator: boolean; timeout: number | null }
  loyalty?: { balance: number; tier: string; bonusAvailable: boolean; needRequestRulesAcceptance: boolean }
  bonus?: { productsWithBonus: string[]; freeBetCount: number; welcomeBonusMoney: number; accounts?: { product: string; amount: number; currentStep: number; turnover: number; requiredTurnover: number }[] }
  documentsUploadState?: string
  needUploadDocuments?: boolean
  needEmail?: boolean
  needAutoVerification?: boolean
  identityCheckedManual?: boolean
  punterTypeId?: number
  /** A player protection measure set by the operator (null end: permanent); see server/regulation. */
  protectionMeasure?: { endDate: string | null }
  /** Reality check (server/regulation/reality-check.ts): the interval the punter chose. */
  realityCheck?: { timeoutMinutes: number; acceptedAt: number }
  /** The regulation alert waiting for the punter's confirmation (server/regulation/alerts.ts). */
  regulationAlert?: { status: string; spentHours: number; totalBetMinUnit: number; totalLostMinUnit: number; raisedAt: number; confirmedAt: number | null }
}

export interface Punter {
  id: number
  jurisdiction: string
  accountNumber: string
  email: string | null
  phone: string | null
  nickname: string | null
  passwordHash: string
  state: PunterState
  firstName: string
  lastName: string
  birthDay: string | null
  countryId: number | null
  currency: string
  balanceMinor: number
  withdrawableMinor: number
  firstDepositDate: string | null
  vip: boolean
  legalAgreement: LegalAgreement
  emailConfirmed: boolean
  phoneConfirmed: boolean
  identityState: string
  profile: PunterProfile
  settings: Record<string, unknown>
  loginDeniedUntil: number | null
  lastLoginAt: number | null
  previousLoginAt: number | null
  createdAt: number
  updatedAt: number
}

interface PunterRow {
  id: number
  jurisdiction: string
  account_number: string
  email: string | null
  phone: string | null
  nickname: string | null
  password_hash: string
  state: string
  first_name: string
  last_name: string
  birth_day: string | null
  country_id: number | null
  currency: string
  balance_minor: number
  withdrawable_minor: number
  first_deposit_date: string | null
  vip: number
  legal_agreement: string
  email_confirmed: number
  phone_confirmed: number
  identity_state: string
  profile: string
  settings: string
  login_denied_until: number | null
  last_login_at: number | null
  previous_login_at: number | null
  created_at: number
  updated_at: number
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}

function toPunter(row: PunterRow): Punter {
  return {
    id: row.id,
    jurisdiction: row.jurisdiction,
    accountNumber: row.account_number,
    email: row.email,
    phone: row.phone,
    nickname: row.nickname,
    passwordHash: row.password_hash,
    state: row.state,
    firstName: row.first_name,
    lastName: row.last_name,
    birthDay: row.birth_day,
    countryId: row.country_id,
    currency: row.currency,
    balanceMinor: row.balance_minor,
    withdrawableMinor: row.withdrawable_minor,
    firstDepositDate: row.first_deposit_date,
    vip: row.vip === 1,
    legalAgreement: (['accepted', 'pending', 'declined'].includes(row.legal_agreement) ? row.legal_agreement : 'pending') as LegalAgreement,
    emailConfirmed: row.email_confirmed === 1,
    phoneConfirmed: row.phone_confirmed === 1,
    identityState: row.identity_state,
    profile: parseJson<PunterProfile>(row.profile, {}),
    settings: parseJson<Record<string, unknown>>(row.settings, {}),
    loginDeniedUntil: row.login_denied_until,
    lastLoginAt: row.last_login_at,
    previousLoginAt: row.previous_login_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export interface NewPunter {
  jurisdiction: string
  password: string
  email?: string | null
  /** E.164. */
  phone?: string | null
  nickname?: string | null
  accountNumber?: string
  state?: PunterState
  firstName?: string
  lastName?: string
  birthDay?: string | null
  countryId?: number | null
  currency?: string
  balanceMinor?: number
  withdrawableMinor?: number
  firstDepositDate?: string | null
  vip?: boolean
  legalAgreement?: LegalAgreement
  emailConfirmed?: boolean
  phoneConfirmed?: boolean
  identityState?: string
  profile?: PunterProfile
  settings?: Record<string, unknown>
  loginDeniedUntil?: number | null
}

/** Codes sign-up shows (spec §8). */
export type CreatePunterError = 'DUPLICATE_EMAIL' | 'DUPLICATE_PHONE_NUMBER' | 'NICKNAME_ALREADY_EXIST' | 'COMMON_ERROR'

function newAccountNumber(db: Db): string {
  for (;;) {
    const candidate = String(randomInt(10_000_000, 99_999_999))
    if (!db.prepare('SELECT 1 FROM punters WHERE account_number = ?').get(candidate)) return candidate
  }
}

/**
 * Creates a punter (argon2id hash of the password). Duplicates answer with the sign-up codes
 * instead of throwing. Sign-up calls this; so does the demo seed.
 */
export async function createPunter(db: Db, input: NewPunter, now: number): Promise<Result<Punter>> {
  const passwordHash = await hashPassword(input.password)
  return insertPunter(db, { ...input, passwordHash }, now)
}

/** Same as createPunter with an already computed hash (the seed hashes in parallel). */
export function insertPunter(db: Db, input: Omit<NewPunter, 'password'> & { passwordHash: string }, now: number): Result<Punter> {
  const email = input.email?.trim().toLowerCase() || null
  const phone = input.phone || null
  const nickname = input.nickname?.trim() || null
  if (email && db.prepare('SELECT 1 FROM punters WHERE email = ?').get(email)) return { ok: false, code: 'DUPLICATE_EMAIL' }
  if (phone && db.prepare('SELECT 1 FROM punters WHERE phone = ?').get(phone)) return { ok: false, code: 'DUPLICATE_PHONE_NUMBER' }
  if (nickname && db.prepare('SELECT 1 FROM punters WHERE nickname = ?').get(nickname)) return { ok: false, code: 'NICKNAME_ALREADY_EXIST' }
  try {
    const info = db
      .prepare(
        `INSERT INTO punters (jurisdiction, account_number, email, phone, nickname, password_hash, state, first_name, last_name,
           birth_day, country_id, currency, balance_minor, withdrawable_minor, first_deposit_date, vip, legal_agreement,
           email_confirmed, phone_confirmed, identity_state, profile, settings, login_denied_until, created_at, updated_at)
         VALUES (@jurisdiction, @accountNumber, @email, @phone, @nickname, @passwordHash, @state, @firstName, @lastName,
           @birthDay, @countryId, @currency, @balanceMinor, @withdrawableMinor, @firstDepositDate, @vip, @legalAgreement,
           @emailConfirmed, @phoneConfirmed, @identityState, @profile, @settings, @loginDeniedUntil, @now, @now)`,
      )
      .run({
        jurisdiction: input.jurisdiction,
        accountNumber: input.accountNumber ?? newAccountNumber(db),
        email,
        phone,
        nickname,
        passwordHash: input.passwordHash,
        state: input.state ?? 'OPENED',
        firstName: input.firstName ?? '',
        lastName: input.lastName ?? '',
        birthDay: input.birthDay ?? null,
        countryId: input.countryId ?? null,
        currency: input.currency ?? 'USD',
        balanceMinor: input.balanceMinor ?? 0,
        withdrawableMinor: input.withdrawableMinor ?? 0,
        firstDepositDate: input.firstDepositDate ?? null,
        vip: input.vip ? 1 : 0,
        legalAgreement: input.legalAgreement ?? 'accepted',
        emailConfirmed: input.emailConfirmed === false ? 0 : 1,
        phoneConfirmed: input.phoneConfirmed === false ? 0 : 1,
        identityState: input.identityState ?? 'none',
        profile: JSON.stringify(input.profile ?? {}),
        settings: JSON.stringify(input.settings ?? {}),
        loginDeniedUntil: input.loginDeniedUntil ?? null,
        now,
      })
    return { ok: true, value: findPunterById(db, Number(info.lastInsertRowid))! }
  } catch {
    // A unique constraint lost to a concurrent insert.
    return { ok: false, code: 'COMMON_ERROR' }
  }
}

export function findPunterById(db: Db, id: number): Punter | undefined {
  const row = db.prepare('SELECT * FROM punters WHERE id = ?').get(id) as PunterRow | undefined
  return row && toPunter(row)
}

const LOOKUP_COLUMN: Record<Exclude<LoginKind, 'other'>, string> = {
  email: 'email',
  phone_number: 'phone',
  account_number: 'account_number',
  nickname: 'nickname',
}

/** The punter of a site with this login (already classified and normalised), if any. */
export function findPunterByLogin(db: Db, jurisdiction: string, kind: LoginKind, value: string): Punter | undefined {
  if (kind === 'other') return undefined
  const row = db.prepare(`SELECT * FROM punters WHERE ${LOOKUP_COLUMN[kind]} = ? AND jurisdiction = ?`).get(value, jurisdiction) as PunterRow | undefined
  return row && toPunter(row)
}

export function recordLogin(db: Db, id: number, now: number): void {
  db.prepare('UPDATE punters SET previous_login_at = last_login_at, last_login_at = ?, updated_at = ? WHERE id = ?').run(now, now, id)
}

export function setLegalAgreement(db: Db, id: number, value: LegalAgreement, now: number): void {
  db.prepare('UPDATE punters SET legal_agreement = ?, updated_at = ? WHERE id = ?').run(value, now, id)
}

export function setPunterState(db: Db, id: number, state: PunterState, now: number): void {
  db.prepare('UPDATE punters SET state = ?, updated_at = ? WHERE id = ?').run(state, now, id)
}

export function saveServerSettings(db: Db, id: number, settings: Record<string, unknown>, now: number): Record<string, unknown> {
  const punter = findPunterById(db, id)
  const merged = { ...(punter?.settings ?? {}), ...settings }
  db.prepare('UPDATE punters SET settings = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(merged), now, id)
  return merged
}

/** Server-side user settings and their defaults (spec §3 "Account settings keys", §9 defaults). */
export { SERVER_SETTINGS_DEFAULTS }

export const SERVER_SETTINGS_SCHEMA = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: {
    noEmailCorrespondence: { type: 'boolean' },
    termsAgreement: { type: 'boolean' },
    locale: { type: 'string', pattern: '^[a-z]{2,3}$' },
    oddsType: { enum: ODDS_TYPES },
    betPlacingMode: { enum: BET_PLACING_MODES },
    priceChangeNotificationViewType: { enum: ['ARROW', 'TEXT_COLOR', 'OFF'] },
    standbyTimeoutMillis: { enum: STANDBY_TIMEOUTS_MS },
    timeZoneId: { enum: TIME_ZONE_IDS },
    showCurrentBalance: { type: 'boolean' },
    currencyId: { enum: [-1, ...CURRENCIES.map((c) => c.id)] },
    showVipStatusAppIcon: { type: 'boolean' },
    showVipStatusAvatar: { type: 'boolean' },
  },
} as const

const minor = (amount: number) => Math.round(amount) / 100

/** A public, stable identifier of the punter (analytics, recognition): never a credential. */
export function punterToken(id: number): string {
  return createHash('sha256').update(`parlay-punter:${id}`).digest('hex').slice(0, 32)
}

/** The heartbeat payload (spec §3 "User data"), whole. */
export function userData(punter: Punter, siteLocale: string) {
  const profile = punter.profile
  const settings = { ...SERVER_SETTINGS_DEFAULTS, locale: siteLocale, ...punter.settings }
  return {
    user: {
      id: String(punter.id),
      account: {
        id: String(punter.id),
        accountNumber: punter.accountNumber,
        currency: punter.currency,
        email: punter.email,
        registrationDate: new Date(punter.createdAt).toISOString(),
        lastLoginDate: punter.previousLoginAt === null ? null : new Date(punter.previousLoginAt).toISOString(),
        punterTypeId: profile.punterTypeId ?? 1,
      },
    },
    balanceInfo: { mainBalance: minor(punter.balanceMinor), withdrawable: minor(punter.withdrawableMinor) },
    bonusInfo: {
      productsWithBonus: profile.bonus?.productsWithBonus ?? [],
      freeBetCount: profile.bonus?.freeBetCount ?? 0,
      welcomeBonusMoney: profile.bonus?.welcomeBonusMoney ?? 0,
      bonusAccounts: (profile.bonus?.accounts ?? []) as { product: string; amount: number; currentStep: number; turnover: number; requiredTurnover: number }[],
    },
    punterInfo: {
      state: punter.state,
      details: {
        firstName: punter.firstName,
        nickname: punter.nickname ?? '',
        phoneInfo: { phoneNumber: punter.phone, confirmed: punter.phoneConfirmed },
        address: { countryId: punter.countryId, countryCode: profile.countryCode ?? null },
      },
    },
    settings: {
      ...settings,
      siteSettings: [{ siteType: 'MOBILE', personalDomain: profile.personalDomain ?? null, accessCode: profile.accessCode ?? null }],
    },
    loyaltyAccountInfo: profile.loyalty ?? { balance: 0, tier: 'Common', bonusAvailable: false, needRequestRulesAcceptance: false },
    selfExcludeSettings: profile.selfExclude ?? { endDate: null, permanent: false, selfExcludedByRegulator: false, timeout: null },
    punterIdentityState: punter.identityState,
    legalAgreementAccepted: punter.legalAgreement === 'accepted',
    legalAgreementDeclined: punter.legalAgreement === 'declined',
    punterToken: punterToken(punter.id),
    documentsUploadState: profile.documentsUploadState ?? 'NONE',
    needEmail: profile.needEmail ?? !punter.email,
    needAutoVerification: profile.needAutoVerification ?? false,
    identityCheckedManual: profile.identityCheckedManual ?? false,
    needUploadDocuments: profile.needUploadDocuments ?? false,
    firstDepositDate: punter.firstDepositDate,
    vip: punter.vip,
  }
}

export type UserData = ReturnType<typeof userData>
