/**
 * EVERY migration of the database, in the order it runs. Read it top to bottom: this list, not
 * the order modules happen to be imported in, is the order (../migrate.ts applies it once, under a
 * database lock, skipping the names a database already has).
 *
 * To add a migration (a new table, column or index):
 *   1. Beside the store that owns the table, export a step written with Kysely's schema builder:
 *        export const q090Withdrawals = schemaStep('q090-withdrawals', async (db, engine) => { … })
 *      (`schemaStep`, `surrogateKey`, `oneOf` from server/db/schema.ts; portable types only, see
 *      server/db/README.md). Its name is `q`, the next free three-digit number, and what it does.
 *   2. Import it here and APPEND it at the end of QUERY_LAYER. Never reorder, rename or edit a step
 *      that has shipped: databases record steps by name and never run one twice. A change to a
 *      shipped table is a new step.
 *   3. Declare the table's row type from the store's own file (`declare module '../db/tables'`).
 * A test (tests/unit/db/migrations.test.ts) fails when a step is defined but missing here, when a
 * name repeats, or when the query-layer numbers do not increase down the list.
 *
 * SQLITE_HISTORY is frozen: the raw SQL that built SQLite files before the query layer existed
 * (SQLite only, never on PostgreSQL). Existing files have it applied; a fresh file replays it and
 * then the query-layer steps, whose `ifNotExists` make them no-ops there, so old and new files end
 * with the same tables. Never add to it.
 */
import { q040AdminAccounts, sqlite102AdminAccounts, sqlite103AdminSupportRole } from '../../admin/accounts'
import { q010AuthCaptcha, sqlite104AuthCaptcha, sqliteScale902CaptchaKey } from '../../auth/captcha'
import { q061AuthConfirmationTokens, sqlite105AuthConfirmationTokens } from '../../auth/confirmation-tokens'
import { q060AuthSessions, sqlite102AuthSessions } from '../../auth/sessions'
import { q001AuthLoginFailures, sqlite103AuthFailures, sqlite106AuthLoginFailures } from '../../auth/throttle'
import { q014AuthUnlockTokens, sqlite107AuthUnlockTokens } from '../../auth/unlock'
import { q081CashOutRequests, sqliteBets702CashOutRequests } from '../../bets/cashout'
import { q080Bets, sqliteBets701Bets, sqliteBets703LegPositionPaidAt } from '../../bets/store'
import { q032PublishGeneration, sqliteScale901PublishGeneration } from '../../bus/documents-sync'
import { q020Credentials, sqlite601Credentials } from '../../credentials/store'
import { q002CredentialRequests } from '../../credentials/throttle'
import { sqlite001Punters, sqlite002bDropDocumentsCopy, sqlite002Documents } from '../database'
import { q050QuizAnswers, sqliteEngagement701QuizAnswers } from '../../engagement/quiz'
import { q041Games, sqliteGames801Rounds } from '../../games/store'
import { q021IdentityMitid, sqlite403IdentityMitid } from '../../identity/mitid'
import { q051PunterMessages, sqliteMessages1501PunterMessages } from '../../messages/store'
import { q071PromoCodeUses, sqliteMoney605PromoCodeUses } from '../../payments/bonus'
import { q042Payments, sqliteMoney603Payments } from '../../payments/ledger'
import { q043DepositLimits, sqliteMoney602DepositLimits } from '../../payments/limits'
import { q044PaymentSimulator, sqliteMoney604PaymentSimulator } from '../../payments/simulator'
import { sqliteMoney601Ledger } from '../../punters/events'
import { sqlite101PuntersAccounts } from '../../punters/repository'
import { q070Punters, q099PunterSignupLocale } from '../../punters/tables'
import { q135AdminTotpSealed } from '../../admin/totp-sealing'
import { q053RegulationSessionReminders, sqlite602RegulationSessionReminders } from '../../regulation/alerts'
import { q054RegulationRealitySessions, sqlite601RegulationRealityCheck } from '../../regulation/reality-check'
import { q052Services, sqliteServices1, sqliteServices2Replays, sqliteServices3ReplayRetention, sqliteServices4ClickWindows } from '../../services/store'
import { q013SignupOutbox, q097OutboxTelegram, sqlite401SignupOutbox } from '../../signup/outbox'
import { q012SignupSmsSends, sqlite403SignupSmsSends } from '../../signup/sms-budget'
import { q011SignupVerifications, sqlite402SignupVerifications } from '../../signup/verification'
import { q030AuditLog, sqlite100AuditLog } from '../../store/audit'
import { q094StoreDraftRevision, q031DocumentStore, sqlite101DocumentStore, sqlite103StoreDeletions, sqlite150StoreReleases } from '../../store/store'
import type { Migration } from '../schema'
import { q082StoreWaiverScope } from '../../store/store'
import { q083StorePublishWatches } from '../../store/publish-watch'
import { q084LedgerAccounts } from '../../punters/accounts'
import { q085BetPotentialWin } from '../../bets/store'
import { q086Withdrawals } from '../../payments/withdrawals'
import { q087PayoutSimulator } from '../../payments/payout-simulator'
import { q088DatabaseIdentity } from '../identity'
import { q089AdminAccountsTwoFactor } from '../../admin/accounts'
import { q090AdminSecondFactor } from '../../admin/second-factor'
import { q091ServicesIngestBounds } from '../../services/store'
import { q092LossLimits } from '../../payments/loss-limits'
import { q095ContactMessages } from '../../contact/store'
import { q093StoreRollbacks } from '../../store/rollbacks'

