/**
 * Spec §2 catch-alls and old links, resolved by kernel/core/routes.ts against the real redirects
 * document and the real screen routes: where each lands, what travels along, and that no chain
 * can loop.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkRedirects, MAX_REDIRECT_HOPS, resolvePath, servesPath, type RedirectRule, type RouteTable } from '../../../kernel/core/routes'

const SCHEMAS = join(import.meta.dirname, '..', '..', '..', 'schemas')
const screens = readdirSync(join(SCHEMAS, 'screens')).map((file) => JSON.parse(readFileSync(join(SCHEMAS, 'screens', file), 'utf8')).route as string)
const redirects = JSON.parse(readFileSync(join(SCHEMAS, 'redirects', 'redirects.json'), 'utf8')).redirects as RedirectRule[]
const table: RouteTable = { screens, redirects, remoteConfig: { DESKTOP_LINK: 'https://desktop.parlay.example/' } }

const landing = (path: string) => {
  const r = resolvePath(path, table)
  if (r.kind === 'screen') return r.query ? `${r.path}?${r.query}` : r.path
  if (r.kind === 'root') return r.query ? `/?${r.query}` : '/'
  return r.kind === 'external' ? r.url : 'unknown'
}

describe('spec §2: (*) paths are catch-alls with a sensible target', () => {
  it.each([
    ['/casino', '/casino/lobby'],
    ['/casino/no/such/page', '/casino/lobby'],
    ['/sport', '/sport/live/popular'],
    ['/live', '/sport/live'],
    ['/live/popular', '/sport/live/popular'],
    ['/live/popular/football', '/sport/live/popular'],
    ['/betting', '/sport/prematch'],
    ['/livecasino', '/live-casino/lobby'],
    ['/account', '/account/settings'],
    ['/esports/whatever', '/esports/live/all'],
    ['/toto', '/toto/correct-score'],
    ['/download-app', '/landings/download-app'],
    ['/confirm-phone', '/join/confirm-phone'],
    ['/ex-main/anything', '/'],
  ])('%s lands on %s', (from, to) => expect(landing(from)).toBe(to))

  it('a deep path under a catch-all lands on the deepest screen it starts with (the nearest sensible page)', () => {
    expect(landing('/sport/live/event/42')).toBe('/sport/live/event')
    expect(landing('/account/settings/odds')).toBe('/account/settings')
  })

  it('query strings travel along (tokens in e-mail and payment links)', () => {
    expect(landing('/emailconfirm?token=abc')).toBe('/join/confirm-email?token=abc')
    expect(landing('/changepassword/x?token=t1')).toBe('/change-password?token=t1')
    expect(landing('/change-password?token=t2')).toBe('/change-password?token=t2')
    expect(landing('/threedsconfirm?status=OK')).toBe('/account/deposit?status=OK')
    expect(landing('/ex-join?promoCode=WELCOME')).toBe('/join?promoCode=WELCOME')
  })

  it('/affiliate-link stores the referer id (query or path) and goes on to the root', () => {
    const byQuery = resolvePath('/affiliate-link?refererId=partner_42', table)
    expect(byQuery).toMatchObject({ kind: 'root', remember: [{ key: 'refererId', value: 'partner_42' }] })
    expect(resolvePath('/affiliate-link/p-7', table)).toMatchObject({ kind: 'root', remember: [{ key: 'refererId', value: 'p-7' }] })
  })

  it('a referer id that is not a plain token is not stored', () => {
    expect(resolvePath('/affiliate-link?refererId=%3Cscript%3E', table)).toMatchObject({ kind: 'root', remember: [] })
  })

  it('/deep-link and /transfer-handler go to the path they carry when the site serves it, else the root', () => {
    expect(landing('/deep-link/casino/lobby')).toBe('/casino/lobby')
    expect(landing('/deep-link?path=/account/offers')).toBe('/account/offers?path=%2Faccount%2Foffers')
    expect(landing('/transfer-handler/casino')).toBe('/casino/lobby')
    expect(landing('/deep-link/nowhere')).toBe('/')
    expect(landing('/deep-link?path=//evil.example')).toBe('/?path=%2F%2Fevil.example')
  })

  it('*.htm goes where its name says, else the root', () => {
    expect(landing('/casino.htm')).toBe('/casino/lobby')
    expect(landing('/index.htm')).toBe('/')
  })

  it('/desktop_redirect goes to the desktop link of the remote config; /help_redirect to the help pages', () => {
    expect(landing('/desktop_redirect?from=m')).toBe('https://desktop.parlay.example/?from=m')
    expect(landing('/help_redirect')).toBe('/info/help')
  })

  it('a path no screen and no rule serves is unknown (404)', () => {
    expect(servesPath('/nowhere', table)).toBe(false)
    expect(servesPath('/info/unknown-page', table)).toBe(false)
  })
})

describe('redirect loops are impossible', () => {
  it('the shipped redirects document has no loop and no dead target', () => {
    expect(checkRedirects(table).filter((p) => p.severity === 'error')).toEqual([])
  })

  it('lint names a loop with its chain', () => {
    const looping: RedirectRule[] = [
      { from: '/a', to: '/b', keepQuery: true },
      { from: '/b', to: '/a', keepQuery: true },
    ]
    expect(checkRedirects({ screens: [], redirects: looping })[0].message).toBe('redirect loop: /a → /b → /a')
  })

  it('lint names a target no screen serves', () => {
    expect(checkRedirects({ screens: [], redirects: [{ from: '/a', to: '/gone', keepQuery: true }] })[0].message).toMatch(/no screen serves the redirect target "\/gone"/)
  })

  it('even a looping document never loops at run time: the walk stops at the root', () => {
    const looping: RedirectRule[] = [
      { from: '/a', to: '/b', keepQuery: true },
      { from: '/b', to: '/a', keepQuery: true },
    ]
    expect(resolvePath('/a', { screens: [], redirects: looping }).kind).toBe('root')
    expect(MAX_REDIRECT_HOPS).toBeLessThan(20)
  })
})
