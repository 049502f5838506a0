/**
 * The shell hands react-router only the route patterns that could match the location (issue 10:
 * ranking all 475 patterns was the largest item of the first render on a phone). Checked against
 * the router itself over every screen route of the schemas: for each path, the route the router
 * picks among the candidates is the one it picks among all patterns.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { matchRoutes } from 'react-router-dom'
import { describe, expect, it, vi } from 'vitest'
import { candidateRoutes, routeTable } from '../../../engine/renderers/shell/route-candidates'

const screensDir = join(import.meta.dirname, '../../../schemas/screens')
const routes = readdirSync(screensDir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(join(screensDir, name), 'utf8')) as { id: string; route?: string })
  .filter((screen) => typeof screen.route === 'string')
  .map((screen) => ({ screen: screen.id, route: screen.route!, section: 'casino' as const, login: false }))
const site = { locales: ['en', 'ru', 'es', 'pt'] }
const table = routeTable({ routes, site } as never)

/** The pattern the router picks among these table routes, or null. */
const picked = (candidates: typeof table, pathname: string) => matchRoutes(candidates.map((route) => ({ path: route.path })), pathname)?.[0]?.route.path ?? null

/** Paths to try: every pattern filled in, under each prefix, with case and slash variants, and some that match nothing. */
const samples = [
  ...new Set(
    // (the router ranks all 475 patterns on every match: a few samples per screen keep this fast)
    routes.flatMap(({ route }) => {
      const filled = route.replace(/:[^/]+/g, 'x42').replace(/\*$/, 'a/b')
      return [filled, `/ru${filled.toUpperCase()}`, `/pt${filled}/`, `${filled}/extra`, filled.replace(/^\/[a-z]+/, '')]
    }),
  ),
  '/',
  '/nowhere',
  '/ru',
  '/da/casino/lobby',
  '/promotions/%D0%B1%D0%BE%D0%BD%D1%83%D1%81',
  '/promotions/%E0%A4%A',
]

describe('the shell gives the router only the routes that could match, and the router picks the same route', () => {
  it(`reads the screen routes of the schemas (${routes.length}), each under ${site.locales.length} prefixes and bare`, () => {
    expect(routes.length).toBeGreaterThan(50)
    expect(table).toHaveLength(routes.length * (site.locales.length + 1))
  })

  it('for every sampled path the route the router picks among the candidates is the one it picks among all patterns', { timeout: 120_000 }, () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {}) // the router's note on the malformed sample
    const differing = samples.filter((pathname) => picked(candidateRoutes(table, pathname), pathname) !== picked(table, pathname))
    expect(differing).toEqual([])
  })

  it('a path of a screen leaves the router a handful of candidates, not the whole table', () => {
    expect(candidateRoutes(table, '/casino/lobby').length).toBeLessThanOrEqual(3)
    expect(candidateRoutes(table, '/ru/promotions/welcome').map((route) => route.path)).toContain('/ru/promotions/:id')
  })

  it('an optional segment is always left to the router', () => {
    const optional = routeTable({ routes: [{ screen: 'p', route: '/promo/:id?', section: 'casino', login: false }], site: { locales: [] } } as never)
    expect(candidateRoutes(optional, '/promo').map((route) => route.path)).toEqual(['/promo/:id?'])
  })
})
