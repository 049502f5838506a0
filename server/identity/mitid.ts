/**
 * Denmark's MitID login (spec §7 `GET account/mitId/params`, `POST auth/mitId/login`; §8
 * NEED_CPR_REQUEST, PUNTER_NOT_LINKED_WITH_EXTERNAL_SYSTEM), as a local simulator behind the
 * interface a real OpenID Connect broker would implement.
 *
 * The simulator's authorise page (`/dev/mitid/authorize`) lets the tester pick an identity. A
 * MitID identity carries a CPR only when the broker was asked for it (askCpr); a login whose
 * identity has no CPR and no link yet answers NEED_CPR_REQUEST, and the client starts again with
 * askCpr=true (spec: "re-asks with personal number"). CPRs are kept only as SHA-256 digests and
 * never logged.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'

export const sqlite403IdentityMitid = sqliteHistory(
  '403-identity-mitid',
  `CREATE TABLE identity_mitid (
     state_sha256 TEXT PRIMARY KEY,
     ask_cpr INTEGER NOT NULL,
     code_sha256 TEXT UNIQUE,
     subject TEXT,
     cpr_sha256 TEXT,
     expires_at INTEGER NOT NULL,
     used INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE identity_mitid_links (
     subject TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id)
   );`,
)

// On the query layer (issue 16): MitID states and links run on SQLite or PostgreSQL (the migration
// above stays as the history of existing SQLite files). No foreign key to punters on PostgreSQL:
// these tables moved before the punters store did, when the two were in different databases
// (the SQLite files keep theirs). Adding one now is a schema step of its own.
declare module '../db/tables' {
  interface Tables {
    identity_mitid: { state_sha256: string; ask_cpr: number; code_sha256: string | null; subject: string | null; cpr_sha256: string | null; expires_at: number; used: number }
    identity_mitid_links: { subject: string; punter_id: number }
  }
}

export const q021IdentityMitid = schemaStep('q021-identity-mitid', async (db) => {
  await db.schema
    .createTable('identity_mitid')
    .ifNotExists()
    .addColumn('state_sha256', 'text', (c) => c.primaryKey())
    .addColumn('ask_cpr', 'bigint', (c) => c.notNull())
    .addColumn('code_sha256', 'text', (c) => c.unique())
    .addColumn('subject', 'text')
    .addColumn('cpr_sha256', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createTable('identity_mitid_links').ifNotExists().addColumn('subject', 'text', (c) => c.primaryKey()).addColumn('punter_id', 'bigint', (c) => c.notNull()).execute()
})

export const MITID_STATE_TTL_MS = 5 * 60_000
const sha = (value: string) => createHash('sha256').update(value).digest('hex')
export const cprDigest = (cpr: string) => sha(`cpr:${cpr.replace('-', '')}`)

export interface MitIdBroker {
  /** Starts an authorisation: the URL the browser goes to. */
  params(askCpr: boolean, now: number): Promise<{ authorizationUrl: string; state: string; askCpr: boolean }>
  /** The authorisation code of an authorised state (the simulator's page calls this). */
  authorize(state: string, subject: string, cpr: string | undefined, now: number): Promise<string | undefined>
  /** Exchanges a code, once: the MitID subject and, if it was asked for, the CPR digest. */
  exchange(code: string, state: string, now: number): Promise<{ subject: string; cprDigest: string | null } | undefined>
}

export function createSimulatedMitId(data: DataLayer): MitIdBroker {
  return {
    async params(askCpr, now) {
      const state = randomBytes(24).toString('base64url')
      await data.db.insertInto('identity_mitid').values({ state_sha256: sha(state), ask_cpr: askCpr ? 1 : 0, code_sha256: null, subject: null, cpr_sha256: null, expires_at: now + MITID_STATE_TTL_MS, used: 0 }).execute()
      return { authorizationUrl: `/dev/mitid/authorize?state=${state}`, state, askCpr }
    },
    authorize(state, subject, cpr, now) {
      // one code per state, even when two approvals race on two instances
      return data.transaction(
        async (tx) => {
          const row = await tx.selectFrom('identity_mitid').select(['ask_cpr', 'expires_at', 'code_sha256']).where('state_sha256', '=', sha(state)).executeTakeFirst()
          if (!row || row.expires_at <= now || row.code_sha256) return undefined
          if (row.ask_cpr === 1 && !cpr) return undefined
          const code = randomBytes(24).toString('base64url')
          await tx
            .updateTable('identity_mitid')
            .set({ code_sha256: sha(code), subject, cpr_sha256: row.ask_cpr === 1 && cpr ? cprDigest(cpr) : null })
            .where('state_sha256', '=', sha(state))
            .execute()
          return code
        },
        { serialiseOn: `mitid:${sha(state)}` },
      )
    },
    async exchange(code, state, now) {
      const row = await data.db
        .updateTable('identity_mitid')
        .set({ used: 1 })
        .where('code_sha256', '=', sha(code))
        .where('state_sha256', '=', sha(state))
        .where('used', '=', 0)
        .where('expires_at', '>', now)
        .returning(['subject', 'cpr_sha256'])
        .executeTakeFirst()
      return row?.subject ? { subject: row.subject, cprDigest: row.cpr_sha256 } : undefined
    },
  }
}

/** The punter a MitID subject was linked to at its first login, if any. */
export async function mitIdLinkOf(data: DataLayer, subject: string): Promise<number | undefined> {
  return (await data.db.selectFrom('identity_mitid_links').select('punter_id').where('subject', '=', subject).executeTakeFirst())?.punter_id
}

/** Links a MitID subject to a punter (a later link of the same subject replaces the earlier one). */
export async function linkMitId(data: DataLayer, subject: string, punterId: number): Promise<void> {
  await data.db.insertInto('identity_mitid_links').values({ subject, punter_id: punterId }).onConflict((oc) => oc.column('subject').doUpdateSet({ punter_id: punterId })).execute()
}
