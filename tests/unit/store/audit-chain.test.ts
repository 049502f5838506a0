/**
 * verifyAuditChain on a shared log (PostgreSQL, several instances): entries past this instance's
 * anchor are accepted when the chain holds and the entry at the anchored length still has the
 * anchored head; a rewritten anchored entry, or a log shorter than the anchor, still fails. The
 * rows are read once: the check works on a one-shot iterator (a generator of database rows).
 */
import { describe, expect, it } from 'vitest'
import { entryHash, GENESIS_HASH, verifyAuditChain, type AuditRow } from '../../../server/store/audit'
import type { AnchorRead } from '../../../server/store/audit-anchor'

const KEY = Buffer.alloc(32, 7)

/** A valid chain of `count` entries; `subjectOf` lets a test rebuild it with one entry changed. */
function chain(count: number, subjectOf = (seq: number) => `subject-${seq}`): AuditRow[] {
  const rows: AuditRow[] = []
  for (let seq = 1; seq <= count; seq++) {
    const prev = rows.at(-1)?.hash ?? GENESIS_HASH
    const entry = { seq, at: 1_700_000_000_000 + seq, actor: 'ops@parlay.test', action: 'test.entry', subject: subjectOf(seq), details: '{}' }
    rows.push({ ...entry, prev_hash: prev, hash: entryHash(KEY, prev, entry) })
  }
  return rows
}

const anchorAt = (rows: AuditRow[], entries: number): AnchorRead => ({
  status: 'ok',
  record: { database: { id: '00000000-0000-4000-8000-000000000000', engine: 'postgres' }, committed: { entries, head: entries ? rows[entries - 1].hash : GENESIS_HASH }, pending: null, legacyEntries: 0 },
})

function* once(rows: AuditRow[]): Generator<AuditRow> {
  yield* rows
}

describe('verifyAuditChain on a shared log', () => {
  it("entries another instance appended past this anchor verify when the anchored entry keeps its head, also from a one-shot iterator", () => {
    const rows = chain(8)
    const anchor = anchorAt(rows, 5)
    expect(verifyAuditChain(rows, KEY, anchor, { shared: true })).toEqual({ ok: true, entries: 8, head: rows[7].hash, anchored: true })
    expect(verifyAuditChain(once(rows), KEY, anchor, { shared: true })).toEqual({ ok: true, entries: 8, head: rows[7].hash, anchored: true })
  })

  it('a log rebuilt with the key from an anchored entry on fails: the anchored head is no longer at the anchored length', () => {
    const anchor = anchorAt(chain(8), 5)
    const rebuilt = chain(8, (seq) => (seq === 3 ? 'rewritten' : `subject-${seq}`))
    expect(verifyAuditChain(rebuilt, KEY, anchor, { shared: true })).toMatchObject({ ok: false, firstBadSeq: 6 })
  })

  it('on a log that is not shared, entries past the anchor are refused as written around the server', () => {
    const rows = chain(8)
    expect(verifyAuditChain(rows, KEY, anchorAt(rows, 5))).toMatchObject({ ok: false, firstBadSeq: 6, reason: expect.stringMatching(/not covered by the anchor/) })
  })

  it('a shared log shorter than the anchor still fails', () => {
    const rows = chain(8)
    expect(verifyAuditChain(rows.slice(0, 4), KEY, anchorAt(rows, 5), { shared: true })).toMatchObject({ ok: false, firstBadSeq: 5 })
  })
})
