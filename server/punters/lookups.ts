/**
 * Reads and writes of the punters table that other stores need (issue 16: no store's SQL crosses
 * into another store's tables, because while the stores move one by one the punters may live in
 * another database than messages, regulation or engagement). Those stores call these functions
 * instead of joining `punters`; this file belongs to the punters store and is on the query layer
 * with it (both engines).
 *
 * The profile and settings are JSON text. Writes use no engine's JSON functions (SQLite's
 * json_set, PostgreSQL's jsonb_set): fields are read and patched in TypeScript, a patch inside a
 * transaction serialised on the punter (and, on PostgreSQL, holding the row), so two instances
 * writing different fields of one profile at once keep both, and a check made inside a change (a
 * single-use state, an exclusion that may not be shortened) sees the row as it is now. The one
 * read by a profile value (`punterIdByProfileValue`, a digest) is spelt per engine, so the
 * database finds the row instead of this process reading every profile.
 */
import { sql } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { punterLock, type PunterProfile } from './repository'

function parseObject(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** The id of the punter with this account number (account numbers are unique across sites). */
export async function punterIdByAccountNumber(data: DataLayer, accountNumber: string): Promise<number | undefined> {
  const row = await data.db.selectFrom('punters').select('id').where('account_number', '=', accountNumber).executeTakeFirst()
  return row?.id
}

/** The locale the punter chose in the settings ('' when none). */
export async function punterLocaleSetting(data: DataLayer, punterId: number): Promise<string> {
  const row = await data.db.selectFrom('punters').select('settings').where('id', '=', punterId).executeTakeFirst()
  const locale = parseObject(row?.settings).locale
  return typeof locale === 'string' ? locale : ''
}

/** A segment of punters: any of jurisdiction, state and loyalty tier (no tier in the profile: Common). */
export interface PunterSegment {
  jurisdiction?: string
  state?: string
  tier?: string
}

/** The ids of the punters in a segment (every punter for an empty one), ascending. The tier is
 * read from each candidate's profile here, not by a JSON function only one engine parses. */
export async function punterIdsInSegment(data: DataLayer, segment: PunterSegment): Promise<number[]> {
  let query = data.db.selectFrom('punters').select(['id', 'profile']).orderBy('id')
  if (segment.jurisdiction) query = query.where('jurisdiction', '=', segment.jurisdiction)
  if (segment.state) query = query.where('state', '=', segment.state)
  const rows = await query.execute()
  const tierOf = (profile: string) => {
    const tier = (parseObject(profile) as PunterProfile).loyalty?.tier
    return typeof tier === 'string' ? tier : 'Common'
  }
  return rows.filter((r) => !segment.tier || tierOf(r.profile) === segment.tier).map((r) => r.id)
}

/** Account numbers of some punters (ids without a punter are left out). */
export async function accountNumbersOf(data: DataLayer, punterIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(punterIds)]
  if (ids.length === 0) return new Map()
  const rows = await data.db.selectFrom('punters').select(['id', 'account_number']).where('id', 'in', ids).execute()
  return new Map(rows.map((r) => [r.id, r.account_number]))
}

/** Sets one field of the punter's profile, leaving every other field as it is in the row now. */
export async function setProfileField<K extends 'loyalty' | 'realityCheck' | 'regulationAlert'>(data: DataLayer, punterId: number, field: K, value: NonNullable<PunterProfile[K]>, now: number): Promise<void> {
  await updateProfile(data, punterId, now, (profile) => ({ ...profile, [field]: value }))
}

/**
 * Rewrites the punter's profile with `patch` (given the profile as stored now), as
 * `changePunterProfile` does. Answers the profile written, or undefined when there is no such punter.
 */
export async function updateProfile(data: DataLayer, punterId: number, now: number, patch: (profile: PunterProfile) => PunterProfile): Promise<PunterProfile | undefined> {
  let written: PunterProfile | undefined
  await changePunterProfile(data, punterId, now, ({ profile }) => ({ profile: (written = patch(profile)) }))
  return written
}

/** The row as a change sees it: the profile (with the fields PunterProfile does not name) and the state. */
export interface ProfileRow {
  profile: PunterProfile & Record<string, unknown>
  state: string
}

/** Columns a change may set beside the profile. */
export interface ProfileColumns {
  state?: string
  identity_state?: string
}

/** What a change writes: the whole new profile and any columns; undefined writes nothing. */
export type ProfileChange = { profile: PunterProfile; columns?: ProfileColumns } | undefined

/**
 * Applies `change` to the punter's row as it is now, in one transaction serialised on the punter
 * (the read and the write cannot interleave with another instance's change of the same row); true
 * when it wrote. No punter, or a change that answers undefined (its check failed against the
 * current row): false, nothing written. `change` runs inside the transaction, so it must not await
 * anything (the SQLite caveat of server/db/data-layer.ts).
 */
export async function changePunterProfile(data: DataLayer, punterId: number, now: number, change: (row: ProfileRow) => ProfileChange): Promise<boolean> {
  return data.transaction(
    async (tx) => {
      const read = tx.selectFrom('punters').select(['profile', 'state']).where('id', '=', punterId)
      // PostgreSQL: the row lock also holds off a writer that does not take the punter's key (a
      // plain UPDATE waits, then applies to this change's row); SQLite's IMMEDIATE transaction already does
      const row = await (data.engine === 'postgres' ? read.forUpdate() : read).executeTakeFirst()
      if (!row) return false
      const next = change({ profile: parseObject(row.profile) as ProfileRow['profile'], state: row.state })
      if (!next) return false
      await tx
        .updateTable('punters')
        .set({ ...next.columns, profile: JSON.stringify(next.profile), updated_at: now })
        .where('id', '=', punterId)
        .execute()
      return true
    },
    { serialiseOn: punterLock(punterId) },
  )
}

/** Sets some top-level fields of the profile (undefined removes a field), leaving the rest as the row has it now. */
export function setProfileFields(data: DataLayer, punterId: number, now: number, fields: Record<string, unknown>, columns?: ProfileColumns): Promise<boolean> {
  return changePunterProfile(data, punterId, now, ({ profile }) => {
    const next: ProfileRow['profile'] = { ...profile }
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) delete next[key]
      else next[key] = value
    }
    return { profile: next, columns }
  })
}

const JSON_KEY = /^[A-Za-z][A-Za-z0-9]*$/

/**
 * The punter whose profile holds `value` at `path` (keys from the root; constants of the code,
 * never input), optionally on one site: the lowest id when several do. The JSON read is spelt per
 * engine (json_extract on SQLite, jsonb's #>> on PostgreSQL); both give the text of a string value.
 */
export async function punterIdByProfileValue(data: DataLayer, path: readonly string[], value: string, jurisdiction?: string): Promise<number | undefined> {
  if (path.length === 0 || !path.every((key) => JSON_KEY.test(key))) throw new Error(`not a profile path: ${path.join('.')}`)
  const text =
    data.engine === 'postgres' ? sql<string>`(profile::jsonb #>> ${sql.lit(`{${path.join(',')}}`)})` : sql<string>`json_extract(profile, ${sql.lit(`$.${path.join('.')}`)})`
  let query = data.db.selectFrom('punters').select('id').where(text, '=', value)
  if (jurisdiction !== undefined) query = query.where('jurisdiction', '=', jurisdiction)
  const row = await query.orderBy('id').limit(1).executeTakeFirst()
  return row?.id
}
