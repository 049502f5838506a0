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
import { registerMigration, type Db } from '../db/database'

registerMigration(
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

export const MITID_STATE_TTL_MS = 5 * 60_000
const sha = (value: string) => createHash('sha256').update(value).digest('hex')
export const cprDigest = (cpr: string) => sha(`cpr:${cpr.replace('-', '')}`)

export interface MitIdBroker {
  /** Starts an authorisation: the URL the browser goes to. */
  params(askCpr: boolean, now: number): { authorizationUrl: string; state: string; askCpr: boolean }
  /** The authorisation code of an authorised state (the simulator's page calls this). */
  authorize(state: string, subject: string, cpr: string | undefined, now: number): string | undefined
  /** Exchanges a code: the MitID subject and, if it was asked for, the CPR digest. */
  exchange(code: string, state: string, now: number): { subject: string; cprDigest: string | null } | undefined
}

export function createSimulatedMitId(db: Db): MitIdBroker {
  return {
    params(askCpr, now) {
      const state = randomBytes(24).toString('base64url')
      db.prepare('INSERT INTO identity_mitid (state_sha256, ask_cpr, expires_at) VALUES (?, ?, ?)').run(sha(state), askCpr ? 1 : 0, now + MITID_STATE_TTL_MS)
      return { authorizationUrl: `/dev/mitid/authorize?state=${state}`, state, askCpr }
    },
    authorize(state, subject, cpr, now) {
      const row = db.prepare('SELECT ask_cpr, expires_at, code_sha256 FROM identity_mitid WHERE state_sha256 = ?').get(sha(state)) as
        | { ask_cpr: number; expires_at: number; code_sha256: string | null }
        | undefined
      if (!row || row.expires_at <= now || row.code_sha256) return undefined
      if (row.ask_cpr === 1 && !cpr) return undefined
      const code = randomBytes(24).toString('base64url')
      db.prepare('UPDATE identity_mitid SET code_sha256 = ?, subject = ?, cpr_sha256 = ? WHERE state_sha256 = ?').run(
        sha(code),
        subject,
        row.ask_cpr === 1 && cpr ? cprDigest(cpr) : null,
        sha(state),
      )
      return code
    },
    exchange(code, state, now) {
      const row = db
        .prepare('UPDATE identity_mitid SET used = 1 WHERE code_sha256 = ? AND state_sha256 = ? AND used = 0 AND expires_at > ? RETURNING subject, cpr_sha256')
        .get(sha(code), sha(state), now) as { subject: string; cpr_sha256: string | null } | undefined
      return row && { subject: row.subject, cprDigest: row.cpr_sha256 }
    },
  }
}
