/**
 * Compliance sees what goes live (issue 29 item 2), through the admin API: a change's review says
 * where it goes live — the sites and locales chosen by the document, whatever host the reviewer
 * uses — renders each of those sites, speaks the punter's words, and previews every API that
 * builds a page from documents (texts, promotions, the quiz) with the draft in place. The oracle
 * for "where it goes live" is the site itself: what each site serves, asked site by site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, apiCaller, type Call } from '../../support/api'
import { rawRequest } from '../../support/server'
import { SPAIN_SIGNUP, editedText, readDocumentFile, type AdminClient, type TestServer, startWithReviewers } from './support'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
let gate: Call
let sites: { id: string; jurisdiction: string; locales: string[] }[]

beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers())
  gate = apiCaller(`http://127.0.0.1:${server.port}`, addresses(91))
  sites = (await operator.get('/admin/api/studio/sites')).json().payload
}, 60000)
afterAll(() => server?.dispose())

const cookiesOf = (res: { headers: Record<string, unknown> }) =>
  ([] as string[])
    .concat((res.headers['set-cookie'] as string[]) ?? [])
    .map((c) => c.split(';')[0])
    .filter((c) => c.startsWith('parlay_preview='))
/** A published document as a site serves it (its own copy or the shared one). */
const served = async (site: string, path: string) => (await rawRequest(server.port, { path, headers: { 'x-parlay-target': site } })).body

/** An operator's draft of `file` edited by `edit` (an overlay's draft is its patch, as the studio saves it). */
async function draft(file: string, edit: (doc: Record<string, any>) => void, content?: string): Promise<number> {
  let text: string
  if (content === undefined) text = editedText(server, file, edit)
  else {
    const doc = JSON.parse(content)
    edit(doc)
    text = JSON.stringify(doc, null, 2)
  }
  const res = await operator.post('/admin/api/drafts', { file, content: text })
  expect(res.status, res.body).toBe(201)
  return res.json().payload.id as number
}

/** Every site × locale whose served answer at `path(locale)` shows the change (`shows`): the oracle of
 * where a change went live, asked of the sites themselves once it is published. */
async function wentLive(path: (locale: string) => string, shows: (body: any) => boolean): Promise<{ site: string; locales: string[] }[]> {
  const out = []
  for (const site of sites) {
    const locales = []
    for (const locale of site.locales) if (shows(JSON.parse(await served(site.id, path(locale))))) locales.push(locale)
    if (locales.length > 0) out.push({ site: site.id, locales })
  }
  return out
}

/** Submits, approves (a second person) and publishes a version; then `check`; then puts the seeded file back. */
async function publishThen(id: number, file: string, check: () => Promise<void>): Promise<void> {
  expect((await operator.post(`/admin/api/versions/${id}/submit`)).status).toBe(200)
  expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).status).toBe(200)
  expect((await operator.post(`/admin/api/versions/${id}/publish`)).status).toBe(200)
  try {
    await check()
  } finally {
    const history = (await operator.get(`/admin/api/document?file=${encodeURIComponent(file)}`)).json().payload.history as { id: number; origin: string }[]
    // a rollback is four-eyes: the operator asks, compliance approves
    const asked = await operator.post('/admin/api/rollback', { file, version: history.find((v) => v.origin === 'seed')!.id })
    expect(asked.status).toBe(202)
    expect((await compliance.post(`/admin/api/rollbacks/${asked.json().payload.id}/approve`)).status).toBe(200)
  }
}

const bySite = (reach: { sites: { site: string; locales: string[] }[] }) => reach.sites.map((s) => ({ site: s.site, locales: s.locales })).sort((a, b) => a.site.localeCompare(b.site))

