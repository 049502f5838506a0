/**
 * Punters in the embedded database: creation (used by sign-up too), look-up by every login kind,
 * updates, and the heartbeat's user data (spec §3 "User data"), built whole from one row.
 *
 * The `punters` table belongs to the foundation (server/db/database.ts); the columns the accounts
 * part needs on top are added by this file's own migration. On the query layer (issue 16) its
 * current shape is ./tables.ts (q070), and every statement here runs on SQLite or PostgreSQL.
 */
import { createHash, randomInt } from 'node:crypto'
import type { Result } from '../../kernel/core/contracts'
import type { LoginKind } from '../../kernel/auth/login-classification'
import { BET_PLACING_MODES, ODDS_TYPES } from '../../kernel/core/odds'
import { SERVER_SETTINGS_DEFAULTS } from '../../kernel/core/settings-defaults'
import { sql, type Kysely, type Selectable } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { isStorageUnavailable } from '../db/database'
import type { Tables } from '../db/tables'
import { mayMove } from '../../kernel/punters/account-statuses'
import { CURRENCIES } from '../dictionary/countries'
import { STANDBY_TIMEOUTS_MS, TIME_ZONE_IDS } from '../dictionary/settings-choices'
import { PLAYTHROUGH, REAL } from './accounts'
import { writeLegs, type Leg } from './ledger'
import { hashPassword } from './password'
// the store's tables on the query layer (q070): registered whenever the store is loaded
import type { PunterTable } from './tables'
import './tables'
import { sqliteHistory } from '../db/schema'

export const sqlite101PuntersAccounts = sqliteHistory(
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
  /** What the bonus offers show (the money itself is in the bonus accounts: server/punters/bonuses.ts). */
  bonus?: { productsWithBonus: string[]; freeBetCount: number; welcomeBonusMoney: number }
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
  /** The locale the punter signed up in (null: not known, an older account or a seeded one). */
  signupLocale: string | null
  loginDeniedUntil: number | null
  lastLoginAt: number | null
  previousLoginAt: number | null
  createdAt: number
  updatedAt: number
}

type PunterRow = Selectable<PunterTable>

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}

/** A punters row as the domain's Punter (also for statements that join the row: server/auth/sessions.ts). */
export function punterFromRow(row: PunterRow): Punter {
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
    signupLocale: row.signup_locale ?? null,
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
  /** The opening balance (real money), entered in the ledger as the account's first entry. */
  balanceMinor?: number
  /** How much of the opening balance may be withdrawn (default all); the rest is play-through. */
  withdrawableMinor?: number
  firstDepositDate?: string | null
  vip?: boolean
  legalAgreement?: LegalAgreement
  emailConfirmed?: boolean
  phoneConfirmed?: boolean
  identityState?: string
  profile?: PunterProfile
  settings?: Record<string, unknown>
  signupLocale?: string | null
  loginDeniedUntil?: number | null
}

/** Codes sign-up shows (spec §8). */
export type CreatePunterError = 'DUPLICATE_EMAIL' | 'DUPLICATE_PHONE_NUMBER' | 'NICKNAME_ALREADY_EXIST' | 'COMMON_ERROR'

async function newAccountNumber(db: Kysely<Tables>): Promise<string> {
  for (;;) {
    const candidate = String(randomInt(10_000_000, 99_999_999))
    if (!(await db.selectFrom('punters').select('id').where('account_number', '=', candidate).executeTakeFirst())) return candidate
  }
}

/** Matches a column case-insensitively (SQLite's NOCASE, PostgreSQL's lower(): ./tables.ts); other parts' reads of e-mail and nickname use it too. */
export const lowerIs = (column: 'email' | 'nickname', value: string) => sql<boolean>`lower(${sql.ref(column)}) = lower(${value})`

/**
 * Creates a punter (argon2id hash of the password). Duplicates answer with the sign-up codes
 * instead of throwing. Sign-up calls this; so does the demo seed.
 */
export async function createPunter(data: DataLayer, input: NewPunter, now: number): Promise<Result<Punter>> {
  const passwordHash = await hashPassword(input.password)
  return insertPunter(data, { ...input, passwordHash }, now)
}

