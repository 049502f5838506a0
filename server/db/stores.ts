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

/** Converted to the query layer so far (both engines): server/auth/throttle.ts, server/credentials/throttle.ts, the credentials part's own tables (server/credentials/store.ts, secret-question.ts, join-form.ts, passwords.ts's history), server/auth/captcha.ts, server/signup/verification.ts, sms-budget.ts, outbox.ts, server/identity/mitid.ts, server/auth/unlock.ts; the punters row as credentials (account.ts, passwords.ts, token-login.ts), identity (index.ts, nickname.ts, portal.ts), self-exclusion and sign-up (prepare.ts, email-routes.ts) change and read it, through server/punters/lookups.ts. */
export const CONVERTED_STORES = ['login-failure counters', 'credential request budgets', 'health and metrics probes', 'credential secrets, password history, secret questions and join forms', 'captcha solutions', 'sign-up codes and attempts', 'admin accounts and sessions', 'games', 'MitID states and links', 'payments (deposits, limits, provider simulator)', 'engagement and promotions', 'messages', 'analytics, errors and replays', 'login unlock links', 'audit chain', 'documents and versions', 'regulation (alerts, reality checks)', 'bets', 'sessions and refresh-token families', 'punters core (the punters row, balance and ledger, profile and settings)', 'promo code uses', "payments' first deposit date", "punter changes by credentials, identity, nickname, self-exclusion and sign-up"] as const

/** None left (27 Nov 2026): every store is on the query layer, so a postgres DATABASE_URL starts the site. */
export const STILL_ON_SQLITE: SqliteOnlyStore[] = []

/** The one line `npm start` prints when DATABASE_URL names PostgreSQL before every store is converted. */
export function halfConvertedMessage(stores: SqliteOnlyStore[] = STILL_ON_SQLITE): string {
  return (
    `DATABASE_URL names PostgreSQL, but ${stores.length} stores still run on SQLite only (${stores.map((s) => s.store).join(', ')}); ` +
    'unset DATABASE_URL to run on SQLite under data/ (the conversion plan is in server/db/README.md).'
  )
}

/** Throws that line unless the URL is absent or every store is converted; `stores` is the list to judge (a test passes its own). */
export function refuseHalfConvertedPostgres(databaseUrl: string | undefined, stores: SqliteOnlyStore[] = STILL_ON_SQLITE): void {
  if (engineOf(databaseUrl) === 'sqlite' || stores.length === 0) return
  throw new Error(halfConvertedMessage(stores))
}
