/**
 * Explicit registration (issue 32 item 2): importing the action modules registers nothing; the
 * page's registry holds exactly what the lists name once they are registered, and every domain
 * module's actions are in `domainActions` (the one list read top to bottom). Node kinds: the renderer
 * map of engine/renderers/registry.ts is the one list, naming every kind of kinds.ts, and no other
 * file writes into it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
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
import { NODE_KINDS } from '../../../kernel/documents/kinds'
import { nodeRenderers } from '../../../engine/renderers/registry'

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

describe('node kinds are rendered from one list', () => {
  const engineFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => (statSync(join(dir, entry)).isDirectory() ? engineFiles(join(dir, entry)) : /\.tsx?$/.test(entry) ? [join(dir, entry)] : []))

  it('the renderer map names exactly the node kinds of kinds.ts', () => {
    expect(Object.keys(nodeRenderers).sort()).toEqual([...NODE_KINDS].sort())
  })

  it('no file but the map itself writes a renderer into it', () => {
    const writers = engineFiles(join(import.meta.dirname, '..', '..', '..', 'engine'))
      .filter((file) => !file.endsWith('renderers/registry.ts'))
      .filter((file) => /nodeRenderers\s*(\[[^\]]*\]\s*=[^=]|\.\w+\s*=[^=])|Object\.assign\(\s*nodeRenderers/.test(readFileSync(file, 'utf8')))
    expect(writers).toEqual([])
  })
})
