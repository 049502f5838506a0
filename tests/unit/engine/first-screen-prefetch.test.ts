/**
 * The first screen's data asked at boot (engine/renderers/shell/first-screen-prefetch.ts): only
 * the sources whose URL needs no route parameter (a `{params.…}` value is known once the route is
 * matched), filled with the page's locale and query; checked on the schemas' own screen documents
 * against the URLs written out by hand.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenDataSources } from '../../../engine/renderers/shell/first-screen-prefetch'

const screen = (id: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/screens', `${id}.json`), 'utf8'))

describe('the first screen data asked at boot', () => {
  it('fills a source with the locale and the page query', () => {
    expect(screenDataSources(screen('esports-live-event'), 'ru', { id: 'ev 7' })).toEqual([
      { name: 'event', url: '/api/content/event?section=esports&state=live&id=ev%207&locale=ru' },
    ])
  })

  it('leaves out a source whose URL needs a route parameter', () => {
    expect(screenDataSources(screen('promotion'), 'en', {})).toEqual([])
  })

  it('leaves out a source without a URL, and a screen without data or not loaded', () => {
    expect(screenDataSources({ data: { a: { url: '/api/a?l={locale}' }, b: {}, c: null, d: { url: 3 } } }, 'es', {})).toEqual([{ name: 'a', url: '/api/a?l=es' }])
    expect(screenDataSources({ id: 'lobby' }, 'en', {})).toEqual([])
    expect(screenDataSources(undefined, 'en', {})).toEqual([])
  })
})
