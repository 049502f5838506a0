/**
 * Explicit registration (issue 32 item 2): importing the action modules registers nothing; the
 * page's registry holds exactly what the lists name once they are registered, and every domain
 * module's actions are in `domainActions` (the one list read top to bottom).
 */
import { describe, expect, it } from 'vitest'
import * as barrel from '../../../engine/actions'
import { authActions } from '../../../engine/actions/auth'
import { betActions } from '../../../engine/actions/bets'
import { credentialActions } from '../../../engine/actions/credentials'
import { engagementActions } from '../../../engine/actions/engagement'
import { gameDemoActions } from '../../../engine/actions/games-demo'
import { identityActions } from '../../../engine/actions/identity'
import { joinActions } from '../../../engine/actions/join'
import { joinSettingsActions } from '../../../engine/actions/join-settings'
import { messageActions } from '../../../engine/actions/messages'
import { moneyActions } from '../../../engine/actions/money'
import { regulationActions } from '../../../engine/actions/regulation'
import { settingsActions } from '../../../engine/actions/settings'

describe('actions are registered from one list, never by being imported', () => {
  it('after importing every action module, the page registry is still empty', () => {
    expect([...barrel.actionRegistry.keys()]).toEqual([])
  })

  it('every domain module’s actions are in domainActions, and registering the lists fills a registry with exactly their names', () => {
    const modules = [authActions, betActions, credentialActions, engagementActions, gameDemoActions, identityActions, joinActions, joinSettingsActions, messageActions, moneyActions, regulationActions, settingsActions]
    const listed = new Set(barrel.domainActions)
    for (const actions of modules) for (const action of actions) expect(listed.has(action), action.name).toBe(true)
    const registry = barrel.registerAllActions(new Map())
    expect([...registry.keys()].sort()).toEqual([...new Set([...barrel.builtInActions, ...barrel.domainActions].map((a) => a.name))].sort())
    expect([...barrel.actionRegistry.keys()]).toEqual([]) // a registry of its own: the page's is untouched
  })
})
