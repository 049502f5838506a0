/**
 * The punters store's tables on the query layer (issue 16): the `punters` row (identity, state,
 * balance, profile and settings JSON) and the balance's ledger (`ledger_entries`). Declared here,
 * in the store's own file, so every module that reads or writes a punter (this folder, credentials,
 * identity, sign-up, regulation, payments) types its statements against one shape.
 *
 * The raw-SQL migrations stay where they are as the history of existing SQLite files
 * (server/db/database.ts '001-punters', ./repository.ts '101-punters-accounts', ./events.ts
 * 'money-601-ledger'); the step below declares the CURRENT shape with `ifNotExists`: a no-op on a
 * SQLite file that has the tables, the tables on PostgreSQL.
 *
 * Case: SQLite's columns compare e-mail and nickname with COLLATE NOCASE. PostgreSQL has no such
 * column collation in core, so both engines get a unique index on `lower(email)` and
 * `lower(nickname)` and the statements compare `lower(column) = lower(value)`: one rule, one index
 * to use on either engine (SQLite's lower() and NOCASE both fold ASCII only, so the new indexes
 * accept every existing SQLite file).
 */
import { sql, type Generated } from 'kysely'
import { schemaStep, surrogateKey, surrogateKeyType } from '../db/schema'

/** One punter (integers 0/1 for flags, JSON text for profile and settings: both engines alike). */
export interface PunterTable {
  id: Generated<number>
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
  /** Real money, minor units (cents); only the ledger's transaction changes it (./events.ts changeBalance). */
  balance_minor: number
  /** What the punter may withdraw now: balance_minor less playthrough_minor, never below 0 (kept by the ledger). */
  withdrawable_minor: number
  /** Deposited money still to be staked before it may be withdrawn (the jurisdiction's play-through rule, ./accounts.ts). */
  playthrough_minor: number
  first_deposit_date: string | null
  vip: number
  legal_agreement: string
  email_confirmed: number
  phone_confirmed: number
  identity_state: string
  /** JSON text (repository.ts PunterProfile): patched in TypeScript inside a transaction. */
  profile: string
  /** JSON text: the punter's server-side settings. */
  settings: string
  login_denied_until: number | null
  last_login_at: number | null
  previous_login_at: number | null
  created_at: number
  updated_at: number
  /** The locale the punter signed up in (q099); null for accounts opened before it was kept. */
  signup_locale: string | null
}

/** One applied balance change; `reference` is unique, so a change is applied once. */
export interface LedgerEntryTable {
  id: Generated<number>
  punter_id: number
  /** The balance the entry moves (./accounts.ts): 'real', 'playthrough', 'bonus:<id>', 'wagering:<id>'. */
  account: string
  reference: string
  kind: string
  amount_minor: number
  balance_after_minor: number
  created_at: number
}

declare module '../db/tables' {
  interface Tables {
    punters: PunterTable
    ledger_entries: LedgerEntryTable
  }
}

export const q070Punters = schemaStep('q070-punters', async (db, engine) => {
  await db.schema
    .createTable('punters')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('phone', 'text', (c) => c.unique())
    .addColumn('nickname', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('OPENED'))
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('birth_day', 'text')
    .addColumn('country_id', 'bigint')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('balance_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('withdrawable_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('first_deposit_date', 'text')
    .addColumn('vip', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('legal_agreement', 'text', (c) => c.notNull().defaultTo('accepted'))
    .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('phone_confirmed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('identity_state', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('profile', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('login_denied_until', 'bigint')
    .addColumn('last_login_at', 'bigint')
    .addColumn('previous_login_at', 'bigint')
    .execute()
  await db.schema.createIndex('punters_email_lower').ifNotExists().unique().on('punters').expression(sql`lower(email)`).execute()
  await db.schema.createIndex('punters_nickname_lower').ifNotExists().unique().on('punters').expression(sql`lower(nickname)`).execute()
  await db.schema
    .createTable('ledger_entries')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('punter_id', surrogateKeyType(engine), (c) => c.notNull().references('punters.id'))
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('balance_after_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('ledger_entries_punter').ifNotExists().on('ledger_entries').columns(['punter_id', 'created_at']).execute()
})

/** The punter's sign-up locale (issue 34): messages later sent to the punter are in the language
 * they signed up in, not the site's default. A nullable column: older accounts keep the default. */
export const q099PunterSignupLocale = schemaStep('q099-punter-signup-locale', async (db) => {
  await db.schema.alterTable('punters').addColumn('signup_locale', 'text').execute()
})
