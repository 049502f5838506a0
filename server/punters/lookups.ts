/**
 * Reads and writes of the punters table that other stores need (issue 16: no store's SQL crosses
 * into another store's tables, because while the stores move one by one the punters may live in
 * another database than messages, regulation or engagement). Those stores call these functions
 * instead of joining `punters`; this file belongs to the punters store and is on the query layer
 * with it (both engines).
 *
 * The profile and settings are JSON text. Nothing here uses an engine's JSON functions (SQLite's
 * json_extract, PostgreSQL's jsonb operators): fields are read and patched in TypeScript, a patch
 * inside a transaction serialised on the punter, so two instances writing different fields of one
 * profile at once keep both.
 */
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
 * Rewrites the punter's profile with `patch` (given the profile as stored now) in one transaction
 * serialised on the punter: the read and the write cannot interleave with another instance's
 * patch of the same profile. `patch` must not await anything (it runs inside the transaction).
 * Answers the profile written, or undefined when there is no such punter.
 */
export async function updateProfile(data: DataLayer, punterId: number, now: number, patch: (profile: PunterProfile) => PunterProfile): Promise<PunterProfile | undefined> {
  return data.transaction(
    async (tx) => {
      const row = await tx.selectFrom('punters').select('profile').where('id', '=', punterId).executeTakeFirst()
      if (!row) return undefined
      const profile = patch(parseObject(row.profile) as PunterProfile)
      await tx.updateTable('punters').set({ profile: JSON.stringify(profile), updated_at: now }).where('id', '=', punterId).execute()
      return profile
    },
    { serialiseOn: punterLock(punterId) },
  )
}
