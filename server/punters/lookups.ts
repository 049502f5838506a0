/**
 * Reads and writes of the punters table that other stores need (issue 16: no store's SQL crosses
 * into another store's tables, because while the stores move one by one the punters may live in
 * another database than messages, regulation or engagement). Those stores call these functions
 * instead of joining `punters`; this file belongs to the punters store and moves with it to the
 * query layer (server/db/stores.ts lists it there). Already async, so the move changes no caller.
 */
import type { Db } from '../db/database'
import type { PunterProfile } from './repository'

/** The id of the punter with this account number (account numbers are unique across sites). */
export async function punterIdByAccountNumber(db: Db, accountNumber: string): Promise<number | undefined> {
  const row = db.prepare('SELECT id FROM punters WHERE account_number = ?').get(accountNumber) as { id: number } | undefined
  return row?.id
}

/** The locale the punter chose in the settings ('' when none). */
export async function punterLocaleSetting(db: Db, punterId: number): Promise<string> {
  const row = db.prepare("SELECT COALESCE(json_extract(settings, '$.locale'), '') AS locale FROM punters WHERE id = ?").get(punterId) as { locale: string } | undefined
  return row?.locale ?? ''
}

/** A segment of punters: any of jurisdiction, state and loyalty tier (no tier in the profile: Common). */
export interface PunterSegment {
  jurisdiction?: string
  state?: string
  tier?: string
}

/** The ids of the punters in a segment (every punter for an empty one), ascending. */
export async function punterIdsInSegment(db: Db, segment: PunterSegment): Promise<number[]> {
  const where: string[] = []
  const params: string[] = []
  if (segment.jurisdiction) where.push('jurisdiction = ?'), params.push(segment.jurisdiction)
  if (segment.state) where.push('state = ?'), params.push(segment.state)
  if (segment.tier) where.push("COALESCE(json_extract(profile, '$.loyalty.tier'), 'Common') = ?"), params.push(segment.tier)
  const sql = `SELECT id FROM punters${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id`
  return (db.prepare(sql).all(...params) as { id: number }[]).map((r) => r.id)
}

/** Account numbers of some punters (ids without a punter are left out). */
export async function accountNumbersOf(db: Db, punterIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(punterIds)]
  if (ids.length === 0) return new Map()
  const rows = db.prepare(`SELECT id, account_number FROM punters WHERE id IN (${ids.map(() => '?').join(', ')})`).all(...ids) as { id: number; account_number: string }[]
  return new Map(rows.map((r) => [r.id, r.account_number]))
}

/** Sets one field of the punter's profile, leaving every other field as it is in the row now. */
export async function setProfileField<K extends 'loyalty' | 'realityCheck' | 'regulationAlert'>(db: Db, punterId: number, field: K, value: NonNullable<PunterProfile[K]>, now: number): Promise<void> {
  db.prepare('UPDATE punters SET profile = json_set(profile, ?, json(?)), updated_at = ? WHERE id = ?').run(`$.${field}`, JSON.stringify(value), now, punterId)
}
