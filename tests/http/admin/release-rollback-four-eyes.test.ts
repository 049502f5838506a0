/**
 * A release's rollback is four-eyes like a document's (issue 29 item 7): one person's rollback of a
 * release is a request that changes nothing until a second person approves it; an emergency
 * rollback (with a reason) restores every document at once and waits for a second person's review.
 * Each step and each refusal is audited; an account scoped to jurisdictions cannot roll back (nor
 * approve the rollback of) a release holding documents outside them. The oracle: the texts Spain's
 * site serves, compared with the seeded git files, and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { adminByEmail, setStaffScope } from '../../../server/admin/staff'
import { readDocumentFile, startWithReviewers, type AdminClient, type TestServer } from './support'

const LABELS = 'i18n/en-signup.json'
const POPUP_TEXTS = 'i18n/en-auth.json'
const SLOW = { timeout: 90_000 }

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers()), 60_000)
afterAll(async () => server?.dispose())

type Entry = { action: string; actor: string; subject: string; details: Record<string, any> }
const audit = async () => (await compliance.get('/admin/api/audit?limit=200')).json().payload as Entry[]
const pending = async () => (await operator.get('/admin/api/rollbacks?pending=true')).json().payload as { id: number; kind: string; subject: string }[]
const texts = async () => {
  const all = (await rawRequest(server.port, { path: '/api/i18n/en', headers: { host: `spain.localhost:${server.port}` } })).json().resources as Record<string, string>
  return [all['signup.field.email'], all['auth.login.title']]
}
const seeded = () => [readDocumentFile(server, LABELS).resources['signup.field.email'], readDocumentFile(server, POPUP_TEXTS).resources['auth.login.title']]
const limit = async (email: string, jurisdictions: string[] | null) => setStaffScope(server.deps.data, (await adminByEmail(server.deps.data, email))!.id, jurisdictions)

/** Publishes a release changing both texts (operator drafts, compliance approves and publishes). */
async function publishRelease(label: string, title: string): Promise<number> {
  const versions: number[] = []
  for (const [file, key, text] of [
    [LABELS, 'signup.field.email', label],
    [POPUP_TEXTS, 'auth.login.title', title],
  ]) {
    const doc = readDocumentFile(server, file)
    doc.resources[key] = text
    versions.push((await operator.post('/admin/api/drafts', { file, content: JSON.stringify(doc, null, 2) })).json().payload.id)
  }
  const id = (await operator.post('/admin/api/releases', { title: `Texts ${label}`, versions })).json().payload.id as number
  expect((await operator.post(`/admin/api/releases/${id}/submit`)).status).toBe(200)
  expect((await compliance.post(`/admin/api/releases/${id}/approve`, { comment: 'ok' })).status).toBe(200)
  expect((await compliance.post(`/admin/api/releases/${id}/publish`)).status).toBe(200)
  expect(await texts()).toEqual([label, title])
  return id
}

