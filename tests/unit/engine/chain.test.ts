import { beforeEach, describe, expect, it, vi } from 'vitest'
import { buildContext } from '../../../engine/core/context'
import { clearProblems, listProblems } from '../../../engine/core/report'
import { checkParams, registerActions, runChain, type ActionRegistry } from '../../../engine/actions/registry'
import { builtInActions } from '../../../engine/actions/catalogue'
import type { ActionChain } from '../../../kernel/documents/types'
import { cel, testAction, testEnv } from './helpers'

const calls: string[] = []
const fails = testAction({
  name: 'test.fail',
  description: 'fails with the given code',
  params: { type: 'object', required: ['code'], properties: { code: { type: 'string' } }, additionalProperties: false },
  async handler({ code }) {
    calls.push(`fail:${code}`)
    return { ok: false, code }
  },
})
const records = testAction({
  name: 'test.record',
  description: 'records its label',
  params: { type: 'object', required: ['label'], properties: { label: { type: 'string' }, count: { type: 'number' } }, additionalProperties: false },
  async handler({ label }) {
    calls.push(label)
    return { ok: true, value: label }
  },
})
const throws = testAction({
  name: 'test.throw',
  description: 'throws',
  params: { type: 'object' },
  async handler() {
    throw new Error('boom')
  },
})

let registry: ActionRegistry
beforeEach(() => {
  calls.length = 0
  clearProblems()
  registry = registerActions([...builtInActions, fails, records, throws], new Map())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

const run = (chain: ActionChain) => {
  const { env, stores } = testEnv()
  return runChain(chain, env, () => buildContext(stores, { now: 0 }), registry)
}

describe('action chains (architecture: chains with onSuccess/onError by error code)', () => {
  it('runs invocations in order and returns the last result', async () => {
    const result = await run([
      { do: 'test.record', with: { label: 'a' } },
      { do: 'test.record', with: { label: 'b' } },
    ])
    expect(calls).toEqual(['a', 'b'])
    expect(result).toEqual({ ok: true, value: 'b' })
  })

  it('an error runs the branch for its code, then stops the chain', async () => {
    const result = await run([
      {
        do: 'test.fail',
        with: { code: 'CAPTCHA_REQUIRED' },
        onError: { CAPTCHA_REQUIRED: [{ do: 'test.record', with: { label: 'captcha' } }], '*': [{ do: 'test.record', with: { label: 'other' } }] },
      },
      { do: 'test.record', with: { label: 'after' } },
    ])
    expect(calls).toEqual(['fail:CAPTCHA_REQUIRED', 'captcha'])
    expect(result).toMatchObject({ ok: false, code: 'CAPTCHA_REQUIRED' })
  })

  it("a code without its own branch falls back to '*'", async () => {
    await run([{ do: 'test.fail', with: { code: 'DUPLICATE_EMAIL' }, onError: { CAPTCHA_REQUIRED: [], '*': [{ do: 'test.record', with: { label: 'fallback' } }] } }])
    expect(calls).toEqual(['fail:DUPLICATE_EMAIL', 'fallback'])
  })

  it('onSuccess runs after a successful action', async () => {
    await run([{ do: 'test.record', with: { label: 'ok' }, onSuccess: [{ do: 'test.record', with: { label: 'then' } }] }])
    expect(calls).toEqual(['ok', 'then'])
  })

  it('an unknown action is reported, stops the chain with UNKNOWN_ACTION and never throws', async () => {
    const result = await run([
      { do: 'auth.teleport', onError: { '*': [{ do: 'test.record', with: { label: 'branch' } }] } },
      { do: 'test.record', with: { label: 'after' } },
    ])
    expect(result).toMatchObject({ ok: false, code: 'UNKNOWN_ACTION' })
    expect(calls).toEqual([])
    expect(listProblems().map((p) => p.kind)).toContain('unknown-action')
  })

  it('a handler that throws becomes ACTION_FAILED, reported', async () => {
    const result = await run([{ do: 'test.throw', onError: { ACTION_FAILED: [{ do: 'test.record', with: { label: 'handled' } }] } }])
    expect(result).toMatchObject({ ok: false, code: 'ACTION_FAILED' })
    expect(calls).toEqual(['handled'])
    expect(listProblems().some((p) => p.kind === 'action-error')).toBe(true)
  })

  it('an invocation whose `when` is false is skipped; the rest of the chain runs', async () => {
    await run([
      { do: 'test.record', with: { label: 'guest-only' }, when: cel('session.loggedIn') },
      { do: 'test.record', with: { label: 'always' }, when: cel('!session.loggedIn') },
    ])
    expect(calls).toEqual(['always'])
  })

  it('bindings in `with` are resolved against the context', async () => {
    const { env, stores } = testEnv()
    stores.route.getState().setRoute({ path: '/casino/lobby', section: 'casino' })
    await runChain([{ do: 'test.record', with: { label: { $: cel("route.section + '-x'") } } }], env, buildContext(stores), registry)
    expect(calls).toEqual(['casino-x'])
  })

  it('params that do not fit the schema fail with INVALID_PARAMS before the handler runs', async () => {
    const result = await run([{ do: 'test.record', with: { label: 42 } }])
    expect(result).toMatchObject({ ok: false, code: 'INVALID_PARAMS' })
    expect(calls).toEqual([])
    expect(await run([{ do: 'test.record', with: {} }])).toMatchObject({ ok: false, code: 'INVALID_PARAMS' })
  })

  it('an empty or missing chain succeeds', async () => {
    expect(await run([])).toEqual({ ok: true, value: undefined })
  })
})

describe('the eval-free param check', () => {
  const schema = { type: 'object', required: ['to'], properties: { to: { type: 'string' }, n: { type: 'integer' }, s: { enum: ['a', 'b'] } } } as const
  it.each([
    [{ to: '/x' }, null],
    [{}, 'params.to is required'],
    [{ to: 1 }, 'params.to should be string, got integer'],
    [{ to: '/x', n: 1.5 }, 'params.n should be integer, got number'],
    [{ to: '/x', s: 'c' }, 'params.s should be one of a, b'],
  ])('%j → %s', (params, problem) => expect(checkParams(schema, params)).toBe(problem))
})

describe('an action not registered yet loads when its step is due (the lobby’s guest downloads no domain actions)', () => {
  it('a step whose `when` does not hold asks for nothing; a due step asks for its action, then runs it', async () => {
    const { env, stores } = testEnv()
    const asked: string[] = []
    const lazy = new Map(registry)
    lazy.delete('test.record')
    env.loadAction = async (name) => {
      asked.push(name)
      lazy.set('test.record', records)
    }
    const result = await runChain(
      [
        { do: 'test.record', when: cel('false'), with: { label: 'skipped' } },
        { do: 'test.record', with: { label: 'due' } },
      ],
      env,
      () => buildContext(stores, { now: 0 }),
      lazy,
    )
    expect(asked).toEqual(['test.record'])
    expect(calls).toEqual(['due'])
    expect(result).toEqual({ ok: true, value: 'due' })
  })

  it('an action still missing after its load is UNKNOWN_ACTION, as before', async () => {
    const { env, stores } = testEnv()
    env.loadAction = async () => {}
    const result = await runChain([{ do: 'test.nowhere' }], env, () => buildContext(stores, { now: 0 }), registry)
    expect(result).toMatchObject({ ok: false, code: 'UNKNOWN_ACTION' })
  })
})