describe('where a change goes live', () => {
  it('a Spain document reaches Spain in each of its locales and no other site, whatever host the reviewer is on; its previews are Spain’s', async () => {
    const id = await draft(SPAIN_SIGNUP, (d) => (d.steps[0].title = 'signup.step.personal'))
    const reach = (await compliance.get(`/admin/api/versions/${id}`)).json().payload.reach
    expect(reach.path).toBe('/join')

    // The reviewer is on localhost (Curaçao): the previews are still Spain's, and only Spain's.
    const made = await compliance.post(`/admin/api/versions/${id}/preview`)
    expect(made.status, made.body).toBe(200)
    const { previews } = made.json().payload
    expect(previews.map((p: { site: string; locales: string[] }) => ({ site: p.site, locales: p.locales }))).toEqual(bySite(reach))
    const cookie = cookiesOf(made)[0]
    const ask = (site: string, token: string) => rawRequest(server.port, { path: `/api/documents/flow/signup-email?preview=${token}`, headers: { 'x-parlay-target': site, cookie } })
    expect((await ask('spain', previews[0].after)).json().steps[0].title).toBe('signup.step.personal')
    expect((await ask('spain', previews[0].before)).json().steps[0].title).toBe('signup.step.account')
    expect((await ask('curacao', previews[0].after)).status).toBe(403)

    await publishThen(id, SPAIN_SIGNUP, async () => {
      const live = await wentLive((locale) => `/api/documents/flow/signup-email?locale=${locale}`, (flow) => flow.steps?.[0]?.title === 'signup.step.personal')
      expect(live).toEqual([{ site: 'spain', locales: ['es', 'en'] }])
      expect(bySite(reach)).toEqual(live)
    })
  })

  it('a shared document reaches every site, those with an overlay on it included (their resolved document changes)', async () => {
    const id = await draft('menus/left-menu.json', (d) => (d.items[0].icon = 'trophy'))
    const reach = (await compliance.get(`/admin/api/versions/${id}`)).json().payload.reach
    expect(reach.ownCopies).toEqual([]) // Belarus's menu is an overlay on the shared one, not a copy
    await publishThen(id, 'menus/left-menu.json', async () => {
      const live = await wentLive((locale) => `/api/documents/menu/left-menu?locale=${locale}`, (menu) => menu.items?.[0]?.icon === 'trophy')
      expect(live.map((l) => l.site)).toContain('belarus')
      expect(live.length).toBe(sites.length)
      expect(bySite(reach)).toEqual(live.sort((a, b) => a.site.localeCompare(b.site)))
    })
    // the left menu is on every page of every site: the gate of its submit, publish and rollback
    // renders them all (about 3 s each on a quiet 2-core machine), more than the default 20 s under load
  }, 90_000)

  it('a shared document reaches every site without its own copy, and names the sites that keep theirs', async () => {
    const id = await draft('screens/account-tsupis-identity.json', (d) => (d.body[2].testId = 'identity-waiting-now'))
    const reach = (await compliance.get(`/admin/api/versions/${id}`)).json().payload.reach
    expect(reach.ownCopies).toEqual([{ site: 'russia', name: 'Russia', file: 'jurisdictions/russia/screens/account-tsupis-identity.json' }])
    await publishThen(id, 'screens/account-tsupis-identity.json', async () => {
      const shows = (screen: any) => JSON.stringify(screen.body ?? []).includes('identity-waiting-now')
      const live = await wentLive((locale) => `/api/documents/screen/account-tsupis-identity?locale=${locale}`, shows)
      expect(live.map((l) => l.site)).not.toContain('russia')
      expect(live.length).toBe(sites.length - 1)
      expect(bySite(reach)).toEqual(live.sort((a, b) => a.site.localeCompare(b.site)))
    })
  })

  it('a texts document reaches the sites that have its locale, in that locale only', async () => {
    const id = await draft('i18n/es-signup.json', (d) => (d.resources['signup.field.email'] = 'Tu correo'))
    const reach = (await compliance.get(`/admin/api/versions/${id}`)).json().payload.reach
    expect(reach.path).toBe('/join') // signup.field.email labels the sign-up form
    await publishThen(id, 'i18n/es-signup.json', async () => {
      const live = await wentLive((locale) => `/api/i18n/${locale}`, (bundle) => bundle.resources?.['signup.field.email'] === 'Tu correo')
      expect(live).toEqual(sites.filter((s) => s.locales.includes('es')).map((s) => ({ site: s.id, locales: ['es'] })))
      expect(bySite(reach)).toEqual(live.sort((a, b) => a.site.localeCompare(b.site)))
    })
  })
})

describe('the punter’s words', () => {
  it('a field and a text key read as the texts of each locale the document reaches', async () => {
    const id = await draft(SPAIN_SIGNUP, (d) => {
      const account = d.steps[0]
      account.schema.required = account.schema.required.filter((f: string) => f !== 'countryId')
      account.title = 'signup.step.personal'
    })
    const findings = (await compliance.get(`/admin/api/versions/${id}`)).json().payload.diff.findings as { message: string; said: { locale: string; message: string }[] }[]
    const texts = async (locale: string) => (await rawRequest(server.port, { path: `/api/i18n/${locale}`, headers: { 'x-parlay-target': 'spain' } })).json().resources as Record<string, string>
    const [es, en] = [await texts('es'), await texts('en')]
    const required = findings.find((f) => f.message === 'Spain sign-up (email): field countryId no longer required')!
    expect(required.said).toEqual([
      { locale: 'es', message: `Spain sign-up (email): field “${es['signup.field.country']}” no longer required` },
      { locale: 'en', message: `Spain sign-up (email): field “${en['signup.field.country']}” no longer required` },
    ])
    const title = findings.find((f) => f.message.includes('signup.step.account'))!
    expect(title.said.find((s) => s.locale === 'es')!.message).toContain(`“${es['signup.step.account']}” → “${es['signup.step.personal']}”`)
    await operator.post(`/admin/api/versions/${id}/withdraw`)
  })

  it('a maxLength change is input validation, not identity and KYC', async () => {
    const id = await draft(SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 40))
    const [finding] = (await compliance.get(`/admin/api/versions/${id}`)).json().payload.diff.findings
    expect([finding.impact, finding.severity]).toEqual(['validation', 'note'])
    await operator.post(`/admin/api/versions/${id}/withdraw`)
  })
})

