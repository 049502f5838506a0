/**
 * The punter socket's account events on an open page (spec §3 "Socket events", §4 logout reasons):
 * accountUpdate moves the shown balance; accountLogout logs the page out with reason SOCKET (home
 * and the session-expired popup are the logout's own rules), once a session is held.
 */
import { describe, expect, it, vi } from 'vitest'
import { ACCOUNT_EVENTS } from '../../../engine/renderers/punter-socket'
import type { EngineRuntime } from '../../../engine/renderers/runtime'

function fakeRuntime(accessToken: string | null) {
  const user = { data: { balanceInfo: { mainBalance: 10 } } as Record<string, unknown> | null, setUser: vi.fn() }
  const run = vi.fn(async () => ({ ok: true as const, value: null }))
  const runtime = { run, stores: { session: { getState: () => ({ accessToken }) }, user: { getState: () => user } } } as unknown as EngineRuntime
  return { runtime, run, user }
}

describe('punter socket account events', () => {
  it('accountLogout logs the page out with reason SOCKET', () => {
    const { runtime, run } = fakeRuntime('token')
    ACCOUNT_EVENTS.accountLogout({ type: 'accountLogout', payload: { reason: 'SOCKET' } }, runtime)
    expect(run).toHaveBeenCalledWith([{ do: 'auth.logout', with: { reason: 'SOCKET' } }])
  })

  it('accountLogout on a page already logged out does nothing', () => {
    const { runtime, run } = fakeRuntime(null)
    ACCOUNT_EVENTS.accountLogout({ type: 'accountLogout', payload: { reason: 'SOCKET' } }, runtime)
    expect(run).not.toHaveBeenCalled()
  })

  it('accountUpdate sets the shown main balance', () => {
    const { runtime, user } = fakeRuntime('token')
    ACCOUNT_EVENTS.accountUpdate({ type: 'accountUpdate', payload: { balance: 42.5 } }, runtime)
    expect(user.setUser).toHaveBeenCalledWith({ balanceInfo: { mainBalance: 42.5 } })
  })
})
