/**
 * The studio's audit view and review thread over real HTTP (issue 29 item 7): the audit log read
 * by filter (actor, action, file or jurisdiction, dates, words), exported as CSV that a spreadsheet
 * reads back cell for cell and never runs as a formula, and a version's review thread kept across
 * reject → edit → resubmit → approve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditCsv, csvCell } from '../../../server/admin/audit-csv'
import { SPAIN_SIGNUP, draftAndSubmit, editedText, type AdminClient, type TestServer, startWithReviewers } from './support'
import { parseCsv } from '../../support/csv'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient

beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers())
}, 60000)
afterAll(async () => server?.dispose())

interface Entry { seq: number; at: number; actor: string; action: string; subject: string; details: Record<string, unknown>; hash: string }
const entries = async (query: string) => (await compliance.get(`/admin/api/audit?${query}`)).json().payload as Entry[]

describe('the audit view: filter, search and CSV export', () => {
  it('each filter keeps exactly the entries whose field contains the text, case-insensitive (oracle: the unfiltered log filtered here)', async () => {
    await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 41), server)
    const all = await entries('limit=500')
    const has = (field: string, text: string) => (e: Entry) => String((e as unknown as Record<string, unknown>)[field]).toLowerCase().includes(text.toLowerCase())
    expect((await entries('limit=500&actor=OPERATOR@parlay')).map((e) => e.seq)).toEqual(all.filter(has('actor', 'operator@parlay')).map((e) => e.seq))
    expect((await entries('limit=500&action=draft.')).map((e) => e.seq)).toEqual(all.filter(has('action', 'draft.')).map((e) => e.seq))
    const spain = await entries('limit=500&subject=spain')
    expect(spain.length).toBeGreaterThan(0)
    expect(spain.map((e) => e.seq)).toEqual(all.filter(has('subject', 'spain')).map((e) => e.seq))
    // LIKE's own wildcards are literal: "_" matches an underscore only, "%" nothing here
    expect(await entries('limit=500&action=draft_created')).toEqual([])
    expect(await entries('limit=500&search=%25')).toEqual(all.filter((e) => JSON.stringify(e).includes('%')))
  })

  it('the date range keeps entries at or after "from" and before "to"; words search the details too', async () => {
    const all = await entries('limit=500')
    const middle = all[Math.floor(all.length / 2)]!
    const from = await entries(`limit=500&from=${middle.at}`)
    expect(from.map((e) => e.seq)).toEqual(all.filter((e) => e.at >= middle.at).map((e) => e.seq))
    const to = await entries(`limit=500&to=${middle.at}`)
    expect(to.map((e) => e.seq)).toEqual(all.filter((e) => e.at < middle.at).map((e) => e.seq))
    const submitted = all.find((e) => e.action === 'draft.submitted')!
    const hash = String((all.find((e) => e.action === 'draft.created' && e.details.version === submitted.details.version)!.details as { contentHash: string }).contentHash)
    expect((await entries(`search=${hash.slice(0, 20).toUpperCase()}`)).map((e) => e.action)).toEqual(['draft.created'])
  })

  it('a bad filter is a 400 ValidationError, never a 500', async () => {
    for (const query of ['from=yesterday', 'limit=0', 'limit=99999', 'colour=red', 'actor=' + 'x'.repeat(201), 'actor=a&actor=b']) {
      const res = await compliance.get(`/admin/api/audit?${query}`)
      expect(res.status, query).toBe(400)
      expect(res.json().errorCode).toBe('ValidationError')
      expect((await compliance.get(`/admin/api/audit/export?${query}`)).status, query).toBe(400)
    }
  })

  it('the CSV export holds exactly the filtered entries, each field read back as the API answers it, and the export is audited', async () => {
    const res = await compliance.get('/admin/api/audit/export?subject=spain')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="parlay-audit-\d{4}-\d\d-\d\d\.csv"$/)
    const [head, ...rows] = parseCsv(res.body)
    expect(head).toEqual(['seq', 'time', 'actor', 'action', 'subject', 'details', 'hash'])
    const exported = (await entries('limit=500&action=admin.audit-exported'))[0]!
    expect(exported.actor).toBe('compliance@parlay.test')
    expect(exported.details).toMatchObject({ filter: { subject: 'spain' }, rows: rows.length })
    const oracle = await entries(`limit=500&subject=spain&before=${exported.seq}`)
    expect(rows).toEqual(oracle.map((e) => [String(e.seq), new Date(e.at).toISOString(), e.actor, e.action, e.subject, JSON.stringify(e.details), e.hash]))
  })

  it('a cell starting with = + - @ is exported with a leading quote; commas, quotes and line breaks stay inside their cell', () => {
    expect(['=1+1', '+SUM(A1)', '-2', '@cmd', '\tx'].map(csvCell)).toEqual(["\"'=1+1\"", "\"'+SUM(A1)\"", "\"'-2\"", "\"'@cmd\"", "\"'\tx\""])
    const entry = { seq: 7, at: 0, actor: 'a@b', action: 'review.comment', subject: '=HYPERLINK("x")', details: { comment: 'one, "two"\r\nthree' }, prevHash: '', hash: 'h' }
    const [, row] = parseCsv(auditCsv([entry]))
    expect(row).toEqual(['7', '1970-01-01T00:00:00.000Z', 'a@b', 'review.comment', `'=HYPERLINK("x")`, JSON.stringify(entry.details), 'h'])
  })
})

describe("a version's review thread", () => {
  it('keeps every comment across reject, edit, resubmit and approval, oldest first, with who said it', async () => {
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.lastName.maxLength = 43), server)
    expect((await compliance.post(`/admin/api/versions/${id}/reject`, { comment: 'Why 43? Legal asked for 40.' })).status).toBe(200)
    expect((await operator.post(`/admin/api/versions/${id}/comments`, { text: 'Fixed: 40, as legal asked.' })).status).toBe(201)
    const revision = (await operator.get(`/admin/api/versions/${id}`)).json().payload.revision as number
    const content = editedText(server, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.lastName.maxLength = 40))
    expect((await operator.put(`/admin/api/versions/${id}`, { content, revision })).status).toBe(200)
    expect((await operator.post(`/admin/api/versions/${id}/submit`)).status).toBe(200)
    expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'Thanks, fine now.' })).status).toBe(200)
    const thread = (await operator.get(`/admin/api/versions/${id}/thread`)).json().payload as { actor: string; action: string; comment?: string }[]
    expect(thread.map((t) => [t.actor, t.action, t.comment ?? null])).toEqual([
      ['operator@parlay.test', 'draft.created', null],
      ['operator@parlay.test', 'draft.submitted', null],
      ['compliance@parlay.test', 'review.rejected', 'Why 43? Legal asked for 40.'],
      ['operator@parlay.test', 'review.comment', 'Fixed: 40, as legal asked.'],
      ['operator@parlay.test', 'draft.updated', null],
      ['operator@parlay.test', 'draft.submitted', null],
      ['compliance@parlay.test', 'review.approved', 'Thanks, fine now.'],
    ])
    // the version row itself keeps only the latest comment: the thread is what keeps the rest
    expect((await operator.get(`/admin/api/versions/${id}`)).json().payload.reviewComment).toBe('Thanks, fine now.')
  })

  it('a blank or unknown-key comment is a 400; an unknown version a 404', async () => {
    expect((await operator.post('/admin/api/versions/1/comments', { text: '   ' })).status).toBe(400)
    expect((await operator.post('/admin/api/versions/1/comments', { text: 'ok', extra: 1 })).status).toBe(400)
    expect((await operator.post('/admin/api/versions/999999/comments', { text: 'ok' })).status).toBe(404)
    expect((await operator.get('/admin/api/versions/999999/thread')).status).toBe(404)
  })
})
