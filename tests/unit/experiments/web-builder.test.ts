import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { applyPages, paramsForLocale, rulePathMatches, rulesForPath, type DocumentLike } from '../../../kernel/experiments/web-builder'
import type { WebBuilderPage } from '../../../kernel/experiments/types'
import { sanitizeHtml } from '../../../server/experiments'
import { sanitizedPages } from '../../../server/experiments/document'

const require = createRequire(import.meta.url)
const { JSDOM } = require('jsdom') as { JSDOM: new (html: string) => { window: { document: Document } } }

const pages: WebBuilderPage[] = [
  {
    globalCss: '.banner{font-weight:700}',
    rules: [
      { path: '/casino/lobby', selector: '.title', contentParams: { text: 'Spin', color: 'rgb(255, 212, 0)', fontSize: '18px' } },
      { path: '/casino/*', selector: '.body', contentParams: { contentHtml: '<b>Cashback</b><img src=x onerror="alert(1)">' } },
      { path: '/casino/*', selector: 'a.cta', contentParams: { href: 'javascript:alert(1)', display: 'none' } },
      { path: '/sport', selector: '.title', contentParams: { text: 'Bet' } },
      { path: '/casino/lobby', selector: '[[[bad', contentParams: { text: 'x' } },
    ],
  },
]

describe('web builder rules by path (spec §3)', () => {
  it('a path matches exactly (trailing slash ignored) or as a prefix with *', () => {
    expect(rulePathMatches('/casino/lobby', '/casino/lobby/')).toBe(true)
    expect(rulePathMatches('/casino/lobby', '/casino/lobby/x')).toBe(false)
    expect(rulePathMatches('/casino/*', '/casino/favorites')).toBe(true)
    expect(rulesForPath(pages, '/sport')).toHaveLength(1)
  })

  it('applies content params; contentHtml passes DOMPurify; bad selectors are swallowed (spec §8)', () => {
    const dom = new JSDOM('<html><head></head><body><h1 class="title">Old</h1><div class="body"></div><a class="cta" href="/ok">go</a></body></html>')
    const document = dom.window.document
    const result = applyPages(document as unknown as DocumentLike, pages, '/casino/lobby', sanitizeHtml)
    expect(result).toEqual({ applied: 3, failed: 1 })
    const title = document.querySelector('.title') as HTMLElement
    expect(title.textContent).toBe('Spin')
    expect(title.style.color).toBe('rgb(255, 212, 0)')
    expect(title.style.fontSize).toBe('18px')
    expect(document.querySelector('.body')!.innerHTML).toBe('<b>Cashback</b><img src="x">')
    const cta = document.querySelector('a.cta') as HTMLElement
    expect(cta.getAttribute('href')).toBe('/ok')
    expect(cta.style.display).toBe('none')
    expect(document.head.querySelector('style')!.textContent).toBe('.banner{font-weight:700}')
  })
})

describe('a web-builder rule speaks the page’s language (ADR 0090)', () => {
  const params = {
    text: 'Spin',
    contentHtml: '<b>Cashback</b>',
    color: 'red',
    translations: { ru: { text: 'Крутите', contentHtml: '<b>Кешбэк</b>' }, da: { text: 'Spin nu' } },
  }
  it('an English page gets the rule’s own words; a page with a translation gets it', () => {
    expect(paramsForLocale(params, 'en')).toEqual({ text: 'Spin', contentHtml: '<b>Cashback</b>', color: 'red' })
    expect(paramsForLocale(params, 'ru')).toEqual({ text: 'Крутите', contentHtml: '<b>Кешбэк</b>', color: 'red' })
    expect(paramsForLocale(params, 'da-DK')).toEqual({ text: 'Spin nu', color: 'red' })
  })
  it('a page in a language the rule lacks keeps its own words, never English; colours still apply', () => {
    expect(paramsForLocale(params, 'it')).toEqual({ color: 'red' })
    const dom = new JSDOM('<html><head></head><body><h1 class="title">Gira</h1></body></html>')
    const page: WebBuilderPage = { rules: [{ path: '/casino/lobby', selector: '.title', contentParams: params }] }
    applyPages(dom.window.document as unknown as DocumentLike, [page], '/casino/lobby', sanitizeHtml, 'it')
    const title = dom.window.document.querySelector('.title') as HTMLElement
    expect(title.textContent).toBe('Gira')
    expect(title.style.color).toBe('red')
  })
  it('the server sanitises every translation’s contentHtml as it does the rule’s own', () => {
    const byKey = sanitizedPages({
      pages: [
        {
          experiment: 'e',
          group: 'g',
          rules: [{ path: '/', selector: 'p', contentParams: { contentHtml: '<img src=x onerror="a()">', translations: { ru: { contentHtml: '<b onclick="a()">x</b><script>a()</script>' } } } }],
        },
      ],
    } as never)
    const cleaned = byKey.get('e\u0000g')![0].rules[0].contentParams
    expect(cleaned.contentHtml).toBe('<img src="x">')
    expect(cleaned.translations).toEqual({ ru: { contentHtml: '<b>x</b>' } })
  })
})

describe('the client runs the web builder (spec §4)', () => {
  it('applies the pages of the web-builder experiments the visitor is in, and not in editor mode', async () => {
    const { Sigma } = await import('../../../kernel/experiments/client')
    const { fakeService, memoryStorage, noCookies, seededRandom, manualClock } = await import('./helpers')
    const service = fakeService({
      feature_flags: [],
      experiments: [{ name: 'banner', type: 'web builder', salt: 's', allocation: 100, groups: [{ name: 'a' }, { name: 'b' }] }],
    })
    const base = service.fetch
    service.fetch = async (url, init) =>
      url.includes('/pages.json')
        ? { status: 200, text: async () => JSON.stringify({ pages: [{ rules: [{ path: '/casino/lobby', selector: '.title', contentParams: { text: String(init?.headers?.group) } }] }] }) }
        : base(url, init)
    const sigma = new Sigma({ token: 'tok-12345', api: '/x', storage: memoryStorage(), fetch: service.fetch, now: manualClock().now, random: seededRandom(1), readCookie: noCookies })
    await sigma.loadConfig()
    const dom = new JSDOM('<html><head></head><body><h1 class="title">Old</h1></body></html>')
    const document = dom.window.document as unknown as DocumentLike
    expect(await sigma.runWebBuilder(document, { pathname: '/casino/lobby', search: '?editor=start' }, sanitizeHtml)).toEqual({ applied: 0, failed: 0 })
    expect(await sigma.runWebBuilder(document, { pathname: '/casino/lobby', search: '' }, sanitizeHtml)).toEqual({ applied: 1, failed: 0 })
    expect(dom.window.document.querySelector('.title')!.textContent).toBe(sigma.getExperiment('banner').group)
  })
})
