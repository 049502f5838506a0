import { beforeEach, describe, expect, it, vi } from 'vitest'
import { copyChanged, createDocumentClient, documentKey, documentUrl } from '../../../engine/core/documents'
import { memoryStorage, response, type FakeResponse } from './helpers'

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

/** A fake server: answers by URL from a queue (or a function), records requests. */
function fakeServer(routes: Record<string, (init: RequestInit | undefined) => FakeResponse | Error>) {
  const requests: { url: string; headers: Record<string, string> }[] = []
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    requests.push({ url, headers: (init?.headers ?? {}) as Record<string, string> })
    const path = url.split('?')[0]
    const route = routes[path]
    if (!route) return response({ status: 404, body: { status: 'ERROR', errorCode: 'NOT_FOUND' } })
    const answer = route(init)
    if (answer instanceof Error) throw answer
    return response(answer)
  })
  return { fetch, requests }
}

const LOBBY = '/api/documents/screen/casino-lobby'
const lobby = (title: string) => ({ kind: 'screen', id: 'casino-lobby', route: '/casino/lobby', title, body: [] })

describe('document client: the last good copy (a failed fetch never blanks the screen)', () => {
  it('loads a document with the locale and remembers its ETag', async () => {
    const server = fakeServer({ [LOBBY]: () => ({ status: 200, body: lobby('A'), etag: '"h1"' }) })
    const client = createDocumentClient({ fetch: server.fetch, locale: () => 'ru' })
    const result = await client.load('screen', 'casino-lobby')
    expect(result).toEqual({ ok: true, value: { document: lobby('A'), stale: false, etag: '"h1"' } })
    expect(server.requests[0].url).toBe('/api/documents/screen/casino-lobby?locale=ru')
  })

  it.each([
    ['a network error', () => new TypeError('Failed to fetch')],
    ['a 5xx answer', () => ({ status: 503, body: { status: 'ERROR' } })],
    ['invalid JSON', () => ({ status: 200, raw: '{"kind": "scr' })],
  ])('after %s it returns the last good copy marked stale', async (_name, failure) => {
    let fail = false
    const server = fakeServer({ [LOBBY]: () => (fail ? failure() : { status: 200, body: lobby('A'), etag: '"h1"' }) })
    const client = createDocumentClient({ fetch: server.fetch })
    await client.load('screen', 'casino-lobby')
    fail = true
    expect(await client.load('screen', 'casino-lobby')).toEqual({ ok: true, value: { document: lobby('A'), stale: true, etag: '"h1"' } })
  })

  it('the last good copy survives a reload through storage', async () => {
    const storage = memoryStorage()
    const first = createDocumentClient({ fetch: fakeServer({ [LOBBY]: () => ({ status: 200, body: lobby('A'), etag: '"h1"' }) }).fetch, storage })
    await first.load('screen', 'casino-lobby')
    const offline = createDocumentClient({ fetch: fakeServer({ [LOBBY]: () => new TypeError('offline') }).fetch, storage })
    expect(offline.peek('screen', 'casino-lobby')?.document).toEqual(lobby('A'))
    expect(await offline.load('screen', 'casino-lobby')).toMatchObject({ ok: true, value: { stale: true, document: lobby('A') } })
  })

  it('offline, a page asked without its locale in the path still gets the site kept under another locale (issue 31: the offline page in the site\'s language)', async () => {
    const storage = memoryStorage()
    const site = { site: { id: 'spain', defaultLocale: 'es', locales: ['es', 'en'] }, documentsVersion: 'v1' }
    const online = createDocumentClient({ fetch: fakeServer({ '/api/site': () => ({ status: 200, body: site, etag: '"s1"' }) }).fetch, storage, locale: () => 'es' })
    await online.loadSite()
    const offline = createDocumentClient({ fetch: fakeServer({ '/api/site': () => new TypeError('offline') }).fetch, storage, locale: () => '' })
    expect(await offline.loadSite()).toEqual({ ok: true, value: { document: site, stale: true, etag: '"s1"' } })
    const never = createDocumentClient({ fetch: fakeServer({ '/api/site': () => new TypeError('offline') }).fetch, storage: memoryStorage(), locale: () => '' })
    expect(await never.loadSite()).toEqual({ ok: false, code: 'NETWORK_ERROR' })
  })

  it('a failure with no copy at all is an error result, not a throw', async () => {
    const client = createDocumentClient({ fetch: fakeServer({ [LOBBY]: () => new TypeError('offline') }).fetch })
    expect(await client.load('screen', 'casino-lobby')).toEqual({ ok: false, code: 'NETWORK_ERROR' })
  })

  it('sends If-None-Match and serves the cached copy on 304', async () => {
    const server = fakeServer({
      [LOBBY]: (init) => ((init?.headers as Record<string, string>)['if-none-match'] === '"h1"' ? { status: 304 } : { status: 200, body: lobby('A'), etag: '"h1"' }),
    })
    const client = createDocumentClient({ fetch: server.fetch })
    await client.load('screen', 'casino-lobby')
    const second = await client.load('screen', 'casino-lobby')
    expect(server.requests[1].headers['if-none-match']).toBe('"h1"')
    expect(second).toEqual({ ok: true, value: { document: lobby('A'), stale: false, etag: '"h1"' } })
  })

  it('404 is NOT_FOUND', async () => {
    const client = createDocumentClient({ fetch: fakeServer({}).fetch })
    expect(await client.load('popup', 'nope')).toEqual({ ok: false, code: 'NOT_FOUND' })
  })

  it('loads the site bootstrap and a locale’s translations', async () => {
    const server = fakeServer({
      '/api/site': () => ({ status: 200, body: { site: { id: 'russia' }, documentsVersion: 'v1' }, etag: '"s"' }),
      '/api/i18n/ru': () => ({ status: 200, body: { kind: 'translations', id: 'ru', resources: { a: 'б' } } }),
    })
    const client = createDocumentClient({ fetch: server.fetch })
    expect(await client.loadSite()).toMatchObject({ ok: true, value: { document: { documentsVersion: 'v1' } } })
    expect(client.version()).toBe('v1')
    expect(await client.loadTranslations('ru')).toMatchObject({ ok: true, value: { document: { resources: { a: 'б' } } } })
  })
})

