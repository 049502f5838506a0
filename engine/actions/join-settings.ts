/**
 * `join.loadSettings` on its own (issue 10): the sign-up screen runs it on enter, before the
 * punter touches anything, so it must not pull the domain-actions barrel (every domain's actions)
 * into /join's first load. The browser runtime imports this small module for it alone; the barrel
 * (through ./identity) registers the same action too.
 */
import type { Result } from '../../kernel/core/contracts'
import { defineAction } from './registry'
import { definitions } from '../../kernel/actions/join-settings'

const MOBILE_GATE = '/mobile-gate/api/v1'

export const joinLoadSettings = defineAction(definitions, {
  name: 'join.loadSettings',
  async handler(_params, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<Record<string, unknown>>('GET', `${MOBILE_GATE}/dictionary/settings`)
    if (result.ok) env.stores.screenData.getState().setData('joinSettings', result.value)
    return result
  },
})

/** Loaded on its own by a screen that runs it on enter (/join), before the domain actions' chunk. */
export const joinSettingsActions = [joinLoadSettings]
