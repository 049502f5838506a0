/**
 * A rollback is four-eyes (issue 29 item 7): one person's rollback is a request a second person
 * approves; an emergency rollback (with a reason) is live at once and pending review until a
 * second person acknowledges it. Refused actions are audited. The oracles: what Spain's site
 * serves (the seeded value, read from the git file) and the audit log's entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { SPAIN_SIGNUP, draftAndSubmit, readDocumentFile, startWithReviewers, type AdminClient, type TestServer } from './support'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers()), 60_000)
afterAll(async () => server?.dispose())

type Entry = { action: string; actor: string; subject: string; details: Record<string, any> }
const audit = async () => (await compliance.get('/admin/api/audit?limit=200')).json().payload as Entry[]
const served = async () => (await rawRequest(server.port, { path: '/api/documents/flow/signup-email', headers: { host: `spain.localhost:${server.port}` } })).json().steps[1].schema.properties.firstName.maxLength as number
const seeded = () => readDocumentFile(server, SPAIN_SIGNUP).steps[1].schema.properties.firstName.maxLength as number
const seedVersion = async () => ((await operator.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json().payload.history as { id: number; origin: string }[]).find((v) => v.origin === 'seed')!.id
const pending = async () => (await operator.get('/admin/api/rollbacks?pending=true')).json().payload as { id: number; kind: string; state: string }[]

/** Publishes firstName.maxLength = n through draft, review (compliance) and publish. */
async function publishMaxLength(n: number): Promise<void> {
  const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = n), server)
  expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).status).toBe(200)
  expect((await operator.post(`/admin/api/versions/${id}/publish`)).status).toBe(200)
  expect(await served()).toBe(n)
}

