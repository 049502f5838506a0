import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { assignGroup, chooseGroup, isAllocated } from '../../../kernel/experiments/assignment'
import { Sigma, type FetchLike } from '../../../kernel/experiments/client'
import { FETCH_TIMEOUT_MS, MESSAGES } from '../../../kernel/experiments/constants'
import { groupPoint, layerPoint } from '../../../kernel/experiments/hash'
import { createPrivateId } from '../../../kernel/experiments/visitor'
import { memoryStorage, noCookies } from './helpers'

const id = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 })

describe('assignment properties (any id, any salt)', () => {
  it('allocation is monotonic: in at allocation a means in at every b ≥ a', () => {
    fc.assert(
      fc.property(id, fc.string(), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (unit, salt, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a]
        return !isAllocated(unit, salt, low) || isAllocated(unit, salt, high)
      }),
      { numRuns: 2000 },
    )
  })
  it('group and layer points lie in [0, 100)', () => {
    fc.assert(
      fc.property(id, fc.string(), (unit, salt) => {
        const g = groupPoint(unit, salt)
        const l = layerPoint(unit, salt)
        return g >= 0 && g < 100 && l >= 0 && l < 100
      }),
      { numRuns: 2000 },
    )
  })
  it('the chosen group exists and has a positive weight', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 99.99, noNaN: true }), fc.array(fc.nat({ max: 100 }), { minLength: 1, maxLength: 6 }), (point, weights) => {
        const index = chooseGroup(point, weights)
        return weights.every((w) => w === 0) ? index === -1 : index >= 0 && index < weights.length && weights[index] > 0
      }),
      { numRuns: 2000 },
    )
  })
  it('assignment is deterministic for the same unit and config', () => {
    fc.assert(
      fc.property(id, (unit) => {
        const experiment = { name: 'e', salt: 's', allocation: 50, groups: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }
        return JSON.stringify(assignGroup({ experiment, unitId: unit })) === JSON.stringify(assignGroup({ experiment, unitId: unit }))
      }),
    )
  })
  it('the private id is always 80 alphanumerics, whatever the random source returns in [0, 1)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1 }), (values) => {
        let i = 0
        return /^[A-Za-z0-9]{80}$/.test(createPrivateId(() => values[i++ % values.length]))
      }),
    )
  })
})

describe('fetch timeout (spec §9: 2000 ms, 2 retries)', () => {
  afterEach(() => {
    vi.useRealTimers()
  })
  it('a config call that hangs is aborted after 2000 ms, retried twice, then reported', async () => {
    vi.useFakeTimers()
    let calls = 0
    const hanging: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        calls++
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted')))
      })
    const sigma = new Sigma({ token: 'tok-12345', api: '/x', storage: memoryStorage(), fetch: hanging, now: () => 0, random: () => 0.3, readCookie: noCookies })
    const result = sigma.loadConfig().catch((error: Error) => error.message)
    await vi.advanceTimersByTimeAsync(FETCH_TIMEOUT_MS - 1)
    expect(calls).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toBe(2)
    await vi.advanceTimersByTimeAsync(FETCH_TIMEOUT_MS * 2)
    expect(calls).toBe(3)
    expect(await result).toBe(MESSAGES.configUnavailable)
  })
})
