/**
 * Messages over HTTP (spec §3 "Messages", §7, issue 15 items 1 and 5): the inbox counts and pages
 * (20 a page), mark-read per source kept on the server, active messages per source, strict input,
 * the heartbeat's counts, and operators' messages: to one punter at once, a mass send only after a
 * second admin approves (never the author), everything in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, apiCaller, type Call } from '../../support/api'
import { punterEvents } from '../../../server/punters/events'
import { COMPLIANCE, OPERATOR, signIn, type AdminClient } from '../admin/support'
import { startTestServer, type TestServer } from '../../support/server'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
const freshIp = addresses(15)

beforeAll(async () => {
  server = await startTestServer({ now: () => Date.UTC(2026, 0, 15, 12, 0), development: true })
  operator = await signIn(server, OPERATOR)
  compliance = await signIn(server, COMPLIANCE)
})
afterAll(async () => server?.dispose())

/** The gateway for bare paths, a fresh client address per call (tests/support/api.ts). */
const call: Call = (method, path, options) => apiCaller(server.url, freshIp)(method, path, options)

async function login(login: string, target?: string): Promise<string> {
  const res = await call('POST', 'auth/v2/login', { body: { login, password: 'parlay-demo-1' }, headers: target ? { 'x-parlay-target': target } : {} })
  if (res.status !== 200) throw new Error(`login ${login}: ${res.status}`)
  return res.json.payload.punterHash
}

