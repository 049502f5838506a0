/**
 * Entering casino runs the jurisdiction's entry rules (issue 13; engine/regulation/monitor.ts) —
 * among them the prompt to set a reality-check interval, which reads the `realityCheck` feature
 * flag. The experiment client loads after the first screen, so a punter can be in casino before
 * the flags are known: the entry rules wait for them instead of deciding without them (which
 * left the punter never asked).
 */
import { describe, expect, it } from 'vitest'
import type { AfterLoginRule } from '../../../engine/auth/after-login'
import { createEngineStores, type UserData } from '../../../engine/core/stores'
import { startRegulationMonitor } from '../../../engine/regulation/monitor'

const REALITY_RULE: AfterLoginRule = { id: 'reality-check', when: null, popup: 'reality-check-required', with: { onEnter: ['casino', 'live-casino'] } }

function punterInCasino() {
  const stores = createEngineStores({ locale: 'en' })
  stores.session.getState().setSession({ accessToken: 'a', refreshToken: 'r', expireTokenTime: Date.now() + 60_000 })
  stores.user.getState().setUser({ punterToken: 'p1', user: { id: 1 } } as unknown as UserData)
  stores.route.getState().setRoute({ path: '/casino/lobby', section: 'casino' })
  const ran: string[][] = []
  const stop = startRegulationMonitor({
    stores,
    call: async () => ({ ok: false, code: 'OFFLINE' }) as never,
    jurisdiction: async () => ({ afterLogin: [REALITY_RULE] }),
    runRules: async (rules) => void ran.push(rules.map((r) => r.id)),
    now: () => 0,
    setInterval: () => 0,
    clearInterval: () => undefined,
  })
  return { stores, ran, stop }
}

const settle = () => new Promise((done) => setTimeout(done, 0))

describe('entering casino runs the entry rules once the feature flags are known', () => {
  it('before the experiment client answers, no entry rule runs; when it does, the rule runs once', async () => {
    const { stores, ran, stop } = punterInCasino()
    await settle()
    expect(stores.session.getState().accessToken).toBe('a')
    expect(ran).toEqual([])
    stores.flags.getState().setValues({ realityCheck: true })
    await settle()
    await settle()
    expect(ran).toEqual([['reality-check']])
    stores.route.getState().setRoute({ path: '/casino/game' })
    await settle()
    expect(ran).toEqual([['reality-check']])
    stop()
  })

  it('an experiment client that has no flags (no token, disabled) still lets the entry rules run', async () => {
    const { stores, ran, stop } = punterInCasino()
    stores.flags.getState().setValues({})
    await settle()
    await settle()
    expect(ran).toEqual([['reality-check']])
    stop()
  })
})
