/**
 * Staff TOTP secrets at rest (./totp-keys.ts): the columns that say which key sealed a secret, and
 * the start step that seals what is not sealed under the current key yet.
 *
 * The migration (q135) only adds the key-id columns: a migration sees the database, never the key
 * (which lives outside it). Every start then runs `sealStoredTotpSecrets` before sign-in answers:
 * a secret with no key id (stored in plain text by earlier versions) is sealed, one under a previous
 * key is resealed under the current one (rotation; a demo account's published secret is resealed
 * even when its key is gone), each by a conditional UPDATE so instances
 * starting together never overwrite each other. A secret under a key this start does not hold stops
 * the start: sign-in for those admins would fail, and resetting them is the operator's decision.
 * Enrolments in flight (5-minute challenges) with a plain or old secret are dropped: the admin
 * signs in again and gets a new key to scan.
 */
import type { DataLayer } from '../db/data-layer'
import { schemaStep } from '../db/schema'
import { DEMO_ADMINS } from './demo-admins'
import { TotpKeyError, type TotpKeyring } from './totp-keys'

export const q135AdminTotpSealed = schemaStep('q135-admin-totp-sealed', async (db) => {
  await db.schema.alterTable('admin_users').addColumn('totp_key_id', 'text').execute()
  await db.schema.alterTable('admin_challenges').addColumn('secret_key_id', 'text').execute()
})

export interface SealingReport {
  /** Secrets that were in plain text. */
  sealed: number
  /** Secrets moved from a previous key to the current one. */
  resealed: number
}

/** A demo account's secret is published (./demo-admins.ts): under a key this start lacks (a folder a demo start used), it is taken from there. */
const publishedSecretOf = (row: { email: string; demo: number }) => (row.demo === 1 ? DEMO_ADMINS.find((a) => a.email === row.email.toLowerCase())?.totpSecret : undefined)

export async function sealStoredTotpSecrets(data: DataLayer, keys: TotpKeyring): Promise<SealingReport> {
  const rows = await data.db
    .selectFrom('admin_users')
    .select(['id', 'email', 'demo', 'totp_secret', 'totp_key_id'])
    .where('totp_secret', 'is not', null)
    .where((eb) => eb.or([eb('totp_key_id', 'is', null), eb('totp_key_id', '!=', keys.currentId)]))
    .execute()
  const secretOf = (row: (typeof rows)[number]) =>
    row.totp_key_id === null ? row.totp_secret! : (keys.open({ sealed: row.totp_secret!, keyId: row.totp_key_id }, row.email) ?? publishedSecretOf(row))
  const unreadable = rows.filter((row) => secretOf(row) === undefined)
  if (unreadable.length > 0) {
    const ids = [...new Set(unreadable.map((row) => row.totp_key_id))].join(', ')
    throw new TotpKeyError(
      `the TOTP secrets of ${unreadable.map((row) => row.email).join(', ')} do not decrypt with the keys this start holds (they were sealed with key ${ids}): ` +
        'give that key in PARLAY_TOTP_PREVIOUS_KEYS (a demo start kept its key in <data dir>/totp.key), or reset those admins with `npm run admin -- reset-two-factor <e-mail>`',
    )
  }
  const report: SealingReport = { sealed: 0, resealed: 0 }
  for (const row of rows) {
    const { sealed, keyId } = keys.seal(secretOf(row)!, row.email)
    const done = await data.db
      .updateTable('admin_users')
      .set({ totp_secret: sealed, totp_key_id: keyId })
      .where('id', '=', row.id)
      .where('totp_secret', '=', row.totp_secret)
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) === 1) report[row.totp_key_id === null ? 'sealed' : 'resealed']++
  }
  await data.db
    .deleteFrom('admin_challenges')
    .where('secret', 'is not', null)
    .where((eb) => eb.or([eb('secret_key_id', 'is', null), eb('secret_key_id', '!=', keys.currentId)]))
    .execute()
  return report
}