describe('previews of what pages build from documents', () => {
  it('a release’s new Spain copy of a texts document: the Spain preview shows its text, the published side and the other sites do not', async () => {
    const shared = (await operator.get('/admin/api/document?file=i18n%2Fes-signup.json')).json().payload.published.content
    const copy = 'jurisdictions/spain/i18n/es-signup.json'
    const id = await draft(copy, (d) => (d.resources['signup.field.email'] = 'Tu correo de siempre'), shared)
    const release = await operator.post('/admin/api/releases', { title: 'Spain e-mail label', versions: [id] })
    expect(release.status, release.body).toBe(201)
    const releaseId = release.json().payload.id
    const detail = (await compliance.get(`/admin/api/releases/${releaseId}`)).json().payload
    expect(detail.items[0].reach.sites).toEqual([{ site: 'spain', name: 'Spain', locales: ['es'] }])
    const made = await compliance.post(`/admin/api/releases/${releaseId}/preview`, {})
    expect(made.status, made.body).toBe(200)
    const [spain] = made.json().payload.previews
    expect(spain.site).toBe('spain')
    const cookie = cookiesOf(made).join('; ')
    const label = async (token: string, site = 'spain') => {
      const res = await rawRequest(server.port, { path: `/api/i18n/es?preview=${token}`, headers: { 'x-parlay-target': site, cookie } })
      return res.status === 200 ? res.json().resources['signup.field.email'] : res.status
    }
    expect(await label(spain.after)).toBe('Tu correo de siempre')
    expect(await label(spain.before)).toBe(JSON.parse(shared).resources['signup.field.email'])
    expect(await label(spain.after, 'curacao')).toBe(403)
    // Without the reviewer's cookie the token shows nothing; punters get the published texts.
    expect((await rawRequest(server.port, { path: `/api/i18n/es?preview=${spain.after}`, headers: { 'x-parlay-target': 'spain' } })).status).toBe(403)
    expect((await rawRequest(server.port, { path: '/api/i18n/es', headers: { 'x-parlay-target': 'spain' } })).json().resources['signup.field.email']).toBe(JSON.parse(shared).resources['signup.field.email'])
    await operator.post(`/admin/api/releases/${releaseId}/withdraw`)
  })

  it('a promotion’s draft shows in its preview page’s promotions API (the page’s preview header), to the admin who made it only', async () => {
    const file = 'promotions/casino-welcome-package.json'
    const content = (await operator.get(`/admin/api/document?file=${encodeURIComponent(file)}`)).json().payload.published.content
    const doc = JSON.parse(content)
    doc.texts.en.title = 'Casino welcome, doubled'
    const made = await operator.post('/admin/api/studio/preview', { file, content: JSON.stringify(doc), site: 'curacao' })
    expect(made.status, made.body).toBe(200)
    const token = made.json().payload.token
    const cookie = cookiesOf(made)[0]
    const card = async (headers: Record<string, string>) => {
      const res = await gate('GET', `/api/promotions/${doc.id}?locale=en`, { site: 'curacao', headers })
      return res.status === 200 ? (res.json as { payload: { title: string } }).payload.title : res.status
    }
    expect(await card({ 'x-parlay-preview': token, cookie })).toBe('Casino welcome, doubled')
    expect(await card({})).toBe('Casino welcome package')
    expect(await card({ 'x-parlay-preview': token })).toBe(403)
    expect(await card({ 'x-parlay-preview': 'bogus', cookie })).toBe(403)
  })

  it('a quiz’s draft shows to the demo punter a preview is made as', async () => {
    const file = 'quizzes/derby-winner.json'
    const content = (await operator.get(`/admin/api/document?file=${encodeURIComponent(file)}`)).json().payload.published.content
    const doc = JSON.parse(content)
    doc.question = 'quiz.cupFinal.question'
    const made = await operator.post('/admin/api/studio/preview', { file, content: JSON.stringify(doc), site: 'curacao', punter: '10000001' })
    expect(made.status, made.body).toBe(200)
    const token = made.json().payload.token
    const cookie = cookiesOf(made).join('; ')
    const session = (await rawRequest(server.port, { path: `/api/preview/session?preview=${token}`, headers: { cookie } })).json().payload.session
    const question = async (headers: Record<string, string>) =>
      ((await gate('GET', 'bonus/quiz/punter/active', { hash: session.sessionHash, site: 'curacao', headers: { authorization: `Bearer ${session.accessToken}`, ...headers } })).json as { payload: { id: string; questionText: string }[] }).payload.find((q) => q.id === doc.id)!.questionText
    const texts = (await rawRequest(server.port, { path: '/api/i18n/en' })).json().resources
    expect(await question({ 'x-parlay-preview': token, cookie })).toBe(texts['quiz.cupFinal.question'])
    expect(await question({})).toBe(texts['quiz.derby.question'])
  })
})

