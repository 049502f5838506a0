/**
 * The page's HTML around its first screen (server/http/page-html.ts): a lazy chunk's stylesheet is
 * always linked, its scripts only for the boot shell (module preloads, or the start-after-paint
 * entry's preloads); React's leading image preloads move to the head; a page with the boot shell
 * starts its entry at once as a module, a rendered one keeps the start-after-paint script; the
 * locale and theme go on `<html>`, escaped.
 */
import { describe, expect, it } from 'vitest'
import { chunkFiles, chunkLinks, fillTemplate, hoistLeadingLinks, type Manifest } from '../../../server/http/page-html'

const manifest: Manifest = {
  'web/main.tsx': { file: 'assets/main.js', isEntry: true },
  'engine/renderers/form/FormNode.tsx': { file: 'assets/form.js', css: ['assets/form.css'], imports: ['web/main.tsx', '_shared.js'] },
  '_shared.js': { file: 'assets/shared.js', css: ['assets/shared.css'], imports: ['engine/renderers/form/FormNode.tsx'] },
}
const FORM = 'renderers/form/FormNode.tsx'

describe('chunk files', () => {
  it("are the chunk's file and its static imports' (not an entry's), each once, with their stylesheets", () => {
    expect(chunkFiles(manifest, FORM)).toEqual({ js: ['assets/form.js', 'assets/shared.js'], css: ['assets/form.css', 'assets/shared.css'] })
    expect(chunkFiles(manifest, 'nothing.tsx')).toEqual({ js: [], css: [] })
  })
})

describe('chunk links', () => {
  const css = ['<link rel="stylesheet" crossorigin href="/assets/form.css">', '<link rel="stylesheet" crossorigin href="/assets/shared.css">']
  it('a rendered first screen links the stylesheets only (the form script loads on first use)', () => {
    expect(chunkLinks(manifest, [FORM], true, false)).toEqual({ head: css, preloads: [] })
    expect(chunkLinks(manifest, [FORM], true, true)).toEqual({ head: css, preloads: [] })
  })
  it('the boot shell preloads the scripts as modules, or with start-after-paint as the entry preloads', () => {
    expect(chunkLinks(manifest, [FORM], false, false).head).toEqual([
      '<link rel="stylesheet" crossorigin href="/assets/form.css">',
      '<link rel="stylesheet" crossorigin href="/assets/shared.css">',
      '<link rel="modulepreload" crossorigin href="/assets/form.js">',
      '<link rel="modulepreload" crossorigin href="/assets/shared.js">',
    ])
    expect(chunkLinks(manifest, [FORM], false, true)).toEqual({ head: css, preloads: ['/assets/form.js', '/assets/shared.js'] })
  })
})

describe('leading links', () => {
  it('move from the start of the markup to the head; links later in the markup stay', () => {
    const img = '<link rel="preload" as="image" href="/a.webp" fetchPriority="high"/>'
    expect(hoistLeadingLinks(`${img}${img}<main><link rel="x"></main>`)).toEqual({ links: `${img}${img}`, markup: '<main><link rel="x"></main>' })
    expect(hoistLeadingLinks('<main></main>')).toEqual({ markup: '<main></main>' })
  })
})

describe('the page template', () => {
  const html =
    '<html lang="en" data-theme="sport"><head><script defer src="/start.js" data-entry="/assets/main.js" data-preload="/assets/a.js"></script></head>' +
    '<body><div id="root"></div></body></html>'
  const parts = { locale: 'es', theme: 'casino"', head: ['<link rel="x">'], preloads: ['/assets/a.js', '/assets/b.js'], shell: '<div class="boot-shell"></div>', script: '<script id="boot"></script>' }

  it('with the boot shell: the entry starts at once as a module, with every preload', () => {
    expect(fillTemplate(html, { ...parts, markup: undefined })).toBe(
      '<html lang="es" data-theme="casino&quot;"><head><script type="module" crossorigin src="/assets/main.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/assets/a.js"><link rel="modulepreload" crossorigin href="/assets/b.js"><link rel="x"></head>' +
        '<body><div id="root"><div class="boot-shell"></div></div><script id="boot"></script></body></html>',
    )
  })

  it('with the first screen: the start-after-paint script stays, with the preloads merged', () => {
    expect(fillTemplate(html, { ...parts, markup: '<main>$& $1</main>' })).toBe(
      '<html lang="es" data-theme="casino&quot;"><head><script defer src="/start.js" data-entry="/assets/main.js" data-preload="/assets/a.js,/assets/b.js"></script><link rel="x"></head>' +
        '<body><div id="root"><main>$& $1</main></div><script id="boot"></script></body></html>',
    )
  })
})
