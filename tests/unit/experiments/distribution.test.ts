/**
 * Distribution over 100 000 ids: every group within one percentage point of its share,
 * allocation respected, groups unbiased under partial allocation, assignments sticky across
 * config reloads.
 */
import { describe, expect, it } from 'vitest'
import { assignGroup } from '../../../kernel/experiments/assignment'
import { Sigma } from '../../../kernel/experiments/client'
import type { Experiment, ExperimentsConfig } from '../../../kernel/experiments/types'
import { fakeService, manualClock, memoryStorage, noCookies, seededRandom } from './helpers'

const N = 100_000
const ONE_POINT = 0.01

function run(experiment: Experiment, idOf: (i: number) => string) {
  const counts = new Array(experiment.groups.length).fill(0)
  const assigned: number[] = []
  let inExperiment = 0
  for (let i = 0; i < N; i++) {
    const result = assignGroup({ experiment, unitId: idOf(i) })
    assigned.push(result.index)
    if (result.inExperiment) {
      inExperiment++
      counts[result.index]++
    }
  }
  return { counts, inExperiment, assigned }
}

const weighted = (allocation: number): Experiment => ({
  name: 'dist',
  salt: 'dist-salt',
  allocation,
  groups: [
    { name: 'a', weight: 50 },
    { name: 'b', weight: 30 },
    { name: 'c', weight: 20 },
  ],
})

const ID_SHAPES: Array<[string, (i: number) => string]> = [
  ['sequential ASCII ids', (i) => `user-${i}`],
  ['numeric ids', (i) => String(100_000_000 + i)],
  ['Cyrillic ids', (i) => `игрок-${i}`],
  ['emoji ids', (i) => `🎰${i}🎲`],
]

describe.each(ID_SHAPES)('distribution of %s (100 000 ids)', (_shape, idOf) => {
  it('allocation 100: every group within one percentage point of its share (50/30/20)', () => {
    const { counts, inExperiment } = run(weighted(100), idOf)
    expect(inExperiment).toBe(N)
    const shares = [0.5, 0.3, 0.2]
    counts.forEach((count, i) => expect(Math.abs(count / N - shares[i])).toBeLessThan(ONE_POINT))
  })

  it('allocation 30: within one point of 30 % enter, and groups keep their shares among them (unbiased)', () => {
    const { counts, inExperiment } = run(weighted(30), idOf)
    expect(Math.abs(inExperiment / N - 0.3)).toBeLessThan(ONE_POINT)
    const shares = [0.5, 0.3, 0.2]
    counts.forEach((count, i) => expect(Math.abs(count / inExperiment - shares[i])).toBeLessThan(ONE_POINT))
  })

  it('equal split of four groups: each within one point of 25 %', () => {
    const experiment: Experiment = { name: 'four', salt: 'four', allocation: 100, groups: ['a', 'b', 'c', 'd'].map((name) => ({ name })) }
    const { counts } = run(experiment, idOf)
    counts.forEach((count) => expect(Math.abs(count / N - 0.25)).toBeLessThan(ONE_POINT))
  })
})

describe('layers split the population (100 000 ids)', () => {
  it('two experiments on one layer with bounds [0, 40) and [40, 100) never share a unit and cover 40/60', () => {
    const left: Experiment = { name: 'l', salt: 'l', allocation: 100, layer_id: 'lobby', layer_bounds: { lower_bound: 0, upper_bound: 40 }, groups: [{ name: 'a' }] }
    const right: Experiment = { ...left, name: 'r', salt: 'r', layer_bounds: [{ lower_bound: 40, upper_bound: 100 }] }
    let inLeft = 0
    let inRight = 0
    let both = 0
    let neither = 0
    for (let i = 0; i < N; i++) {
      const id = `user-${i}`
      const l = assignGroup({ experiment: left, unitId: id }).inExperiment
      const r = assignGroup({ experiment: right, unitId: id }).inExperiment
      if (l && r) both++
      if (!l && !r) neither++
      if (l) inLeft++
      if (r) inRight++
    }
    expect({ both, neither }).toEqual({ both: 0, neither: 0 })
    expect(Math.abs(inLeft / N - 0.4)).toBeLessThan(ONE_POINT)
    expect(Math.abs(inRight / N - 0.6)).toBeLessThan(ONE_POINT)
  })
})

describe('stickiness (100 000 ids)', () => {
  it('raising allocation from 30 to 60 keeps every unit already in the experiment in its group (no sticky store needed)', () => {
    const before = run(weighted(30), (i) => `user-${i}`).assigned
    const after = run(weighted(60), (i) => `user-${i}`).assigned
    let moved = 0
    for (let i = 0; i < N; i++) if (before[i] >= 0 && after[i] !== before[i]) moved++
    expect(moved).toBe(0)
  })

  it('with the sticky index, assignments survive a reload that changes weights and lowers allocation', () => {
    const before = run(weighted(100), (i) => `user-${i}`).assigned
    const reloaded: Experiment = { ...weighted(10), groups: [{ name: 'a', weight: 10 }, { name: 'b', weight: 10 }, { name: 'c', weight: 80 }] }
    let moved = 0
    for (let i = 0; i < N; i++) {
      if (assignGroup({ experiment: reloaded, unitId: `user-${i}`, stickyIndex: before[i] }).index !== before[i]) moved++
    }
    expect(moved).toBe(0)
  })

  it('through the client: 2 000 visitors keep their groups across config reloads with new weights', async () => {
    const config: ExperimentsConfig = { feature_flags: [], experiments: [weighted(100)] }
    const service = fakeService(structuredClone(config))
    const clock = manualClock()
    const random = seededRandom(3)
    const visitors = Array.from({ length: 2000 }, (_, i) => {
      const storage = memoryStorage()
      return new Sigma({ token: 't0k3n-abc', api: '/x', storage, fetch: service.fetch, now: clock.now, random, readCookie: noCookies, visitor: { userId: `punter-${i}` } })
    })
    await Promise.all(visitors.map((v) => v.loadConfig()))
    const first = visitors.map((v) => v.getExperiment('dist').index)
    ;(service.config as ExperimentsConfig).experiments[0].groups = [{ name: 'a', weight: 1 }, { name: 'b', weight: 1 }, { name: 'c', weight: 98 }]
    clock.advance(10_000)
    await Promise.all(visitors.map((v) => v.loadConfig()))
    expect(visitors.every((v) => v.status.source === 'network')).toBe(true)
    expect(visitors.map((v) => v.getExperiment('dist').index)).toEqual(first)
  })
})
