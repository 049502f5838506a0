/**
 * The one route matcher (kernel/core/route-match.ts) that the shell, the server's boot data and
 * schema-lint share: its rules for literal segments, `:params`, a final `*` and locale prefixes.
 */
import { describe, expect, it } from 'vitest'
import { pathSegments, routeFor, routeMatches } from '../../../kernel/core/route-match'

describe('a screen route pattern matches a prefix-free path', () => {
  it.each([
    ['a literal path matches itself', '/casino/lobby', '/casino/lobby', true],
    ['a literal path does not match another', '/casino/lobby', '/casino/live', false],
    ['a longer path does not match a shorter pattern', '/casino', '/casino/lobby', false],
    ['a shorter path does not match a longer pattern', '/casino/lobby', '/casino', false],
    [':param matches any one segment', '/info/:page', '/info/terms', true],
    [':param does not match a missing segment', '/info/:page', '/info', false],
    [':param matches one segment only', '/info/:page', '/info/terms/old', false],
    ['a final * matches no segment', '/sport/*', '/sport', true],
    ['a final * matches several segments', '/sport/*', '/sport/live/event/42', true],
    ['a final * keeps the literal part', '/sport/*', '/casino/live', false],
    ['params before * match any segment', '/line/:sport/*', '/line/football/uk/premier', true],
    ['query and hash are not part of the path', '/casino/lobby', '/casino/lobby?tab=new#top', true],
    ['trailing and doubled slashes are ignored', '/casino/lobby', '//casino//lobby/', true],
    ['the root matches the root', '/', '/', true],
    ['the root does not match a page', '/', '/casino', false],
  ])('%s (%s ~ %s)', (_rule, pattern, path, expected) => expect(routeMatches(pattern, path)).toBe(expected))

  it('segments drop query, hash and empty parts', () => expect(pathSegments('/a//b/?x=1#y')).toEqual(['a', 'b']))
})

describe('the route of a full pathname sets a locale prefix aside', () => {
  const routes = [
    { route: '/casino/lobby', screen: 'casino-lobby' },
    { route: '/info/:page', screen: 'info' },
    { route: '/sport/*', screen: 'sport' },
  ]
  const locales = ['en', 'ru', 'es']

  it('a path without a prefix finds its route', () => expect(routeFor(routes, '/info/terms', locales)?.screen).toBe('info'))
  it("a site locale's prefix is set aside", () => expect(routeFor(routes, '/ru/casino/lobby', locales)?.screen).toBe('casino-lobby'))
  it("a segment that is not one of the site's locales is part of the path", () => expect(routeFor(routes, '/da/casino/lobby', locales)).toBeUndefined())
  it('the first matching route wins', () => expect(routeFor([...routes, { route: '/sport/live', screen: 'later' }], '/es/sport/live', locales)?.screen).toBe('sport'))
  it('an unknown path has no route', () => expect(routeFor(routes, '/en/nowhere', locales)).toBeUndefined())
})