describe('document client: version watching (changes show without a reload)', () => {
  function setup() {
    let version = 'v1'
    let title = 'A'
    const server = fakeServer({
      '/api/site/version': () => ({ status: 200, body: { documentsVersion: version }, etag: `"${version}"` }),
      [LOBBY]: () => ({ status: 200, body: lobby(title), etag: `"${title}"` }),
    })
    const onChange = vi.fn()
    const timers: (() => void)[] = []
    let visible: (() => void) | undefined
    const client = createDocumentClient({
      fetch: server.fetch,
      onChange,
      setInterval: (fn) => timers.push(fn),
      clearInterval: () => (timers.length = 0),
      onVisible: (fn) => {
        visible = fn
        return () => (visible = undefined)
      },
    })
    return {
      client,
      server,
      onChange,
      tick: () => timers.forEach((fn) => fn()),
      becomeVisible: () => visible?.(),
      publish: (v: string, t: string) => {
        version = v
        title = t
      },
    }
  }

  it('a new documents version revalidates loaded documents and emits onChange(kind, id)', async () => {
    const s = setup()
    await s.client.load('screen', 'casino-lobby')
    expect(await s.client.checkVersion()).toBe(false) // first sight: just remembered
    s.publish('v2', 'B')
    expect(await s.client.checkVersion()).toBe(true)
    expect(s.onChange).toHaveBeenCalledWith('screen', 'casino-lobby')
    expect(s.client.peek('screen', 'casino-lobby')?.document).toEqual(lobby('B'))
  })

  it('an unchanged version does not refetch documents', async () => {
    const s = setup()
    await s.client.load('screen', 'casino-lobby')
    await s.client.checkVersion()
    await s.client.checkVersion()
    expect(s.server.requests.filter((r) => r.url.startsWith(LOBBY))).toHaveLength(1)
    expect(s.onChange).not.toHaveBeenCalled()
  })

  it('polls every 10 s and when the page becomes visible; stop ends both', async () => {
    const s = setup()
    const stop = s.client.watchVersion()
    s.tick()
    await s.client.checkVersion() // joins the poll in flight (concurrent checks coalesce)
    expect(s.server.requests.filter((r) => r.url === '/api/site/version')).toHaveLength(1)
    s.becomeVisible()
    await s.client.checkVersion()
    expect(s.server.requests.filter((r) => r.url === '/api/site/version')).toHaveLength(2)
    stop()
    s.tick()
    s.becomeVisible()
    expect(s.server.requests.filter((r) => r.url === '/api/site/version')).toHaveLength(2)
  })

  it('uses the 10 s interval by default', () => {
    const every = vi.fn()
    const client = createDocumentClient({ fetch: vi.fn(), setInterval: every, clearInterval: vi.fn(), onVisible: () => () => {} })
    client.watchVersion()
    expect(every).toHaveBeenCalledWith(expect.any(Function), 10_000)
  })
})

