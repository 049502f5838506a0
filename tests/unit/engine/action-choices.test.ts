/**
 * Definition enums come from the handlers' own constants (issue 17, Deliver 2: one source): the
 * closed lists an action's params take are the very arrays its handler or store works with
 * (kernel/core/action-choices.ts), and no definition spells such a list out again by hand.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as choices from '../../../kernel/core/action-choices'
import { actionDefinitions } from '../../../kernel/actions'
import { POPUP_ANIMATIONS } from '../../../kernel/documents/kinds'

type Params = { properties?: Record<string, { enum?: readonly unknown[] }> }
const enumOf = (action: keyof typeof actionDefinitions, param: string) => (actionDefinitions[action].params as Params).properties?.[param]?.enum

const DEFINITIONS = join(__dirname, '../../../kernel/actions')

describe('action definition enums are the handlers’ constants', () => {
  it.each([
    ['auth.logout', 'reason', choices.LOGOUT_REASONS],
    ['consent.choose', 'choice', choices.CONSENT_CHOICES],
    ['popup.open', 'animation', POPUP_ANIMATIONS],
    ['notify', 'status', choices.NOTIFICATION_STATUSES],
    ['messages.markRead', 'source', choices.MESSAGE_SOURCES],
    ['regulation.selfExclude', 'kind', choices.SELF_EXCLUSION_KINDS],
  ] as const)('%s %s is the shared list itself', (action, param, list) => {
    expect(enumOf(action, param)).toBe(list)
  })

  it('no definition file spells a shared list out again as an inline enum', () => {
    const shared = Object.values(choices).map((list) => JSON.stringify([...list]))
    for (const file of readdirSync(DEFINITIONS).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(DEFINITIONS, file), 'utf8')
      for (const [, body] of source.matchAll(/enum:\s*(\[[^\]]*\])/g)) {
        const inline = JSON.stringify(JSON.parse(body.replace(/'/g, '"')))
        expect(shared, `${file}: ${body}`).not.toContain(inline)
      }
    }
  })
})
