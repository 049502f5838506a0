/**
 * Replay playback under the site's CSP (server/services/public/replay-csp.js): the recorded events
 * are rewritten so the player builds no style markup — no style attribute, no <style>, no <link>
 * carrying a sheet's text — while every style travels to the CSSOM plugin (rr_csp_style,
 * rr_csp_css); the recording itself is not changed.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JS served to the admin page as is
import { cspSafeEvents, replayerRules } from '../../../server/services/public/replay-csp.js'

const snapshot = {
  type: 2,
  timestamp: 1,
  data: {
    node: {
      type: 0,
      id: 1,
      childNodes: [
        {
          type: 2, id: 2, tagName: 'html', attributes: {},
          childNodes: [
            { type: 2, id: 3, tagName: 'link', attributes: { rel: 'stylesheet', href: 'http://localhost/assets/app.css', _cssText: '.a { color: red; }' }, childNodes: [] },
            { type: 2, id: 4, tagName: 'style', attributes: {}, childNodes: [{ type: 3, id: 5, textContent: '.b { margin: 0; }', isStyle: true }] },
            { type: 2, id: 6, tagName: 'div', attributes: { class: 'x', style: 'width: 10px;' }, childNodes: [] },
          ],
        },
      ],
    },
  },
}
const mutation = {
  type: 3,
  timestamp: 2,
  data: {
    source: 0,
    texts: [],
    removes: [],
    adds: [{ parentId: 2, nextId: null, node: { type: 2, id: 7, tagName: 'style', attributes: { _cssText: '.c { top: 0; }' }, childNodes: [] } }],
    attributes: [
      { id: 6, attributes: { style: 'width: 20px;' } },
      { id: 6, attributes: { style: { width: '30px' } } },
      { id: 6, attributes: { class: 'y' } },
    ],
  },
}

const walk = (node: any, out: any[] = []): any[] => (out.push(node), (node.childNodes ?? []).forEach((c: any) => walk(c, out)), out)

describe('replay events rewritten for the CSP', () => {
  it('a full snapshot keeps no style attribute and no style sheet element; the styles ride along for the CSSOM', () => {
    const [event] = cspSafeEvents([snapshot])
    const nodes = walk(event.data.node)
    expect(nodes.filter((n) => n.attributes && 'style' in n.attributes)).toEqual([])
    expect(nodes.filter((n) => n.tagName === 'style' || n.tagName === 'link')).toEqual([])
    expect(nodes.filter((n) => n.attributes?.rr_csp_css !== undefined).map((n) => [n.id, n.tagName, n.attributes.rr_csp_css, n.childNodes.length])).toEqual([
      [3, 'template', '.a { color: red; }', 0],
      [4, 'template', '.b { margin: 0; }', 0],
    ])
    expect(nodes.find((n) => n.id === 6).attributes).toEqual({ class: 'x', rr_csp_style: 'width: 10px;' })
  })

  it('a mutation: an added sheet becomes a template, a style attribute written as text moves out, a style diff (CSSOM already) stays', () => {
    const [event] = cspSafeEvents([mutation])
    expect(event.data.adds[0].node).toEqual({ type: 2, id: 7, tagName: 'template', attributes: { rr_csp_css: '.c { top: 0; }' }, childNodes: [] })
    expect(event.data.attributes).toEqual([
      { id: 6, attributes: {}, rr_csp_style: 'width: 20px;' },
      { id: 6, attributes: { style: { width: '30px' } } },
      { id: 6, attributes: { class: 'y' } },
    ])
  })

  it('the recording given is not changed', () => {
    const before = JSON.stringify([snapshot, mutation])
    cspSafeEvents([snapshot, mutation])
    expect(JSON.stringify([snapshot, mutation])).toBe(before)
  })

  it("rrweb's own rules are kept for adoption (blocked elements, noscript, paused animations)", () => {
    expect(replayerRules('rr-block')).toEqual([
      '.rr-block { background: currentColor }',
      'noscript { display: none !important; }',
      'html.rrweb-paused *, html.rrweb-paused *:before, html.rrweb-paused *:after { animation-play-state: paused !important; }',
    ])
  })
})