describe('document client: admin previews never reach the punter cache', () => {
  it('a preview token is sent with each document request and its copies are not stored', async () => {
    const server = fakeServer({ [LOBBY]: () => ({ status: 200, body: lobby('Draft'), etag: '"d1"' }) })
    const storage = memoryStorage()
    const client = createDocumentClient({ fetch: server.fetch, storage, locale: () => 'en', preview: () => 'tok_123456789012345' })
    const result = await client.load('screen', 'casino-lobby')
    expect(result.ok).toBe(true)
    expect(server.requests[0].url).toBe('/api/documents/screen/casino-lobby?locale=en&preview=tok_123456789012345')
    const punter = createDocumentClient({ fetch: vi.fn(async () => { throw new TypeError('offline') }), storage, locale: () => 'en' })
    expect((await punter.load('screen', 'casino-lobby')).ok).toBe(false)
  })
})

describe('document keys and URLs: a preview is kept apart from the punters\' copies', () => {
  it('a preview\'s key starts with preview: and its token, so it never meets a punter\'s copy (nor is stored)', () => {
    expect(documentKey('screen', 'casino-lobby', 'en')).toBe('screen/casino-lobby/en')
    expect(documentKey('screen', 'casino-lobby', 'en', 'tok')).toBe('preview:tok/screen/casino-lobby/en')
    expect(documentKey('screen', 'casino-lobby', 'en', null)).toBe(documentKey('screen', 'casino-lobby', 'en'))
  })

  it('the URL names kind, id and locale, encoded, and carries the preview token only for a preview', () => {
    expect(documentUrl('screen', 'a b/c', 'pt-BR')).toBe('/api/documents/screen/a%20b%2Fc?locale=pt-BR')
    expect(documentUrl('screen', 'lobby', 'en', 'to&ken')).toBe('/api/documents/screen/lobby?locale=en&preview=to%26ken')
  })
})

describe('a revalidated document changed when its ETag did', () => {
  it('a first load never counts as a change; a held copy changed when the ETag differs or was never known', () => {
    expect(copyChanged(undefined, '"a"')).toBe(false)
    expect(copyChanged({ etag: '"a"' }, '"a"')).toBe(false)
    expect(copyChanged({ etag: '"a"' }, '"b"')).toBe(true)
    expect(copyChanged({ etag: '"a"' }, null)).toBe(true)
    expect(copyChanged({ etag: null }, null)).toBe(true)
  })
})