describe('a message being written, as its punter reads it', () => {
  const preview = (body: Record<string, unknown>) => operator.post('/admin/api/messages/preview', body)
  const stored = async () => (await server.deps.data.db.selectFrom('punter_messages').select('id').execute()).length

  it('an INBOX message shows first in the demo punter’s inbox, in the page’s language, counted; nothing is stored or sent', async () => {
    const before = await stored()
    const made = await preview({ punter: '20000001', kind: 'INBOX', texts: { es: 'Hola Madrid', en: 'Hello Madrid' } })
    expect(made.status, made.body).toBe(200)
    expect(made.json().payload).toMatchObject({ site: 'spain', path: '/account/messages', locale: 'es' })
    const token = made.json().payload.token
    const cookie = cookiesOf(made).join('; ')
    const session = (await rawRequest(server.port, { path: `/api/preview/session?preview=${token}`, headers: { cookie } })).json().payload.session
    const inbox = async (headers: Record<string, string>, locale: string) =>
      (await gate('GET', 'punter/message/inbox-page', { hash: session.sessionHash, site: 'spain', headers: { authorization: `Bearer ${session.accessToken}`, 'accept-language': locale, ...headers } })).json as { payload: { content: { localizedMessage: string }[]; totalMessagesCount: number } }
    const plain = await inbox({}, 'es')
    const shown = await inbox({ 'x-parlay-preview': token, cookie }, 'es')
    expect(shown.payload.content[0].localizedMessage).toBe('Hola Madrid')
    expect(shown.payload.content.slice(1)).toEqual(plain.payload.content)
    expect(shown.payload.totalMessagesCount).toBe(plain.payload.totalMessagesCount + 1)
    expect((await inbox({ 'x-parlay-preview': token, cookie }, 'en')).payload.content[0].localizedMessage).toBe('Hello Madrid')
    expect((await gate('GET', 'punter/message/inbox-page', { hash: session.sessionHash, site: 'spain', headers: { authorization: `Bearer ${session.accessToken}`, 'x-parlay-preview': token } })).status).toBe(403)
    expect(await stored()).toBe(before)
    const audit = (await compliance.get('/admin/api/audit?limit=5')).json().payload as { action: string; details: { punter: string } }[]
    expect(audit.find((e) => e.action === 'messages.preview-as-punter')?.details.punter).toBe('20000001')
  })

  it('an EXTERNAL message shows among the page’s notifications of its source only; an unknown punter is a 400', async () => {
    const made = await preview({ punter: '10000001', kind: 'EXTERNAL', source: 'club', texts: { en: 'Club night' } })
    const token = made.json().payload.token
    const cookie = cookiesOf(made).join('; ')
    const session = (await rawRequest(server.port, { path: `/api/preview/session?preview=${token}`, headers: { cookie } })).json().payload.session
    const active = async (type: string) => ((await gate('GET', `punter/message/active?messageType=${type}`, { hash: session.sessionHash, site: 'curacao', headers: { authorization: `Bearer ${session.accessToken}`, 'x-parlay-preview': token, cookie } })).json as { payload: { localizedMessage: string }[] }).payload.map((m) => m.localizedMessage)
    expect(await active('club')).toContain('Club night')
    expect(await active('WEB')).not.toContain('Club night')
    expect((await preview({ punter: '99999999', kind: 'INBOX', texts: { en: 'x' } })).status).toBe(400)
    expect((await preview({ punter: '10000001', kind: 'INBOX', texts: { xx: 'x' } })).status).toBe(400)
  })
})