/** SQLite files only, frozen (see above): the raw-SQL history, oldest part of the schema first. */
export const SQLITE_HISTORY: readonly Migration[] = [
  sqlite001Punters,
  sqlite002Documents,
  sqlite002bDropDocumentsCopy,
  // the admin, audit, document-store and auth tables
  sqlite100AuditLog,
  sqlite101DocumentStore,
  sqlite101PuntersAccounts,
  sqlite102AdminAccounts,
  sqlite102AuthSessions,
  sqlite103AdminSupportRole,
  sqlite103AuthFailures,
  sqlite103StoreDeletions,
  sqlite104AuthCaptcha,
  sqlite105AuthConfirmationTokens,
  sqlite106AuthLoginFailures,
  sqlite107AuthUnlockTokens,
  sqlite150StoreReleases,
  // sign-up and identity
  sqlite401SignupOutbox,
  sqlite402SignupVerifications,
  sqlite403IdentityMitid,
  sqlite403SignupSmsSends,
  // credentials and regulation
  sqlite601Credentials,
  sqlite601RegulationRealityCheck,
  sqlite602RegulationSessionReminders,
  // money, bets, games, engagement
  sqliteMoney601Ledger,
  sqliteMoney602DepositLimits,
  sqliteMoney603Payments,
  sqliteMoney604PaymentSimulator,
  sqliteMoney605PromoCodeUses,
  sqliteBets701Bets,
  sqliteBets702CashOutRequests,
  sqliteBets703LegPositionPaidAt,
  sqliteEngagement701QuizAnswers,
  sqliteGames801Rounds,
  // several instances, services, messages
  sqliteScale901PublishGeneration,
  sqliteScale902CaptchaKey,
  sqliteServices1,
  sqliteServices2Replays,
  sqliteServices3ReplayRetention,
  sqliteServices4ClickWindows,
  sqliteMessages1501PunterMessages,
]

/** Both engines, in order; new steps go at the END. */
export const QUERY_LAYER: readonly Migration[] = [
  q001AuthLoginFailures,
  q002CredentialRequests,
  q010AuthCaptcha,
  q011SignupVerifications,
  q012SignupSmsSends,
  q013SignupOutbox,
  q014AuthUnlockTokens,
  q020Credentials,
  q021IdentityMitid,
  q030AuditLog,
  q031DocumentStore,
  q032PublishGeneration,
  q040AdminAccounts,
  q041Games,
  q042Payments,
  q043DepositLimits,
  q044PaymentSimulator,
  q050QuizAnswers,
  q051PunterMessages,
  q052Services,
  q053RegulationSessionReminders,
  q054RegulationRealitySessions,
  q060AuthSessions,
  q061AuthConfirmationTokens,
  q070Punters,
  q071PromoCodeUses,
  q080Bets,
  q081CashOutRequests,
  q082StoreWaiverScope,
  q083StorePublishWatches,
  q084LedgerAccounts,
  q085BetPotentialWin,
  q086Withdrawals,
  q087PayoutSimulator,
  q088DatabaseIdentity,
  q089AdminAccountsTwoFactor,
  q090AdminSecondFactor,
  q091ServicesIngestBounds,
  q092LossLimits,
  q093StoreRollbacks,
  q094StoreDraftRevision,
  q095ContactMessages,
  q097OutboxTelegram,
  q099PunterSignupLocale,
  q135AdminTotpSealed,
]

/** The whole list: on SQLite the history then the query layer; on PostgreSQL the query layer only. */
export const MIGRATIONS: readonly Migration[] = [...SQLITE_HISTORY, ...QUERY_LAYER]
