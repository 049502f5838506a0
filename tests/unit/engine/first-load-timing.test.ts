/**
 * First load (issue 10), the parts that are timing decisions of the framework-free core: stored
 * last-good copies are written when the page's scheduler says (the browser: once idle), never in
 * the middle of the first render; texts are looked up only when asked, with i18next's resource
 * format (plural suffixes, key_zero) kept.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createDocumentClient, LARGE_COPY_CHARS } from '../../../engine/core/documents'
import { createI18n } from '../../../engine/core/i18n'
import { estimatedFormHeight } from '../../../engine/renderers/nodes/FormPlaceholder'
import type { FlowDocument } from '../../../kernel/documents/types'
import { memoryStorage, response } from './helpers'

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

const LOBBY = (title: string) => ({ kind: 'screen', id: 'casino-lobby', route: '/casino/lobby', title, body: [] })
const serving = (title: string) => vi.fn(async () => response({ status: 200, body: LOBBY(title), etag: `"${title}"` }))

describe('stored last-good copies are written when the page is idle, not during the first render', () => {
  it('a load answers at once from memory; storage is written only when the scheduled write runs', async () => {
    const storage = memoryStorage()
    const scheduled: Array<() => void> = []
    const client = createDocumentClient({ fetch: serving('A'), storage, persist: (write) => scheduled.push(write) })
    expect(await client.load('screen', 'casino-lobby')).toMatchObject({ ok: true, value: { document: LOBBY('A') } })
    expect(client.peek('screen', 'casino-lobby')?.document).toEqual(LOBBY('A'))
    expect(storage.data.size).toBe(0)
    expect(scheduled).toHaveLength(1)
    scheduled[0]()
    expect([...storage.data.keys()]).toEqual(['parlay.doc:screen/casino-lobby/en'])
  })

  it('several loads before the write share one scheduled write, and the newest copy is the one stored', async () => {
    const storage = memoryStorage()
    const scheduled: Array<() => void> = []
    let title = 'A'
    const client = createDocumentClient({ fetch: vi.fn(async () => response({ status: 200, body: LOBBY(title), etag: `"${title}"` })), storage, persist: (write) => scheduled.push(write) })
    await client.load('screen', 'casino-lobby')
    title = 'B'
    await client.load('screen', 'casino-lobby')
    await client.load('menu', 'left-menu')
    expect(scheduled).toHaveLength(1)
    scheduled[0]()
    expect(JSON.parse(storage.data.get('parlay.doc:screen/casino-lobby/en') ?? '{}').document.title).toBe('B')
    expect(storage.data.has('parlay.doc:menu/left-menu/en')).toBe(true)
  })

  it('a copy written late still survives a reload: the next page shows it offline', async () => {
    const storage = memoryStorage()
    let write = () => {}
    const first = createDocumentClient({ fetch: serving('A'), storage, persist: (next) => (write = next) })
    await first.load('screen', 'casino-lobby')
    write()
    const offline = createDocumentClient({ fetch: vi.fn(async () => Promise.reject(new TypeError('offline'))), storage })
    expect(await offline.load('screen', 'casino-lobby')).toMatchObject({ ok: true, value: { stale: true, document: LOBBY('A') } })
  })
})

describe('stored copies cost the page as little as they can (issue 10: long tasks after the first paint)', () => {
  it('an unchanged copy (same URL and ETag) is not written again on the next page load', async () => {
    const storage = memoryStorage()
    const first = createDocumentClient({ fetch: serving('A'), storage })
    await first.load('screen', 'casino-lobby')
    const stored = storage.data.get('parlay.doc:screen/casino-lobby/en')
    const writes = vi.spyOn(storage, 'setItem')
    const second = createDocumentClient({ fetch: serving('A'), storage })
    await second.load('screen', 'casino-lobby')
    expect(writes).not.toHaveBeenCalled()
    expect(storage.data.get('parlay.doc:screen/casino-lobby/en')).toBe(stored)
    const third = createDocumentClient({ fetch: serving('B'), storage })
    await third.load('screen', 'casino-lobby')
    expect(JSON.parse(storage.data.get('parlay.doc:screen/casino-lobby/en') ?? '{}').document.title).toBe('B')
  })

  it('a write told to yield stores one copy and hands the rest back to the scheduler', async () => {
    const storage = memoryStorage()
    const scheduled: Array<(shouldYield?: () => boolean) => void> = []
    const client = createDocumentClient({ fetch: serving('A'), storage, persist: (write) => scheduled.push(write) })
    await client.load('screen', 'casino-lobby')
    await client.load('menu', 'left-menu')
    await client.load('footer', 'footer')
    scheduled[0](() => true)
    expect(storage.data.size).toBe(1)
    expect(scheduled).toHaveLength(2)
    scheduled[1]()
    expect([...storage.data.keys()].sort()).toEqual(['parlay.doc:footer/footer/en', 'parlay.doc:menu/left-menu/en', 'parlay.doc:screen/casino-lobby/en'])
  })

  it('a large copy (the translations bundle) is never written in an idle slice: the unhurried write when the page is hidden or left stores it', async () => {
    const storage = memoryStorage()
    const scheduled: Array<(shouldYield?: () => boolean) => void> = []
    const bundle = { kind: 'translations', id: 'en', locale: 'en', resources: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`key.${i}`, `Text number ${i}`])) }
    const fetch = vi.fn(async (url: string) => response({ status: 200, body: url.startsWith('/api/i18n/') ? bundle : LOBBY('A'), etag: '"1"' }))
    const client = createDocumentClient({ fetch, storage, persist: (write) => scheduled.push(write) })
    await client.loadTranslations('en')
    await client.load('screen', 'casino-lobby')
    scheduled[0](() => false)
    expect([...storage.data.keys()]).toEqual(['parlay.doc:screen/casino-lobby/en'])
    expect(JSON.stringify(bundle).length).toBeGreaterThanOrEqual(LARGE_COPY_CHARS)
    // the page is hidden: the same write without a deadline
    scheduled[0]()
    expect([...storage.data.keys()].sort()).toEqual(['parlay.doc:screen/casino-lobby/en', 'parlay.doc:translations/en/en'])
    expect(JSON.parse(storage.data.get('parlay.doc:translations/en/en') ?? '{}').document).toEqual(bundle)
  })

  it('a document the page carries is answered without reading its stored copy first', async () => {
    const storage = memoryStorage({ 'parlay.doc:screen/casino-lobby/en': JSON.stringify({ url: '/api/documents/screen/casino-lobby?locale=en', kind: 'screen', id: 'casino-lobby', etag: '"old"', document: LOBBY('old') }) })
    const reads = vi.spyOn(storage, 'getItem')
    const fetch = serving('A')
    const client = createDocumentClient({ fetch, storage, persist: () => {}, carried: (url) => url.startsWith('/api/documents/screen/') })
    expect(await client.load('screen', 'casino-lobby')).toMatchObject({ ok: true, value: { document: LOBBY('A'), stale: false } })
    expect(reads).not.toHaveBeenCalled()
    // no If-None-Match from a copy it did not read: the carried answer is a full one
    expect(fetch.mock.calls[0]).toEqual(['/api/documents/screen/casino-lobby?locale=en', expect.objectContaining({ headers: expect.not.objectContaining({ 'if-none-match': expect.anything() }) })])
  })
})

describe('texts keep the i18next resource format without i18next', () => {
  it('key_zero is used for 0 when the locale has it; otherwise the plural form of Intl.PluralRules', () => {
    const withZero = createI18n({ locale: 'en', resources: { bets_zero: 'No bets', bets_one: '{{count}} bet', bets_other: '{{count}} bets' } })
    const withoutZero = createI18n({ locale: 'en', resources: { bets_one: '{{count}} bet', bets_other: '{{count}} bets' } })
    expect([0, 1, 3].map((count) => withZero.t('bets', { count }))).toEqual(['No bets', '1 bet', '3 bets'])
    expect(withoutZero.t('bets', { count: 0 })).toBe('0 bets')
  })

  it('a plural key the locale lacks falls back to the bare key; an empty text counts as missing', () => {
    const i18n = createI18n({ locale: 'en', resources: { hello: 'Hello, {{ name }}', empty: '' }, fallbacks: {} })
    expect(i18n.t('hello', { count: 2, name: 'Ana' })).toBe('Hello, Ana')
    expect(i18n.t('empty')).toBe('')
    expect(i18n.has('empty')).toBe(false)
  })

  it('placeholders take dotted paths and never run the text as code', () => {
    const i18n = createI18n({ locale: 'en', resources: { greet: 'Hi {{user.name}}, {{constructor}}' } })
    expect(i18n.t('greet', { user: { name: 'Ana' } })).toBe('Hi Ana, ')
  })
})

describe("a form's placeholder is as tall as its first step, so what follows it does not jump", () => {
  const flow = (properties: Record<string, object>, uiSchema: Record<string, object> = {}) =>
    ({ kind: 'flow', id: 'f', title: 't', steps: [{ id: 's1', title: 't', schema: { type: 'object', properties }, uiSchema }] }) as unknown as FlowDocument

  it('one row per visible field: a help text makes it taller, a checkbox shorter, a hidden field adds nothing', () => {
    const plain = estimatedFormHeight(flow({ a: { type: 'string' }, b: { type: 'string' } }))
    expect(estimatedFormHeight(flow({ a: { type: 'string' }, b: { type: 'string' } }, { b: { 'ui:help': 'x' } }))).toBeGreaterThan(plain)
    expect(estimatedFormHeight(flow({ a: { type: 'string' }, b: { type: 'boolean' } }))).toBeLessThan(plain)
    expect(estimatedFormHeight(flow({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } }, { c: { 'ui:widget': 'hidden' } }))).toBe(plain)
  })

  it('the sign-up by phone step (4 fields, one with help) is reserved within 20 px of the 545 px it renders at on a phone', () => {
    const phone = flow({ phoneNumber: {}, password: {}, countryId: {}, currencyId: {} }, { password: { 'ui:help': 'signup.help.password' } })
    expect(Math.abs(estimatedFormHeight(phone) - 545)).toBeLessThanOrEqual(20)
  })
})