/**
 * Same as createPunter with an already computed hash (the seed hashes in parallel). The reads
 * give the sign-up codes; the unique indexes are the guard between instances (a row lost to a
 * concurrent insert answers the code of the column it collided on, else COMMON_ERROR).
 */
export async function insertPunter(data: DataLayer, input: Omit<NewPunter, 'password'> & { passwordHash: string }, now: number): Promise<Result<Punter>> {
  const email = input.email?.trim().toLowerCase() || null
  const phone = input.phone || null
  const nickname = input.nickname?.trim() || null
  const taken = await duplicateOf(data.db, email, phone, nickname)
  if (taken) return { ok: false, code: taken }
  try {
    const id = await data.transaction(async (tx) => {
      const row = await tx
        .insertInto('punters')
        .values({
          jurisdiction: input.jurisdiction,
          account_number: input.accountNumber ?? (await newAccountNumber(tx)),
          email,
          phone,
          nickname,
          password_hash: input.passwordHash,
          state: input.state ?? 'OPENED',
          first_name: input.firstName ?? '',
          last_name: input.lastName ?? '',
          birth_day: input.birthDay ?? null,
          country_id: input.countryId ?? null,
          currency: input.currency ?? 'USD',
          // the opening balance arrives through the ledger, below
          balance_minor: 0,
          withdrawable_minor: 0,
          playthrough_minor: 0,
          first_deposit_date: input.firstDepositDate ?? null,
          vip: input.vip ? 1 : 0,
          legal_agreement: input.legalAgreement ?? 'accepted',
          email_confirmed: input.emailConfirmed === false ? 0 : 1,
          phone_confirmed: input.phoneConfirmed === false ? 0 : 1,
          identity_state: input.identityState ?? 'none',
          profile: JSON.stringify(input.profile ?? {}),
          settings: JSON.stringify(input.settings ?? {}),
          login_denied_until: input.loginDeniedUntil ?? null,
          signup_locale: input.signupLocale ?? null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await writeLegs(tx, { punterId: row.id, reference: `opening:${row.id}`, kind: 'opening', now }, openingLegs(input))
      return row.id
    })
    return { ok: true, value: (await findPunterById(data, id))! }
  } catch (error) {
    if (isStorageUnavailable(error)) throw error
    // A unique index lost to a concurrent insert (another request or instance): name the column.
    return { ok: false, code: (await duplicateOf(data.db, email, phone, nickname)) ?? 'COMMON_ERROR' }
  }
}

/** Every account opens with an entry (0 for a sign-up): the opening balance, and the part of it
 * not yet withdrawable as play-through (a seed's `withdrawableMinor` below its balance). */
function openingLegs(input: Pick<NewPunter, 'balanceMinor' | 'withdrawableMinor'>): Leg[] {
  const opening = input.balanceMinor ?? 0
  const playthrough = input.withdrawableMinor === undefined ? 0 : Math.max(0, opening - input.withdrawableMinor)
  return [{ account: REAL, amountMinor: opening }, ...(playthrough > 0 ? [{ account: PLAYTHROUGH, amountMinor: playthrough, part: 'playthrough' }] : [])]
}

async function duplicateOf(db: Kysely<Tables>, email: string | null, phone: string | null, nickname: string | null): Promise<CreatePunterError | undefined> {
  if (email && (await db.selectFrom('punters').select('id').where(lowerIs('email', email)).executeTakeFirst())) return 'DUPLICATE_EMAIL'
  if (phone && (await db.selectFrom('punters').select('id').where('phone', '=', phone).executeTakeFirst())) return 'DUPLICATE_PHONE_NUMBER'
  if (nickname && (await db.selectFrom('punters').select('id').where(lowerIs('nickname', nickname)).executeTakeFirst())) return 'NICKNAME_ALREADY_EXIST'
  return undefined
}

export async function findPunterById(data: DataLayer, id: number): Promise<Punter | undefined> {
  const row = await data.db.selectFrom('punters').selectAll().where('id', '=', id).executeTakeFirst()
  return row && punterFromRow(row)
}

/** The punter of a site with this login (already classified and normalised), if any. */
export async function findPunterByLogin(data: DataLayer, jurisdiction: string, kind: LoginKind, value: string): Promise<Punter | undefined> {
  if (kind === 'other') return undefined
  const query = data.db.selectFrom('punters').selectAll().where('jurisdiction', '=', jurisdiction)
  const row = await (kind === 'email' || kind === 'nickname' ? query.where(lowerIs(kind, value)) : query.where(kind === 'phone_number' ? 'phone' : 'account_number', '=', value)).executeTakeFirst()
  return row && punterFromRow(row)
}

export async function recordLogin(data: DataLayer, id: number, now: number): Promise<void> {
  await data.db.updateTable('punters').set((eb) => ({ previous_login_at: eb.ref('last_login_at'), last_login_at: now, updated_at: now })).where('id', '=', id).execute()
}

export async function setLegalAgreement(data: DataLayer, id: number, value: LegalAgreement, now: number): Promise<void> {
  await data.db.updateTable('punters').set({ legal_agreement: value, updated_at: now }).where('id', '=', id).execute()
}

/** Writes a state as it is, without the rule of allowed moves: demo seeding and tests that put an
 * account into a status. Anything acting for the business moves through `movePunterStatus`. */
export async function setPunterState(data: DataLayer, id: number, state: PunterState, now: number): Promise<void> {
  await data.db.updateTable('punters').set({ state, updated_at: now }).where('id', '=', id).execute()
}

/** A move the account-status rule refuses (docs/adr/0088-account-statuses.md), or one that lost a race. */
export class StatusMoveRefused extends Error {
  constructor(readonly from: string, readonly to: string, readonly why: 'not-allowed' | 'changed-meanwhile' | 'no-punter') {
    super(`account status move ${from} → ${to} refused: ${why}`)
  }
}

/** Moves an account to another status when the rule allows it (`mayMove`); written only if the
 * status is still the one checked, so two moves at once cannot both pass. Same status: nothing. */
export async function movePunterStatus(data: DataLayer, id: number, to: PunterState, now: number): Promise<{ from: string; to: string }> {
  const row = await data.db.selectFrom('punters').select('state').where('id', '=', id).executeTakeFirst()
  if (!row) throw new StatusMoveRefused('?', to, 'no-punter')
  if (row.state === to) return { from: row.state, to }
  if (!mayMove(row.state, to)) throw new StatusMoveRefused(row.state, to, 'not-allowed')
  const done = await data.db.updateTable('punters').set({ state: to, updated_at: now }).where('id', '=', id).where('state', '=', row.state).executeTakeFirst()
  if (Number(done.numUpdatedRows) !== 1) throw new StatusMoveRefused(row.state, to, 'changed-meanwhile')
  return { from: row.state, to }
}

/** The key that read-then-write transactions on one punter's row serialise on (an advisory lock
 * on PostgreSQL; SQLite's IMMEDIATE transactions are serialised already). */
export const punterLock = (id: number) => `punter:${id}`

/** Merges settings into the punter's: read and written in one transaction serialised on the
 * punter, so two instances saving different keys at once keep both. */
export async function saveServerSettings(data: DataLayer, id: number, settings: Record<string, unknown>, now: number): Promise<Record<string, unknown>> {
  return data.transaction(
    async (tx) => {
      const row = await tx.selectFrom('punters').select('settings').where('id', '=', id).executeTakeFirst()
      const merged = { ...parseJson<Record<string, unknown>>(row?.settings ?? '{}', {}), ...settings }
      await tx.updateTable('punters').set({ settings: JSON.stringify(merged), updated_at: now }).where('id', '=', id).execute()
      return merged
    },
    { serialiseOn: punterLock(id) },
  )
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

/** One open bonus account as the heartbeat shows it (spec §3 bonusInfo), major units. */
export interface BonusAccountView {
  product: string
  amount: number
  currentStep: number
  turnover: number
  requiredTurnover: number
  expiresAt: string | null
}

/** The heartbeat payload (spec §3 "User data"), whole; `bonusAccounts`: the open bonus accounts (server/punters/bonuses.ts). */
export function userData(punter: Punter, siteLocale: string, bonusAccounts: BonusAccountView[] = []) {
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
      bonusAccounts,
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
