/**
 * Error pages as HTML (spec §2 error page; issue 9): the 400 and 405 answers are the client's own
 * page with the status for the shell and a readable page without scripts; API paths are not pages.
 */
import { describe, expect, it } from 'vitest'
import { errorPageHtml, isApiPath } from '../../../server/http/error-pages'

const INDEX = '<!doctype html><html><head><title>Parlay</title><script type="module" src="/assets/main.js"></script></head><body><div id="root"></div></body></html>'

describe('error pages as HTML', () => {
  it('405 keeps the client (its script), names the status for the shell and shows the title and a way home', () => {
    const html = errorPageHtml(INDEX, 405)
    expect(html).toContain('<script type="module" src="/assets/main.js"></script>')
    expect(html).toContain('<meta name="parlay-status" content="405" />')
    expect(html).toContain('<title>405: Method Not Allowed</title>')
    expect(html).toMatch(/<div id="root">.*<h1 class="error-page__status">405<\/h1><h2 class="error-page__title">Method Not Allowed<\/h2>.*href="\/"/)
  })

  it('400 says Bad Request, also when the client is not built', () => {
    const html = errorPageHtml(undefined, 400)
    expect(html).toContain('<title>400: Bad Request</title>')
    expect(html).toContain('Bad Request')
    expect(html).not.toContain('<script')
  })

  it('API paths keep the JSON envelope; page paths do not', () => {
    expect(isApiPath('/api/documents/screen/x')).toBe(true)
    expect(isApiPath('/mobile-gate/api/v1/heartbeat')).toBe(true)
    expect(isApiPath('/api')).toBe(true)
    expect(isApiPath('/casino/lobby')).toBe(false)
    expect(isApiPath('/apiary')).toBe(false)
  })
})
