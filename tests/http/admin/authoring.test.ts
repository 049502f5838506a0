/**
 * Creating and deleting documents from the studio (issue 29 item 7). "New document" makes a draft
 * of the kind's starter at the kind's folder; it passes the publish gate as it is (the server's own
 * load and compile of the set with it) and goes through review to be served; an id already taken,
 * a jurisdiction outside the account's scope and bad input are refused with a 4xx. A deletion is a
 * draft too: the document stays served until a second person approves and it is published. The
 * oracle: what the public documents API serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { adminByEmail, setStaffScope } from '../../../server/admin/staff'
import { readDocumentFile, startWithReviewers, type AdminClient, type TestServer } from './support'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers()), 60_000)
afterAll(async () => server?.dispose())

const SLOW = { timeout: 120_000 }
const served = (kind: string, id: string, host = 'localhost') => rawRequest(server.port, { path: `/api/documents/${kind}/${id}`, headers: { host: `${host}:${server.port}` } })
const limit = async (email: string, jurisdictions: string[] | null) => setStaffScope(server.deps.data, (await adminByEmail(server.deps.data, email))!.id, jurisdictions)

async function reviewAndPublish(id: number): Promise<void> {
  const submitted = await operator.post(`/admin/api/versions/${id}/submit`)
  expect(submitted.status, submitted.body).toBe(200)
  expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).status).toBe(200)
  const published = await operator.post(`/admin/api/versions/${id}/publish`)
  expect(published.status, published.body).toBe(200)
}

describe('new documents from the studio', SLOW, () => {
  it('the studio offers promotions, quizzes, popups and screens, each in its folder', async () => {
    const kinds = (await operator.get('/admin/api/studio/starters')).json().payload as { kind: string; folder: string }[]
    expect(kinds.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'popup', folder: 'popups' },
      { kind: 'promotion', folder: 'promotions' },
      { kind: 'quiz', folder: 'quizzes' },
      { kind: 'screen', folder: 'screens' },
    ])
  })

  it.each([
    ['popup', 'popups'],
    ['promotion', 'promotions'],
    ['quiz', 'quizzes'],
    ['screen', 'screens'],
  ])('a new %s starts as a draft in %s/ that passes the publish gate and, once reviewed and published, is served', async (kind, folder) => {
    const id = `studio-new-${kind}`
    expect((await served(kind, id)).status).toBe(404)
    const created = await operator.post('/admin/api/studio/new', { kind, id, jurisdiction: null })
    expect(created.status, created.body).toBe(201)
    expect(created.json().payload).toMatchObject({ file: `${folder}/${id}.json`, state: 'draft' })
    await reviewAndPublish(created.json().payload.id)
    const doc = await served(kind, id)
    expect(doc.status, `${kind}: ${doc.body}`).toBe(200)
    expect(doc.json()).toMatchObject({ kind, id })
  })

  it("a jurisdiction's new document lives under its folder and is served on that site only", async () => {
    const created = await operator.post('/admin/api/studio/new', { kind: 'popup', id: 'spain-only-note', jurisdiction: 'spain' })
    expect(created.json().payload.file).toBe('jurisdictions/spain/popups/spain-only-note.json')
    await reviewAndPublish(created.json().payload.id)
    expect((await served('popup', 'spain-only-note', 'spain.localhost')).status).toBe(200)
    expect((await served('popup', 'spain-only-note', 'italy.localhost')).status).toBe(404)
  })

  it('an id already taken, a jurisdiction outside the scope, an unknown jurisdiction or kind and a bad id are refused with a 4xx and store nothing', async () => {
    const drafts = async () => ((await operator.get('/admin/api/versions?state=draft')).json().payload as unknown[]).length
    const before = await drafts()
    expect((await operator.post('/admin/api/studio/new', { kind: 'popup', id: 'info', jurisdiction: null })).json().errorCode).toBe('DOCUMENT_EXISTS')
    expect((await operator.post('/admin/api/studio/new', { kind: 'popup', id: 'info', jurisdiction: 'italy' })).json().errorCode).toBe('DOCUMENT_EXISTS')
    await operator.post('/admin/api/studio/new', { kind: 'quiz', id: 'twice-asked', jurisdiction: null })
    expect((await operator.post('/admin/api/studio/new', { kind: 'quiz', id: 'twice-asked', jurisdiction: null })).json().errorCode).toBe('DOCUMENT_EXISTS')
    for (const [body, status, code] of [
      [{ kind: 'popup', id: 'x-new', jurisdiction: 'atlantis' }, 400, 'UNKNOWN_JURISDICTION'],
      [{ kind: 'flow', id: 'x-new', jurisdiction: null }, 400, 'ValidationError'],
      [{ kind: 'popup', id: '../etc', jurisdiction: null }, 400, 'ValidationError'],
      [{ kind: 'popup', id: 'x-new' }, 400, 'ValidationError'],
    ] as const) {
      const res = await operator.post('/admin/api/studio/new', body)
      expect(res.status).toBe(status)
      expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: code })
    }
    await limit('operator@parlay.test', ['spain'])
    try {
      for (const jurisdiction of [null, 'italy']) expect((await operator.post('/admin/api/studio/new', { kind: 'popup', id: 'scoped-new', jurisdiction })).json().errorCode).toBe('OUT_OF_SCOPE')
      expect((await operator.post('/admin/api/studio/new', { kind: 'popup', id: 'scoped-new', jurisdiction: 'spain' })).status).toBe(201)
    } finally {
      await limit('operator@parlay.test', null)
    }
    expect(await drafts()).toBe(before + 2)
  })
})

describe('deleting a document from the studio', SLOW, () => {
  it('is a deletion draft: the document stays served through review and is gone once approved and published', async () => {
    const created = await operator.post('/admin/api/studio/new', { kind: 'popup', id: 'to-be-deleted', jurisdiction: null })
    await reviewAndPublish(created.json().payload.id)
    const deletion = await operator.post('/admin/api/deletions', { file: 'popups/to-be-deleted.json' })
    expect(deletion.status, deletion.body).toBe(201)
    expect(deletion.json().payload).toMatchObject({ deleted: true, state: 'draft' })
    expect((await operator.post(`/admin/api/versions/${deletion.json().payload.id}/submit`)).status).toBe(200)
    expect((await served('popup', 'to-be-deleted')).status).toBe(200)
    expect((await operator.post(`/admin/api/versions/${deletion.json().payload.id}/approve`, {})).json().errorCode).toBe('FORBIDDEN_FOR_ROLE')
    expect((await compliance.post(`/admin/api/versions/${deletion.json().payload.id}/approve`, { comment: 'ok' })).status).toBe(200)
    expect((await served('popup', 'to-be-deleted')).status).toBe(200)
    expect((await operator.post(`/admin/api/versions/${deletion.json().payload.id}/publish`)).status).toBe(200)
    expect((await served('popup', 'to-be-deleted')).status).toBe(404)
    expect((await operator.post('/admin/api/deletions', { file: 'popups/never-was.json' })).json().errorCode).toBe('NOT_FOUND')
    expect((await operator.post('/admin/api/deletions', { file: '../x.json' })).json().errorCode).toBe('INVALID_FILE')
  })
})

describe("texts beside an element: a key's words in every locale", () => {
  it("answers each locale's text and file as the translations files hold them; a locale without the key gets its file of the same area; bad keys are a 400", async () => {
    const answer = (await operator.get('/admin/api/studio/texts?key=forms.contact.name&key=signup.field.email')).json().payload as { locales: string[]; texts: Record<string, { locale: string; file: string; text: string | null }[]> }
    expect(answer.locales).toEqual(['be', 'da', 'en', 'es', 'it', 'pt', 'ru'])
    for (const { locale, file, text } of answer.texts['forms.contact.name']!) {
      expect(file).toBe(`i18n/${locale}-journeys.json`)
      expect(text).toBe(readDocumentFile(server, file).resources['forms.contact.name'])
    }
    expect(answer.texts['signup.field.email']!.find((t) => t.locale === 'en')).toEqual({ locale: 'en', file: 'i18n/en-signup.json', text: readDocumentFile(server, 'i18n/en-signup.json').resources['signup.field.email'] })
    // a key no locale has yet (a new field's label) is offered in each locale's main file, empty
    const fresh = (await operator.get('/admin/api/studio/texts?key=forms.contact.nickname')).json().payload.texts['forms.contact.nickname'] as { locale: string; file: string; text: null }[]
    expect(fresh.map((t) => [t.file, t.text])).toEqual(answer.locales.map((l) => [`i18n/${l}.json`, null]))
    for (const query of ['', '?key=', '?key=a%20b', `?${Array.from({ length: 21 }, (_, i) => `key=k${i}`).join('&')}`]) {
      const res = await operator.get(`/admin/api/studio/texts${query}`)
      expect(res.status, query).toBe(400)
      expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError' })
    }
  })
})
