/**
 * What a page's HTML carries for its route (server/http/boot-plan.ts): which screen data sources
 * the server asks as the browser would (its own URLs, filled with the locale and the query, none
 * waiting on a route parameter), when the first screen is rendered on the server (a route with a
 * screen a guest sees, every source askable), which lazy chunks and documents the screen's nodes
 * need at once, the shell's texts with their fallbacks, and the memory of which documents read
 * experiment groups.
 */
import { describe, expect, it } from 'vitest'
import { askableSources, chunksFor, createExperimentReads, nodeDocuments, nodesOf, rendersOnServer, shellText } from '../../../server/http/boot-plan'

describe('askable screen data sources', () => {
  it("fills this server's URLs with the locale and the query (URL-encoded; a missing query key empty)", () => {
    const sources = askableSources(
      { games: { url: '/api/content/games?section=crash&locale={locale}' }, event: { url: '/api/events/{query.id}?q={query.missing}', notFound: true } },
      'pt-br',
      { id: 'e 1/2' },
    )
    expect(sources).toEqual([
      { name: 'games', url: '/api/content/games?section=crash&locale=pt-br', notFound: false },
      { name: 'event', url: '/api/events/e%201%2F2?q=', notFound: true },
    ])
  })

  it('leaves out a source waiting on a route parameter, one on another server and one without a URL', () => {
    expect(askableSources({ page: { url: '/api/promotions/{params.slug}' }, far: { url: 'https://cdn.example/x.json' }, none: {} }, 'en', {})).toEqual([])
  })
})

describe('rendered on the server', () => {
  const screen = { guard: {} }
  it('a route with a screen whose every source is askable is rendered', () => {
    expect(rendersOnServer({}, screen, 2, 2)).toBe(true)
    expect(rendersOnServer({}, screen, 0, 0)).toBe(true)
  })
  it('not without a route or screen, not a login-only route or screen, not with a source it cannot ask', () => {
    expect(rendersOnServer(undefined, screen, 0, 0)).toBe(false)
    expect(rendersOnServer({}, undefined, 0, 0)).toBe(false)
    expect(rendersOnServer({ login: true }, screen, 0, 0)).toBe(false)
    expect(rendersOnServer({}, { guard: { login: true } }, 0, 0)).toBe(false)
    expect(rendersOnServer({}, screen, 1, 2)).toBe(false)
  })
})

describe("a screen's nodes", () => {
  const body = [{ type: 'menu', menu: 'main' }, { type: 'column', children: [{ type: 'form', flow: 'signup' }, { type: 'form', flow: 'signup' }, { type: 'text' }] }]
  it('are found at any depth', () => {
    expect(nodesOf(body).map((node) => node.type)).toEqual(['menu', 'column', 'form', 'form', 'text'])
  })
  it("load a menu node's menu and a form's flow at once", () => {
    expect(nodeDocuments(nodesOf(body))).toEqual([['menu', 'main'], ['flow', 'signup'], ['flow', 'signup']])
  })
  it("need a form's lazy chunk once, and no chunk for other nodes", () => {
    expect(chunksFor(nodesOf(body))).toEqual(['renderers/form/FormNode.tsx'])
    expect(chunksFor(nodesOf([{ type: 'text' }]))).toEqual([])
  })
})

describe('shell texts', () => {
  const texts = { resources: { 'shell.brand': 'Parlay ES' }, fallbacks: { en: { 'shell.brand': 'Parlay', 'shell.loading': 'Loading' } } }
  it("are the locale's own, else a fallback's, else empty", () => {
    expect(shellText(texts as never, 'shell.brand')).toBe('Parlay ES')
    expect(shellText(texts as never, 'shell.loading')).toBe('Loading')
    expect(shellText(texts as never, 'shell.other')).toBe('')
    expect(shellText(undefined, 'shell.brand')).toBe('')
  })
})

describe('documents that read experiment groups', () => {
  it('are those whose body names `experiments.`, remembered by URL and ETag', () => {
    const reads = createExperimentReads()
    expect(reads({ url: '/api/documents/screen/join', etag: '"a"', body: { when: 'experiments.banner == "B"' } })).toBe(true)
    expect(reads({ url: '/api/documents/screen/home', etag: '"a"', body: { when: 'flags.banner' } })).toBe(false)
    // remembered: the same URL and ETag is not read again
    expect(reads({ url: '/api/documents/screen/join', etag: '"a"', body: {} })).toBe(true)
    // a new version is read anew
    expect(reads({ url: '/api/documents/screen/join', etag: '"b"', body: {} })).toBe(false)
  })
})
