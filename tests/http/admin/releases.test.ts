/**
 * Issue 19 item 5: releases. Drafts of several documents are reviewed, approved by a second person
 * and published together in one transaction and one swap of the served set; a release scheduled for
 * a wall-clock time in a zone goes live when the server's (test) clock reaches it; a rollback
 * restores every document in one action; the audit log records each step; bad input is a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { schedulerOf } from '../../../server/store/release-scheduler'
import { COMPLIANCE, OPERATOR, readDocumentFile, type AdminClient, type TestServer, startWithReviewers } from './support'

const LABELS = 'i18n/en-signup.json' // the sign-up label "E-mail"
const POPUP_TEXTS = 'i18n/en-auth.json' // the login popup's title "Log in"
// Each step runs the lint gate over every document (about a second each on a busy 2-core machine).
const SLOW = { timeout: 60_000 }
const START = Date.parse('2026-11-26T22:50:00Z') // 23:50 in Madrid (CET, UTC+1)

let clock = START
let server: TestServer
let operator: AdminClient
let compliance: AdminClient

beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers({ now: () => clock })), 60000)
afterAll(async () => server?.dispose())

const english = async () => (await rawRequest(server.port, { path: '/api/i18n/en', headers: { host: `spain.localhost:${server.port}` } })).json().resources as Record<string, string>
const documentsVersion = async () => (await rawRequest(server.port, { path: '/api/site/version', headers: { host: `spain.localhost:${server.port}` } })).json().documentsVersion as string
const audit = async () => (await compliance.get('/admin/api/audit?limit=100')).json().payload as { action: string; at: number; subject: string; details: Record<string, unknown> }[]

/** Operator drafts new texts for both files (from what is published now) and groups them in a release. */
async function draftRelease(label: string, popupTitle: string, title = 'Sign-up and login texts'): Promise<{ id: number; versions: number[] }> {
  const versions: number[] = []
  for (const [file, key, text] of [
    [LABELS, 'signup.field.email', label],
    [POPUP_TEXTS, 'auth.login.title', popupTitle],
  ]) {
    const published = (await operator.get(`/admin/api/document?file=${encodeURIComponent(file)}`)).json().payload.published
    const doc = JSON.parse(published.content)
    doc.resources[key] = text
    const draft = await operator.post('/admin/api/drafts', { file, content: JSON.stringify(doc, null, 2) })
    expect(draft.status, draft.body).toBe(201)
    versions.push(draft.json().payload.id)
  }
  const created = await operator.post('/admin/api/releases', { title, versions })
  expect(created.status, created.body).toBe(201)
  return { id: created.json().payload.id, versions }
}

async function submitAndApprove(id: number): Promise<void> {
  const submitted = await operator.post(`/admin/api/releases/${id}/submit`)
  expect(submitted.status, submitted.body).toBe(200)
  const approved = await compliance.post(`/admin/api/releases/${id}/approve`, { comment: 'Texts checked by legal.' })
  expect(approved.status, approved.body).toBe(200)
}

describe('a release goes live as a whole', SLOW, () => {
  it('its documents are published in one transaction: before, punters see neither change; after, both; the documents version changes once', async () => {
    const { id, versions } = await draftRelease('Your e-mail', 'Welcome back')
    await submitAndApprove(id)
    expect((await english())['signup.field.email']).toBe('E-mail')
    const before = await documentsVersion()
    const published = await compliance.post(`/admin/api/releases/${id}/publish`)
    expect(published.status, published.body).toBe(200)
    expect(published.json().payload.state).toBe('published')
    const texts = await english()
    expect([texts['signup.field.email'], texts['auth.login.title']]).toEqual(['Your e-mail', 'Welcome back'])
    expect(await documentsVersion()).not.toBe(before)
    // One transaction: both documents' entries and the release's share its time and follow each other.
    const log = (await audit()).filter((e) => e.details.release === id)
    const live = log.filter((e) => e.action === 'document.published' || e.action === 'release.published')
    expect(live.map((e) => e.action).sort()).toEqual(['document.published', 'document.published', 'release.published'])
    expect(new Set(live.map((e) => e.at)).size).toBe(1)
    expect(log.find((e) => e.action === 'release.approved')?.details.versions).toEqual(versions)
    for (const action of ['release.created', 'release.submitted', 'release.approved', 'release.published']) expect(log.map((e) => e.action)).toContain(action)
  })

  it('rolls back as a whole in one action: a new release restores both documents, and a second rollback is refused', async () => {
    const published = (await compliance.get('/admin/api/releases?state=published')).json().payload as { id: number; origin: string }[]
    const release = published.find((r) => r.origin === 'operator')!
    // four-eyes (release-rollback-four-eyes.test.ts): the operator asks, compliance approves
    const asked = await operator.post(`/admin/api/releases/${release.id}/rollback`)
    expect(asked.status, asked.body).toBe(202)
    const rolled = await compliance.post(`/admin/api/rollbacks/${asked.json().payload.id}/approve`)
    expect(rolled.status, rolled.body).toBe(200)
    expect(rolled.json().payload).toMatchObject({ origin: 'rollback', state: 'published', rollbackOf: release.id })
    const texts = await english()
    expect([texts['signup.field.email'], texts['auth.login.title']]).toEqual(['E-mail', 'Log in'])
    expect((await operator.post(`/admin/api/releases/${release.id}/rollback`)).json().errorCode).toBe('NOTHING_CHANGED')
    expect((await audit()).some((e) => e.action === 'release.rolled-back' && e.details.release === release.id && e.details.rollback === rolled.json().payload.id)).toBe(true)
  })

  it('a release one of whose files changed after it was drafted is refused as a whole (STALE_DRAFT): neither document changes', async () => {
    const { id, versions } = await draftRelease('Stale label', 'Stale title')
    await submitAndApprove(id)
    // Someone publishes another change of the labels file meanwhile.
    const doc = readDocumentFile(server, LABELS)
    doc.resources['signup.field.email'] = 'E-mail (meanwhile)'
    const other = (await operator.post('/admin/api/drafts', { file: LABELS, content: JSON.stringify(doc, null, 2) })).json().payload.id
    await operator.post(`/admin/api/versions/${other}/submit`)
    await compliance.post(`/admin/api/versions/${other}/approve`, {})
    expect((await compliance.post(`/admin/api/versions/${other}/publish`)).status).toBe(200)
    const refused = await compliance.post(`/admin/api/releases/${id}/publish`)
    expect(refused.status).toBe(409)
    expect(refused.json()).toMatchObject({ status: 'ERROR', errorCode: 'STALE_DRAFT', payload: { files: [LABELS] } })
    const texts = await english()
    expect([texts['signup.field.email'], texts['auth.login.title']]).toEqual(['E-mail (meanwhile)', 'Log in'])
    expect((await compliance.get(`/admin/api/releases/${id}`)).json().payload.state).toBe('approved')
    expect(versions).toHaveLength(2)
    await operator.post(`/admin/api/releases/${id}/withdraw`)
  })
})