describe('a rollback is four-eyes', () => {
  it('a rollback by one person is only a request until a second person approves it; the requester cannot approve it (audited)', async () => {
    await publishMaxLength(51)
    const asked = await operator.post('/admin/api/rollback', { file: SPAIN_SIGNUP, version: await seedVersion(), reason: 'the old limit was right' })
    expect(asked.status).toBe(202)
    const request = asked.json().payload as { id: number; state: string }
    expect(request.state).toBe('requested')
    expect(await served()).toBe(51)
    expect((await pending()).map((p) => p.id)).toContain(request.id)

    const self = await operator.post(`/admin/api/rollbacks/${request.id}/approve`)
    expect(self.status).toBe(403)
    expect(self.json().errorCode).toBe('SELF_APPROVAL')
    expect(await served()).toBe(51)
    expect((await audit()).find((e) => e.action === 'rollback.self-approval-refused' && e.details.rollback === request.id)).toMatchObject({ actor: 'operator@parlay.test', subject: SPAIN_SIGNUP, details: { reason: expect.stringMatching(/cannot approve/) } })

    const approved = await compliance.post(`/admin/api/rollbacks/${request.id}/approve`)
    expect(approved.status).toBe(200)
    expect(approved.json().payload).toMatchObject({ origin: 'rollback', rollback: { id: request.id, state: 'done', decidedBy: 'compliance@parlay.test' } })
    expect(await served()).toBe(seeded())
    expect((await pending()).map((p) => p.id)).not.toContain(request.id)
    const log = await audit()
    expect(log.find((e) => e.action === 'rollback.requested' && e.details.rollback === request.id)).toMatchObject({ actor: 'operator@parlay.test', subject: SPAIN_SIGNUP, details: { reason: 'the old limit was right' } })
    expect(log.find((e) => e.action === 'rollback.approved' && e.details.rollback === request.id)).toMatchObject({ actor: 'compliance@parlay.test', details: { requestedBy: 'operator@parlay.test' } })
    expect(log.find((e) => e.action === 'document.rolled-back' && e.details.version === approved.json().payload.id)).toMatchObject({ actor: 'compliance@parlay.test', subject: SPAIN_SIGNUP })
    // approved once: a second approval changes nothing
    expect((await operator.post(`/admin/api/rollbacks/${request.id}/approve`)).json().errorCode).toBe('SELF_APPROVAL')
    expect((await compliance.post(`/admin/api/rollbacks/${request.id}/approve`)).json().errorCode).toBe('INVALID_STATE')
  })

  it('an emergency rollback by one person needs a reason, is live at once, and stays pending review until a second person acknowledges it', async () => {
    await publishMaxLength(52)
    const version = await seedVersion()
    const noReason = await operator.post('/admin/api/rollback', { file: SPAIN_SIGNUP, version, emergency: true, reason: '   ' })
    expect(noReason.status).toBe(400)
    expect(noReason.json()).toMatchObject({ status: 'ERROR', errorCode: 'ROLLBACK_REASON_REQUIRED' })
    expect(await served()).toBe(52)

    const rolled = await operator.post('/admin/api/rollback', { file: SPAIN_SIGNUP, version, emergency: true, reason: 'sign-ups are failing in Spain' })
    expect(rolled.status).toBe(200)
    const item = rolled.json().payload.rollback as { id: number; kind: string; state: string }
    expect(item).toMatchObject({ kind: 'emergency', state: 'review-pending' })
    expect(await served()).toBe(seeded())
    expect((await pending()).map((p) => p.id)).toContain(item.id)

    const self = await operator.post(`/admin/api/rollbacks/${item.id}/review`, { comment: 'fine by me' })
    expect(self.status).toBe(403)
    expect(self.json().errorCode).toBe('SELF_APPROVAL')
    expect((await pending()).map((p) => p.id)).toContain(item.id)
    expect((await compliance.post(`/admin/api/rollbacks/${item.id}/approve`)).status).toBe(404)

    expect((await compliance.post(`/admin/api/rollbacks/${item.id}/review`, { comment: 'right call' })).status).toBe(200)
    expect((await pending()).map((p) => p.id)).not.toContain(item.id)
    const log = await audit()
    expect(log.find((e) => e.action === 'rollback.emergency' && e.details.rollback === item.id)).toMatchObject({ actor: 'operator@parlay.test', subject: SPAIN_SIGNUP, details: { reason: 'sign-ups are failing in Spain' } })
    expect(log.find((e) => e.action === 'rollback.self-review-refused' && e.details.rollback === item.id)).toMatchObject({ actor: 'operator@parlay.test', details: { reason: expect.any(String) } })
    expect(log.find((e) => e.action === 'rollback.reviewed' && e.details.rollback === item.id)).toMatchObject({ actor: 'compliance@parlay.test', details: { kind: 'emergency', rolledBackBy: 'operator@parlay.test', comment: 'right call' } })
  })
})

describe('refused actions are audited', () => {
  it('a publish without approval and an action a role may not take are each one audit entry with actor, action, subject and reason', async () => {
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 53), server)
    expect((await operator.post(`/admin/api/versions/${id}/publish`)).json().errorCode).toBe('NOT_APPROVED')
    const byRole = await operator.post(`/admin/api/versions/${id}/approve`)
    expect(byRole.json().errorCode).toBe('FORBIDDEN_FOR_ROLE')
    const log = await audit()
    const publishes = log.filter((e) => e.action === 'publish.refused' && e.details.version === id)
    expect(publishes).toHaveLength(1)
    expect(publishes[0]).toMatchObject({ actor: 'operator@parlay.test', subject: SPAIN_SIGNUP, details: { code: 'NOT_APPROVED', reason: expect.stringMatching(/not approved/) } })
    const roles = log.filter((e) => e.action === 'admin.role-refused' && e.subject === `POST /admin/api/versions/${id}/approve`)
    expect(roles).toHaveLength(1)
    expect(roles[0]).toMatchObject({ actor: 'operator@parlay.test', details: { role: 'operator', needs: ['compliance'], reason: expect.any(String) } })
  })
})
