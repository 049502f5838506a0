/**
 * Which stores are on the query layer (./data-layer.ts, both engines) and which are still raw
 * synchronous SQLite (issue 16, converted store by store). A postgres DATABASE_URL starts the site
 * only when this list is empty: the site never half-runs with a punter's data split between two
 * databases. The order is the order to convert them (server/db/README.md says why).
 *
 * A test (tests/unit/db-stores.test.ts) checks that every server file still holding raw SQLite
 * statements is named here, so the list cannot go stale as stores move.
 */
import { engineOf } from './data-layer'

export interface SqliteOnlyStore {
  store: string
  files: string[]
}

/** Converted to the query layer so far (both engines): server/auth/throttle.ts, server/credentials/throttle.ts, the credentials part's own tables (server/credentials/store.ts, secret-question.ts, join-form.ts, passwords.ts's history), server/auth/captcha.ts, server/signup/verification.ts, sms-budget.ts, outbox.ts, server/identity/mitid.ts, server/auth/unlock.ts. */
export const CONVERTED_STORES = ['login-failure counters', 'credential request budgets', 'health and metrics probes', 'credential secrets, password history, secret questions and join forms', 'captcha solutions', 'sign-up codes and attempts', 'admin accounts and sessions', 'games', 'MitID states and links', 'payments (deposits, limits, provider simulator)', 'engagement and promotions', 'messages', 'analytics, errors and replays', 'login unlock links', 'audit chain', 'documents and versions', 'regulation (alerts, reality checks)', 'bets', 'sessions and refresh-token families', 'punters core (the punters row, balance and ledger, profile and settings)', 'promo code uses', "payments' first deposit date"] as const

export const STILL_ON_SQLITE: SqliteOnlyStore[] = [
  { store: "sign-up's punter reads and e-mail confirmation (punters and confirmation-token rows)", files: ['server/signup/prepare.ts', 'server/signup/email-routes.ts'] },
  {
    store: 'punters and credentials',
    files: [
      'server/credentials/account.ts', 'server/credentials/passwords.ts', 'server/credentials/token-login.ts',
      'server/identity/index.ts', 'server/identity/nickname.ts', 'server/identity/portal.ts', 'server/regulation/self-exclusion.ts',
      'server/auth/router.ts', // only blockPunter's punters state update (the sessions and confirmation tokens there are converted)
    ],
  },
]

/** The one line `npm start` prints when DATABASE_URL names PostgreSQL before every store is converted. */
export function halfConvertedMessage(stores: SqliteOnlyStore[] = STILL_ON_SQLITE): string {
  return (
    `DATABASE_URL names PostgreSQL, but ${stores.length} stores still run on SQLite only (${stores.map((s) => s.store).join(', ')}); ` +
    'unset DATABASE_URL to run on SQLite under data/ (the conversion plan is in server/db/README.md).'
  )
}

/** Throws that line unless the URL is absent or every store is converted (or the test-only seam is on). */
export function refuseHalfConvertedPostgres(databaseUrl: string | undefined, convertedStoresOnly: boolean): void {
  if (engineOf(databaseUrl) === 'sqlite' || convertedStoresOnly || STILL_ON_SQLITE.length === 0) return
  throw new Error(halfConvertedMessage())
}