describe('four-eyes and the versions inside a release', SLOW, () => {
  it('publishing needs a second person\'s approval; operators cannot approve; the release\'s versions cannot move one by one', async () => {
    const { id, versions } = await draftRelease('Four eyes', 'Four eyes title')
    expect((await operator.post(`/admin/api/releases/${id}/publish`)).json().errorCode).toBe('NOT_APPROVED')
    expect((await operator.post(`/admin/api/versions/${versions[0]}/submit`)).json().errorCode).toBe('IN_RELEASE')
    await operator.post(`/admin/api/releases/${id}/submit`)
    expect((await operator.post(`/admin/api/releases/${id}/approve`, {})).json().errorCode).toBe('FORBIDDEN_FOR_ROLE')
    expect((await compliance.post(`/admin/api/versions/${versions[1]}/approve`, {})).json().errorCode).toBe('IN_RELEASE')
    expect((await compliance.post(`/admin/api/releases/${id}/reject`, { comment: 'Wrong tone for the label.' })).json().payload.state).toBe('rejected')
    expect((await compliance.get(`/admin/api/versions/${versions[0]}`)).json().payload.state).toBe('rejected')
    expect((await audit()).some((e) => e.action === 'release.rejected' && e.details.comment === 'Wrong tone for the label.')).toBe(true)
    await operator.post(`/admin/api/releases/${id}/withdraw`)
  })

  it('the store refuses a reviewer approving a release they wrote (whoever calls it)', async () => {
    const { id } = await draftRelease('Self', 'Self title')
    await operator.post(`/admin/api/releases/${id}/submit`)
    const { releaseBookOf } = await import('../../../server/store/releases')
    const book = releaseBookOf(server.deps.store, server.deps.now)
    expect(await book.approve(OPERATOR.email.toUpperCase(), id, '')).toMatchObject({ ok: false, code: 'SELF_APPROVAL' })
    await operator.post(`/admin/api/releases/${id}/withdraw`)
  })
})