describe('a release rollback is four-eyes', SLOW, () => {
  it('one person rolling a release back only asks: nothing changes until a second person approves; the asker cannot approve (audited)', async () => {
    const id = await publishRelease('Your e-mail', 'Welcome back')
    const asked = await operator.post(`/admin/api/releases/${id}/rollback`, { reason: 'legal wants the old words' })
    expect(asked.status, asked.body).toBe(202)
    const item = asked.json().payload as { id: number; kind: string; state: string; subject: string }
    expect(item).toMatchObject({ kind: 'request', state: 'requested', subject: `release/${id}` })
    expect(await texts()).toEqual(['Your e-mail', 'Welcome back'])
    expect((await pending()).map((p) => p.id)).toContain(item.id)

    const self = await operator.post(`/admin/api/rollbacks/${item.id}/approve`)
    expect(self.json()).toMatchObject({ status: 'ERROR', errorCode: 'SELF_APPROVAL' })
    expect(await texts()).toEqual(['Your e-mail', 'Welcome back'])

    const approved = await compliance.post(`/admin/api/rollbacks/${item.id}/approve`)
    expect(approved.status, approved.body).toBe(200)
    expect(approved.json().payload).toMatchObject({ origin: 'rollback', state: 'published', rollbackOf: id, author: 'compliance@parlay.test', rollback: { id: item.id, state: 'done', decidedBy: 'compliance@parlay.test' } })
    expect(await texts()).toEqual(seeded())
    expect((await pending()).map((p) => p.id)).not.toContain(item.id)
    const log = await audit()
    expect(log.find((e) => e.action === 'rollback.requested' && e.details.rollback === item.id)).toMatchObject({ actor: 'operator@parlay.test', subject: `release/${id}`, details: { reason: 'legal wants the old words' } })
    expect(log.find((e) => e.action === 'rollback.self-approval-refused' && e.details.rollback === item.id)).toMatchObject({ actor: 'operator@parlay.test' })
    expect(log.find((e) => e.action === 'rollback.approved' && e.details.rollback === item.id)).toMatchObject({ actor: 'compliance@parlay.test', details: { requestedBy: 'operator@parlay.test' } })
    expect(log.find((e) => e.action === 'release.rolled-back' && e.details.release === id)).toMatchObject({ actor: 'compliance@parlay.test', details: { rollback: approved.json().payload.id } })
    // rolled back once: asking again is refused before anything is recorded
    expect((await operator.post(`/admin/api/releases/${id}/rollback`, {})).json().errorCode).toBe('NOTHING_CHANGED')
  })

  it('an emergency release rollback needs a reason, restores every document at once, and waits for a second person to acknowledge it', async () => {
    const id = await publishRelease('Mail address', 'Hello again')
    const noReason = await operator.post(`/admin/api/releases/${id}/rollback`, { emergency: true, reason: ' short ' })
    expect(noReason.status).toBe(400)
    expect(noReason.json()).toMatchObject({ status: 'ERROR', errorCode: 'ROLLBACK_REASON_REQUIRED' })
    expect(await texts()).toEqual(['Mail address', 'Hello again'])

    const rolled = await operator.post(`/admin/api/releases/${id}/rollback`, { emergency: true, reason: 'log-ins fail since this release' })
    expect(rolled.status, rolled.body).toBe(201)
    const item = rolled.json().payload.rollback as { id: number }
    expect(rolled.json().payload).toMatchObject({ origin: 'rollback', state: 'published', rollbackOf: id, rollback: { kind: 'emergency', state: 'review-pending', subject: `release/${id}` } })
    expect(await texts()).toEqual(seeded())
    expect((await pending()).map((p) => p.id)).toContain(item.id)

    expect((await operator.post(`/admin/api/rollbacks/${item.id}/review`, { comment: 'me' })).json().errorCode).toBe('SELF_APPROVAL')
    expect((await compliance.post(`/admin/api/rollbacks/${item.id}/review`, { comment: 'right call' })).status).toBe(200)
    expect((await pending()).map((p) => p.id)).not.toContain(item.id)
    const log = await audit()
    expect(log.find((e) => e.action === 'rollback.emergency' && e.details.rollback === item.id)).toMatchObject({ actor: 'operator@parlay.test', subject: `release/${id}`, details: { reason: 'log-ins fail since this release', version: rolled.json().payload.id } })
    expect(log.find((e) => e.action === 'rollback.reviewed' && e.details.rollback === item.id)).toMatchObject({ actor: 'compliance@parlay.test', details: { kind: 'emergency', rolledBackBy: 'operator@parlay.test' } })
  })

  it('an account limited to Spain cannot roll back, nor approve the rollback of, a release of shared texts (403 OUT_OF_SCOPE, audited)', async () => {
    const id = await publishRelease('E-mail address', 'Sign in')
    const asked = (await operator.post(`/admin/api/releases/${id}/rollback`, {})).json().payload as { id: number }
    await limit('compliance@parlay.test', ['spain'])
    try {
      for (const attempt of [() => compliance.post(`/admin/api/rollbacks/${asked.id}/approve`), () => compliance.post(`/admin/api/releases/${id}/rollback`, { emergency: true, reason: 'not my jurisdiction at all' })]) {
        const refused = await attempt()
        expect(refused.status).toBe(403)
        expect(refused.json()).toMatchObject({ status: 'ERROR', errorCode: 'OUT_OF_SCOPE' })
      }
      expect(await texts()).toEqual(['E-mail address', 'Sign in'])
      const refusals = (await audit()).filter((e) => e.action === 'admin.scope-refused' && e.actor === 'compliance@parlay.test')
      expect(refusals.map((e) => e.details.route)).toEqual(expect.arrayContaining([`POST /admin/api/rollbacks/${asked.id}/approve`, `POST /admin/api/releases/${id}/rollback`]))
      expect(refusals.every((e) => [LABELS, POPUP_TEXTS].includes(e.subject))).toBe(true)
    } finally {
      await limit('compliance@parlay.test', null)
    }
    expect((await compliance.post(`/admin/api/rollbacks/${asked.id}/approve`)).status).toBe(200)
    expect(await texts()).toEqual(seeded())
  })
})