describe('the inbox', () => {
  it('inbox-statistics counts the demo punter\'s 23 messages, 3 unread; the heartbeat carries the same counts', async () => {
    const hash = await login('opened@demo.parlay.test')
    const stats = await call('GET', 'punter/message/inbox-statistics', { hash })
    expect(stats.json).toEqual({ status: 'OK', payload: { totalMessagesCount: 23, unreadMessagesCount: 3 } })
    expect((await call('GET', 'heartbeat', { hash })).json.payload.inboxStatistics).toEqual({ totalMessagesCount: 23, unreadMessagesCount: 3 })
  })

  it('pages hold 20 messages by default, newest first; the second page holds the rest; the text is in the site\'s locale', async () => {
    const hash = await login('opened@demo.parlay.test')
    const first = (await call('GET', 'punter/message/inbox-page?pageNumber=0', { hash })).json.payload
    expect(first.content).toHaveLength(20)
    expect(first.pageData).toMatchObject({ pageNumber: 0, pageSize: 20, totalPages: 2, totalElements: 23, hasNext: true })
    expect(first.totalMessagesCount).toBe(23)
    expect(first.content[0]).toMatchObject({ source: 'web', kind: 'INBOX', read: false, localizedMessage: expect.stringContaining('#23') })
    const second = (await call('GET', 'punter/message/inbox-page?pageNumber=1&pageSize=20', { hash })).json.payload
    expect(second.content.map((m: { localizedMessage: string }) => m.localizedMessage.match(/#(\d+)/)![1])).toEqual(['3', '2', '1'])
    expect(second.pageData.hasNext).toBe(false)
    const beyond = (await call('GET', 'punter/message/inbox-page?pageNumber=5', { hash })).json.payload
    expect(beyond.content).toEqual([])
    const ru = (await call('GET', 'punter/message/inbox-page?pageSize=1', { hash, headers: { 'accept-language': 'ru' } })).json.payload
    expect(ru.content).toHaveLength(1)
    expect(ru.content[0].localizedMessage).toMatch(/^Новости недели №23/)
  })

  it('mark-read/web marks the punter\'s messages read on the server: the unread count falls and stays fallen on a new session', async () => {
    const hash = await login('opened@demo.parlay.test')
    const unread = (await call('GET', 'punter/message/inbox-page', { hash })).json.payload.content.filter((m: { read: boolean }) => !m.read)
    expect(unread.length).toBeGreaterThan(0)
    const marked = await call('PUT', 'punter/message/mark-read/web', { hash, body: { ids: [unread[0].punterMessageId] } })
    expect(marked.json.payload).toMatchObject({ marked: 1, unreadMessagesCount: unread.length - 1 })
    const again = await call('PUT', 'punter/message/mark-read/web', { hash, body: { ids: [unread[0].punterMessageId] } })
    expect(again.json.payload.marked).toBe(0)
    const other = await login('opened@demo.parlay.test')
    expect((await call('GET', 'punter/message/inbox-statistics', { hash: other })).json.payload.unreadMessagesCount).toBe(unread.length - 1)
  })

  it('another punter\'s message ids and the wrong source change nothing', async () => {
    const owner = await login('opened@demo.parlay.test')
    const [message] = (await call('GET', 'punter/message/inbox-page?pageSize=1', { hash: owner })).json.payload.content
    const stranger = await login('vip@demo.parlay.test')
    expect((await call('PUT', 'punter/message/mark-read/web', { hash: stranger, body: { ids: [message.punterMessageId] } })).json.payload.marked).toBe(0)
    expect((await call('PUT', 'punter/message/mark-read/club', { hash: owner, body: { ids: [message.punterMessageId] } })).json.payload.marked).toBe(0)
  })
})

describe('bad input gets a clear 4xx', () => {
  it.each([
    ['GET', 'punter/message/inbox-page?pageNumber=-1'],
    ['GET', 'punter/message/inbox-page?pageSize=0'],
    ['GET', 'punter/message/inbox-page?pageSize=51'],
    ['GET', 'punter/message/inbox-page?pageNumber=abc'],
    ['GET', 'punter/message/inbox-page?sort=date'],
    ['GET', 'punter/message/active'],
    ['GET', 'punter/message/active?messageType=global'],
  ])('%s %s is a 400 ValidationError', async (method, path) => {
    const hash = await login('opened@demo.parlay.test')
    const res = await call(method, path, { hash })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError' })
  })

  it.each([
    ['unknown source', 'punter/message/mark-read/email', { ids: [1] }],
    ['no ids', 'punter/message/mark-read/web', { ids: [] }],
    ['ids not integers', 'punter/message/mark-read/web', { ids: ['1'] }],
    ['an extra field', 'punter/message/mark-read/web', { ids: [1], all: true }],
  ])('mark-read with %s is a 400', async (_what, path, body) => {
    const hash = await login('opened@demo.parlay.test')
    const res = await call('PUT', path, { hash, body })
    expect(res.status).toBe(400)
    expect(res.json.status).toBe('ERROR')
  })

  it('malformed JSON is a 400 MALFORMED_JSON and a guest is a 401 on every call', async () => {
    const hash = await login('opened@demo.parlay.test')
    expect((await call('PUT', 'punter/message/mark-read/web', { hash, raw: '{"ids":[1', headers: { 'content-type': 'application/json' } })).json.errorCode).toBe('MALFORMED_JSON')
    for (const path of ['punter/message/inbox-statistics', 'punter/message/inbox-page', 'punter/message/active?messageType=WEB', 'punter/message/active-global'])
      expect((await call('GET', path)).status, path).toBe(401)
    expect((await call('PUT', 'punter/message/mark-read/web', { body: { ids: [1] } })).status).toBe(401)
  })
})

describe('operators write messages', () => {
  it('a message to one punter is delivered at once, reaches the punter\'s socket listeners, shows as active (WEB) until marked read', async () => {
    const events: Record<string, any>[] = []
    const listen = (event: Record<string, any>) => events.push(event)
    punterEvents.on('punterMessage', listen)
    try {
      const sent = await operator.post('/admin/api/messages', { audience: { type: 'punter', accountNumber: '10000012' }, kind: 'EXTERNAL', texts: { en: 'Your free bet is ready', es: 'Tu apuesta gratis está lista' } })
      expect(sent.status).toBe(201)
      expect(sent.json().payload).toMatchObject({ status: 'DELIVERED', recipients: 1, source: 'web', author: OPERATOR.email })
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ message: { kind: 'EXTERNAL', localizedMessage: 'Your free bet is ready' } })
      const hash = await login('domain@demo.parlay.test')
      const active = (await call('GET', 'punter/message/active?messageType=WEB', { hash })).json.payload
      expect(active.map((m: { localizedMessage: string }) => m.localizedMessage)).toEqual(['Your free bet is ready'])
      expect((await call('GET', 'punter/message/active?messageType=club', { hash })).json.payload).toEqual([])
      await call('PUT', 'punter/message/mark-read/web', { hash, body: { ids: [active[0].punterMessageId] } })
      expect((await call('GET', 'punter/message/active?messageType=WEB', { hash })).json.payload).toEqual([])
    } finally {
      punterEvents.off('punterMessage', listen)
    }
  })

  it('a mass message waits for approval, the author cannot approve it, a second admin\'s approval delivers it to the segment only', async () => {
    const written = await operator.post('/admin/api/messages', { audience: { type: 'segment', jurisdiction: 'spain' }, kind: 'INBOX', texts: { en: 'Spain: new LaLiga markets', es: 'España: nuevos mercados de LaLiga' } })
    expect(written.status).toBe(202)
    const id = written.json().payload.id
    expect(written.json().payload).toMatchObject({ status: 'PENDING_APPROVAL', recipients: 0 })
    const madrid = await login('spain@demo.parlay.test', 'spain')
    const before = (await call('GET', 'punter/message/inbox-statistics', { hash: madrid })).json.payload.totalMessagesCount
    const self = await operator.post(`/admin/api/messages/${id}/approve`)
    expect(self.status).toBe(403)
    expect(self.json().errorCode).toBe('SELF_APPROVAL')
    expect((await call('GET', 'punter/message/inbox-statistics', { hash: madrid })).json.payload.totalMessagesCount).toBe(before)
    const approved = await compliance.post(`/admin/api/messages/${id}/approve`)
    expect(approved.status).toBe(200)
    expect(approved.json().payload).toMatchObject({ status: 'DELIVERED', approver: COMPLIANCE.email, recipients: 2 })
    const page = (await call('GET', 'punter/message/inbox-page', { hash: madrid, headers: { 'x-parlay-target': 'spain' } })).json.payload
    expect(page.content[0].localizedMessage).toBe('España: nuevos mercados de LaLiga')
    const curacao = await login('zero@demo.parlay.test')
    expect((await call('GET', 'punter/message/inbox-statistics', { hash: curacao })).json.payload.totalMessagesCount).toBe(0)
    expect((await compliance.post(`/admin/api/messages/${id}/approve`)).status).toBe(409)
  })

  it('a message to everyone is global, shows in active-global once approved; a rejected one is never delivered', async () => {
    const rejected = (await operator.post('/admin/api/messages', { audience: { type: 'everyone' }, kind: 'EXTERNAL', texts: { en: 'Wrong text' } })).json().payload
    expect((await compliance.post(`/admin/api/messages/${rejected.id}/reject`, { comment: 'typo' })).json().payload).toMatchObject({ status: 'REJECTED', decisionComment: 'typo' })
    expect((await operator.post(`/admin/api/messages/${rejected.id}/approve`)).status).toBe(409)
    const everyone = (await compliance.post('/admin/api/messages', { audience: { type: 'everyone' }, kind: 'EXTERNAL', texts: { en: 'Maintenance tonight 02:00–03:00' } })).json().payload
    expect(everyone).toMatchObject({ source: 'global', status: 'PENDING_APPROVAL' })
    expect((await operator.post(`/admin/api/messages/${everyone.id}/approve`)).json().payload.status).toBe('DELIVERED')
    const hash = await login('japan@demo.parlay.test')
    const global = (await call('GET', 'punter/message/active-global', { hash })).json.payload
    expect(global.map((m: { localizedMessage: string }) => m.localizedMessage)).toEqual(['Maintenance tonight 02:00–03:00'])
  })

  it('every write, approval, refused self-approval and rejection is in the audit log', async () => {
    const actions = (await operator.get('/admin/api/audit?limit=200')).json().payload.map((e: { action: string }) => e.action)
    for (const action of ['message.written', 'message.delivered', 'message.self-approval-refused', 'message.rejected']) expect(actions).toContain(action)
    expect((await operator.get('/admin/api/audit/verify')).json().payload).toMatchObject({ ok: true })
  })

  it.each([
    ['a segment without a criterion', { audience: { type: 'segment' }, kind: 'INBOX', texts: { en: 'x' } }, 400],
    ['a punter without an account number', { audience: { type: 'punter' }, kind: 'INBOX', texts: { en: 'x' } }, 400],
    ['an unknown account number', { audience: { type: 'punter', accountNumber: '99999999' }, kind: 'INBOX', texts: { en: 'x' } }, 404],
    ['an unknown locale', { audience: { type: 'everyone' }, kind: 'INBOX', texts: { fr: 'x' } }, 400],
    ['no text', { audience: { type: 'everyone' }, kind: 'INBOX', texts: {} }, 400],
    ['an unknown kind', { audience: { type: 'everyone' }, kind: 'SMS', texts: { en: 'x' } }, 400],
    ['a javascript: icon', { audience: { type: 'everyone' }, kind: 'INBOX', texts: { en: 'x' }, iconUrl: 'javascript:alert(1)' }, 400],
  ])('writing a message with %s is refused', async (_what, body, status) => {
    const res = await operator.post('/admin/api/messages', body)
    expect(res.status).toBe(status)
    expect(res.json().status).toBe('ERROR')
  })

  it('without an admin session the messages API is a 401; approving an unknown message is a 404', async () => {
    expect((await call('GET', '/admin/api/messages')).status).toBe(401)
    expect((await compliance.post('/admin/api/messages/999999/approve')).status).toBe(404)
    expect((await compliance.post('/admin/api/messages/abc/approve')).status).toBe(404)
  })
})
