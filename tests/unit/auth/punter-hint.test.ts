/**
 * The punter hint cookie (engine/auth/punter-hint.ts, issue 10): the server renders a guest's
 * first screen only for a browser without a session, so the page keeps the hint in step with its
 * session — set while one is held (restoring or live), cleared when the page becomes a guest's.
 */
import { describe, expect, it } from 'vitest'
import { createEngineStores } from '../../../engine/core/stores'
import { followPunterHint, hasPunterHint } from '../../../engine/auth/punter-hint'
import { siteBootstrap } from '../engine/helpers'

function page() {
  const stores = createEngineStores({ site: siteBootstrap(), locale: 'en' })
  const written: string[] = []
  followPunterHint(stores, { write: (cookie) => written.push(cookie) })
  return { stores, written }
}

describe('the punter hint follows the session', () => {
  it('a guest page clears it; a login sets it once; a logout clears it again', () => {
    const { stores, written } = page()
    expect(written).toEqual([expect.stringMatching(/^parlay_punter=; .*Max-Age=0/)])
    stores.session.getState().setSession({ accessToken: 'a', refreshToken: 'r' })
    stores.session.getState().setStatus('restoring')
    stores.session.getState().setStatus('punter')
    expect(written.slice(1)).toEqual([expect.stringMatching(/^parlay_punter=1; Path=\/; SameSite=Lax; Max-Age=\d+$/)])
    stores.session.getState().clearSession()
    expect(written.slice(2)).toEqual([expect.stringMatching(/^parlay_punter=; .*Max-Age=0/)])
  })

  it('the server reads only the exact hint, among other cookies', () => {
    expect(hasPunterHint('ConsentCookie=all; parlay_punter=1')).toBe(true)
    expect(hasPunterHint('parlay_punter=1')).toBe(true)
    expect(hasPunterHint('')).toBe(false)
    expect(hasPunterHint('parlay_punter=; x=1')).toBe(false)
    expect(hasPunterHint('not_parlay_punter=1')).toBe(false)
  })
})
