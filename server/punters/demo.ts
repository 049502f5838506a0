/**
 * Demo punters: one for every account state that changes what a punter sees, so anyone can see
 * every after-login popup and every login answer. Seeded at start, idempotently (an existing
 * account number is left alone). The table in DEMO_PUNTERS.md lists the same data; a unit test
 * keeps them in step.
 */
import type { DataLayer } from '../db/data-layer'
import type { Logger } from '../log'
import { hashPassword } from './password'
import { insertPunter, type NewPunter } from './repository'

/** Every demo punter's password (demo data only: never seeded in production). */
export const DEMO_PASSWORD = 'parlay-demo-1'

const DAY = 86_400_000

export interface DemoPunter extends Omit<NewPunter, 'password'> {
  accountNumber: string
  /** What logging in as this punter shows. */
  shows: string
}

export function demoPunters(now: number): DemoPunter[] {
  const inDays = (days: number) => new Date(now + days * DAY).toISOString()
  const base = { jurisdiction: 'curacao', currency: 'USD', countryId: 1, balanceMinor: 15_000, withdrawableMinor: 15_000, firstDepositDate: '2024-01-15', firstName: 'Demo' }
  // 150 in roubles is under the Russian slip's smallest quick stake (100 of a 10-rouble minimum) and
  // below its largest (1,000): the Russian punters hold 15,000 ₽, so the whole loop can be played (issue 31 item 8)
  const roubles = { balanceMinor: 1_500_000, withdrawableMinor: 1_500_000 }
  return [
    { ...base, accountNumber: '10000001', email: 'opened@demo.parlay.test', phone: '+59995101001', nickname: 'Opened', profile: { countryCode: 'CW' }, shows: 'Nothing: an ordinary open account (log in by e-mail, phone, account number or nickname).' },
    { ...base, accountNumber: '10000002', email: 'self-excluded@demo.parlay.test', phone: '+59995101002', nickname: 'SelfExcluded', state: 'SELF_EXCLUDED', profile: { countryCode: 'CW', selfExclude: { endDate: inDays(30), permanent: false, selfExcludedByRegulator: false, timeout: null } }, shows: 'login refused: CUSTOMER_SELFEXCLUDED; the self-exclude popup shows when the exclusion ends (30 days).' },
    { ...base, accountNumber: '10000003', email: 'protection@demo.parlay.test', phone: '+59995101003', nickname: 'Protected', state: 'PLAYER_PROTECTION_MEASURE', profile: { countryCode: 'CW' }, shows: 'player-protection-measure popup.' },
    { ...base, accountNumber: '10000004', email: 'need-document@demo.parlay.test', phone: '+59995101004', nickname: 'NeedDocument', state: 'NEED_DOCUMENT', profile: { countryCode: 'CW', needUploadDocuments: true, documentsUploadState: 'REQUIRED' }, shows: 'user-needs-document popup.' },
    { ...base, accountNumber: '10000005', email: 'suspended@demo.parlay.test', phone: '+59995101005', nickname: 'Suspended', state: 'SUSPENDED', profile: { countryCode: 'CW' }, shows: 'user-suspended popup.' },
    { ...base, accountNumber: '10000006', email: 'blocked-id@demo.parlay.test', phone: '+59995101006', nickname: 'BlockedUpload', state: 'BLOCKED_ID_UPLOAD', profile: { countryCode: 'CW' }, shows: 'logged-out-blocked-user popup, then logged out.' },
    { ...base, accountNumber: '10000007', email: 'closed@demo.parlay.test', phone: '+59995101007', nickname: 'Closed', state: 'CLOSED', profile: { countryCode: 'CW' }, shows: 'account-closed popup, then logged out.' },
    { ...base, accountNumber: '10000008', email: 'vip@demo.parlay.test', phone: '+59995101008', nickname: 'HighRoller', vip: true, settings: { showVipStatusAvatar: true, showVipStatusAppIcon: true }, balanceMinor: 2_500_000, withdrawableMinor: 2_000_000, profile: { countryCode: 'CW', loyalty: { balance: 12_500, tier: 'VIP', bonusAvailable: true, needRequestRulesAcceptance: false } }, shows: 'VIP avatar and icon; no popup.' },
    { ...base, accountNumber: '10000009', email: 'zero@demo.parlay.test', phone: '+59995101009', nickname: 'ZeroBalance', balanceMinor: 0, withdrawableMinor: 0, firstDepositDate: null, profile: { countryCode: 'CW', bonus: { productsWithBonus: ['sport', 'casino'], freeBetCount: 0, welcomeBonusMoney: 100 } }, shows: 'null-balance popup (again after NULL_BALANCE_POPUP_TIMEOUT), then welcome-bonus popup (once).' },
    { ...base, accountNumber: '10000010', email: 'legal@demo.parlay.test', phone: '+59995101010', nickname: 'LegalPending', legalAgreement: 'pending', profile: { countryCode: 'CW' }, shows: 'legal-agreement popup until accepted (or declined once).' },
    { ...base, accountNumber: '10000011', email: 'no-nickname@demo.parlay.test', phone: '+59995101011', nickname: null, profile: { countryCode: 'CW' }, shows: 'nickname-required popup (empty nickname, OPENED, nickname enabled). Log in by e-mail, phone or account number.' },
    { ...base, accountNumber: '10000012', email: 'domain@demo.parlay.test', phone: '+59995101012', nickname: 'PersonalDomain', profile: { countryCode: 'CW', personalDomain: 'lucky.parlay.test', accessCode: 'LUCKY' }, shows: 'personal-domain popup, once per punter on this browser.' },
    { ...base, accountNumber: '10000013', email: 'unconfirmed@demo.parlay.test', phone: '+59995101013', nickname: 'Unconfirmed', emailConfirmed: false, profile: { countryCode: 'CW' }, shows: 'login refused: CANNOT_LOGIN_NO_EMAIL_CONFIRMED (with a confirmation token and the e-mail).' },
    { ...base, accountNumber: '10000014', email: null, phone: '+59995101014', nickname: 'PendingPhone', phoneConfirmed: false, profile: { countryCode: 'CW' }, shows: 'login refused: CANNOT_LOGIN_PENDING_CONFIRMATION (with a token and the phone).' },
    { ...base, accountNumber: '10000015', email: 'denied@demo.parlay.test', phone: '+59995101015', nickname: 'Denied', loginDeniedUntil: now + 365 * DAY, profile: { countryCode: 'CW' }, shows: 'login refused: LOGIN_DENIED_BY_PERMISSION (with the disabled-until time).' },
    { ...base, accountNumber: '10000016', email: 'japan@demo.parlay.test', phone: '+59995101016', nickname: null, profile: { countryCode: 'JP' }, shows: 'no nickname prompt: Curaçao skips it for JP, KR, BY, NG.' },
    { ...base, accountNumber: '10000017', email: 'regulator-excluded@demo.parlay.test', phone: '+59995101017', nickname: 'RegulatorExcluded', state: 'SELF_EXCLUDED', profile: { countryCode: 'CW', selfExclude: { endDate: null, permanent: false, selfExcludedByRegulator: true, timeout: null } }, shows: 'login refused: CUSTOMER_SELFEXCLUDED; the self-exclude popup says the regulator excluded the account (no end date).' },
    { ...base, accountNumber: '10000018', email: 'timeout@demo.parlay.test', phone: '+59995101018', nickname: 'OnTimeout', state: 'SELF_EXCLUDED', profile: { countryCode: 'CW', selfExclude: { endDate: inDays(7), permanent: false, selfExcludedByRegulator: false, timeout: 7 } }, shows: 'login refused: CUSTOMER_SELFEXCLUDED; the self-exclude popup shows a 7-day timeout and its end.' },
    { ...base, accountNumber: '10000019', email: 'restricted@demo.parlay.test', phone: '+59995101019', nickname: 'Restricted', state: 'SUSPENDED', profile: { countryCode: 'CW', protectionMeasure: { endDate: inDays(10) } }, shows: 'user-suspended popup; two restrictions (protection measure until a date, suspended): the protection measure decides, deposits and games refused with why.' },
    { ...base, accountNumber: '10000020', email: 'reality@demo.parlay.test', phone: '+59995101020', nickname: 'RealityCheck', profile: { countryCode: 'CW', realityCheck: { timeoutMinutes: 15, acceptedAt: now } }, shows: 'in casino or live casino: the reality-check-session popup every 15 minutes of play.' },
    { ...base, accountNumber: '10000021', email: 'exclusion-ended@demo.parlay.test', phone: '+59995101021', nickname: 'ExclusionEnded', state: 'SELF_EXCLUDED', profile: { countryCode: 'CW', selfExclude: { endDate: inDays(-1), permanent: false, selfExcludedByRegulator: false, timeout: null } }, shows: 'login refused once more: the self-exclusion ended yesterday; the self-exclude popup offers "Open my account again" (open-profile), then the punter is logged in.' },
    { ...base, currency: 'EUR', accountNumber: '10000022', email: 'euro@demo.parlay.test', phone: '+59995101022', nickname: 'Euro', profile: { countryCode: 'CW' }, shows: 'an open account in euro, the currency chosen at sign-up on a US-dollar site: every amount (balance, slip, bets, deposit, limits) shows in €, never $.' },
    { ...base, jurisdiction: 'spain', currency: 'EUR', accountNumber: '20000001', email: 'spain@demo.parlay.test', phone: '+34612345001', nickname: 'Madrid', profile: { countryCode: 'ES' }, shows: 'last-login-date popup (Spain) from the second login on (host spain.localhost).' },
    { ...base, jurisdiction: 'spain', currency: 'EUR', accountNumber: '20000002', email: 'alert@demo.parlay.test', phone: '+34612345002', nickname: 'Sevilla', profile: { countryCode: 'ES', regulationAlert: { status: 'NEED_TO_CONFIRM', spentHours: 3, totalBetMinUnit: 25_000, totalLostMinUnit: 12_000, raisedAt: now, confirmedAt: null } }, shows: 'regulation-alert popup (3 hours played, 250.00 bet, 120.00 lost) until confirmed; host spain.localhost.' },
    { ...base, jurisdiction: 'italy', currency: 'EUR', accountNumber: '30000001', email: 'italy@demo.parlay.test', phone: '+393471000001', nickname: 'Roma', profile: { countryCode: 'IT' }, shows: 'last-login-date popup (Italy) from the second login on (host italy.localhost).' },
    { ...base, ...roubles, jurisdiction: 'russia', currency: 'RUB', accountNumber: '40000001', email: 'russia@demo.parlay.test', phone: '+79161000001', nickname: null, identityState: 'simple_success', profile: { countryCode: 'RU' }, shows: 'no nickname prompt (skipped in Russia); host russia.localhost.' },
    { ...base, ...roubles, jurisdiction: 'russia', currency: 'RUB', accountNumber: '40000002', email: 'russia.unconfirmed@demo.parlay.test', phone: '+79161000002', nickname: null, emailConfirmed: false, identityState: 'simple_success', profile: { countryCode: 'RU' }, shows: 'login refused: CANNOT_LOGIN_NO_EMAIL_CONFIRMED; the confirmation link logs in and opens the confirm-registration popup (Russia); host russia.localhost.' },
    { ...base, jurisdiction: 'denmark', currency: 'DKK', accountNumber: '50000001', email: 'denmark@demo.parlay.test', phone: '+4520100001', nickname: 'Copenhagen', profile: { countryCode: 'DK' }, shows: 'an open Danish account; host denmark.localhost.' },
    { ...base, jurisdiction: 'belarus', currency: 'BYN', accountNumber: '60000001', email: 'belarus@demo.parlay.test', phone: '+375291000001', nickname: 'Minsk', profile: { countryCode: 'BY' }, shows: 'an open Belarusian account; host belarus.localhost.' },
    { ...base, jurisdiction: 'alderney', currency: 'GBP', accountNumber: '70000001', email: 'alderney@demo.parlay.test', phone: '+447911000001', nickname: 'Alderney', profile: { countryCode: 'GB' }, shows: 'an open Alderney account; host alderney.localhost.' },
    { ...base, jurisdiction: 'nigeria', currency: 'NGN', balanceMinor: 5_000_000, withdrawableMinor: 5_000_000, accountNumber: '80000001', email: 'nigeria@demo.parlay.test', phone: '+2348031000001', nickname: 'Lagos', profile: { countryCode: 'NG' }, shows: 'an open Nigerian account with ₦50,000.00; host nigeria.localhost.' },
  ]
}

/** Inserts the demo punters that are not there yet; returns how many were added. */
export async function seedDemoPunters(data: DataLayer, now: number, log?: Logger): Promise<number> {
  const all = demoPunters(now)
  const present = new Set((await data.db.selectFrom('punters').select('account_number').where('account_number', 'in', all.map((p) => p.accountNumber)).execute()).map((r) => r.account_number))
  const missing = all.filter((p) => !present.has(p.accountNumber))
  if (missing.length === 0) return 0
  // Every demo punter shares one documented password, so one argon2id hash serves them all:
  // seeding a fresh test database costs one hash (~60 ms) instead of 22.
  const hash = await hashPassword(DEMO_PASSWORD)
  const hashes = missing.map(() => hash)
  let added = 0
  for (const [i, { shows: _shows, ...punter }] of missing.entries()) {
    // a second instance seeding at the same time: the unique account number keeps one of each
    const result = await insertPunter(data, { ...punter, passwordHash: hashes[i] }, now)
    if (result.ok) added++
    else log?.warn('punters.demo.skipped', { accountNumber: punter.accountNumber, outcome: result.code })
  }
  log?.info('punters.demo.seeded', { added })
  return added
}