describe('scheduling on the server clock', SLOW, () => {
  it('a release scheduled for 00:00 Europe/Madrid goes live when the clock reaches 23:00 UTC, not a minute before', async () => {
    const { id } = await draftRelease('Midnight label', 'Midnight title')
    const scheduled = await operator.post(`/admin/api/releases/${id}/schedule`, { at: '2026-11-27T00:00', zone: 'Europe/Madrid' })
    expect(scheduled.status, scheduled.body).toBe(200)
    expect(scheduled.json().payload.schedule).toMatchObject({ at: Date.parse('2026-11-26T23:00:00Z'), local: '2026-11-27T00:00', zone: 'Europe/Madrid' })
    const scheduler = schedulerOf(server.deps.store)!
    clock = Date.parse('2026-11-26T23:30:00Z') - 31 * 60_000 // 22:59
    // Not approved yet: nothing goes live; approved, still a minute early: nothing either.
    expect(await scheduler.tick()).toEqual([])
    await submitAndApprove(id)
    expect(await scheduler.tick()).toEqual([])
    expect((await english())['signup.field.email']).not.toBe('Midnight label')
    clock = Date.parse('2026-11-26T23:00:00Z')
    expect(await scheduler.tick()).toEqual([id])
    const texts = await english()
    expect([texts['signup.field.email'], texts['auth.login.title']]).toEqual(['Midnight label', 'Midnight title'])
    const log = (await audit()).filter((e) => e.details.release === id)
    expect(log.find((e) => e.action === 'release.scheduled')?.details).toMatchObject({ local: '2026-11-27T00:00', zone: 'Europe/Madrid' })
    expect(log.find((e) => e.action === 'release.published')).toMatchObject({ actor: 'scheduler', details: { how: 'schedule' } })
    expect(await scheduler.tick()).toEqual([])
  })

  it('a time already past, an unknown zone or a malformed time is refused with a clear 4xx', async () => {
    const { id } = await draftRelease('Past', 'Past title')
    const past = await operator.post(`/admin/api/releases/${id}/schedule`, { at: '2026-11-26T00:00', zone: 'Europe/Madrid' })
    expect([past.status, past.json().errorCode]).toEqual([422, 'SCHEDULE_IN_PAST'])
    const zone = await operator.post(`/admin/api/releases/${id}/schedule`, { at: '2027-01-01T00:00', zone: 'Mars/Olympus' })
    expect([zone.status, zone.json().errorCode]).toEqual([400, 'INVALID_SCHEDULE'])
    expect((await operator.post(`/admin/api/releases/${id}/schedule`, { at: '2027-02-31T00:00', zone: 'Europe/Madrid' })).status).toBe(400)
    expect((await operator.post(`/admin/api/releases/${id}/schedule`, { at: 'tomorrow', zone: 'Europe/Madrid' })).status).toBe(400)
    expect((await operator.post(`/admin/api/releases/${id}/schedule`, { at: '2027-01-01T00:00' })).status).toBe(400)
    await operator.post(`/admin/api/releases/${id}/withdraw`)
  })
})

describe('the reviewer\'s view: pending reviews and comments on a line', SLOW, () => {
  it('compliance sees the pending release in its count; a comment on a diff line is stored and shown with the release', async () => {
    const { id, versions } = await draftRelease('Pending', 'Pending title')
    await operator.post(`/admin/api/releases/${id}/submit`)
    const pending = (await compliance.get('/admin/api/reviews/pending')).json().payload
    expect(pending.count).toBeGreaterThanOrEqual(1)
    expect(pending.releases.map((r: { id: number }) => r.id)).toContain(id)
    expect((await operator.get('/admin/api/reviews/pending')).json().payload.count).toBe(0)
    const detail = (await compliance.get(`/admin/api/releases/${id}`)).json().payload
    expect(detail.items.map((i: { file: string }) => i.file).sort()).toEqual([POPUP_TEXTS, LABELS].sort())
    const finding = detail.items[0].diff.findings[0]
    expect(finding.message).toMatch(/Pending/)
    const added = await compliance.post(`/admin/api/releases/${id}/comments`, { version: versions[0], location: finding.location, text: 'Is this the approved wording?' })
    expect(added.status, added.body).toBe(201)
    const comments = (await compliance.get(`/admin/api/releases/${id}`)).json().payload.comments
    expect(comments).toEqual([expect.objectContaining({ versionId: versions[0], location: finding.location, author: COMPLIANCE.email, body: 'Is this the approved wording?' })])
    await operator.post(`/admin/api/releases/${id}/withdraw`)
  })
})

describe('bad input', () => {
  it('answers 4xx in the envelope, never a 500', async () => {
    const cases: [() => Promise<{ status: number; json(): any }>, number][] = [
      [() => operator.post('/admin/api/releases', { title: 'x', versions: [1] }), 400],
      [() => operator.post('/admin/api/releases', { title: 'No versions', versions: [] }), 400],
      [() => operator.post('/admin/api/releases', { title: 'Strings', versions: ['1'] }), 400],
      [() => operator.post('/admin/api/releases', { title: 'Unknown', versions: [99999999] }), 404],
      [() => operator.post('/admin/api/releases', { title: 'Extra', versions: [1], x: 1 }), 400],
      [() => compliance.post('/admin/api/releases', { title: 'Compliance', versions: [1] }), 403],
      [() => operator.post('/admin/api/releases', { title: 'Published version', versions: [1] }), 403],
      [() => operator.get('/admin/api/releases/abc'), 404],
      [() => operator.get('/admin/api/releases/424242'), 404],
      [() => operator.get('/admin/api/releases?state=nope'), 400],
      [() => compliance.post('/admin/api/releases/424242/approve', {}), 404],
      [() => compliance.post('/admin/api/releases/1/reject', {}), 400],
      [() => operator.post('/admin/api/releases/1/comments', { version: 1, location: '', text: 'x' }), 400],
      [() => operator.post('/admin/api/releases/1/preview', { site: '../x' }), 400],
    ]
    for (const [send, status] of cases) {
      const res = await send()
      expect(res.status).toBe(status)
      expect(res.json().status).toBe('ERROR')
    }
  })
})
