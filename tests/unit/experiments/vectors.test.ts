/**
 * Conformance vectors (tests/vectors/experiments/cases.json, written by generate.py from an
 * independent Python implementation of the pinned algorithm). Every SDK port must pass them.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { assignGroup, chooseGroup, isAllocated, isInLayer } from '../../../kernel/experiments/assignment'
import { evaluateConditions } from '../../../kernel/experiments/conditions'
import { evaluateFlag } from '../../../kernel/experiments/flags'
import { fnv1a32, groupPoint, hashPoint, layerPoint } from '../../../kernel/experiments/hash'
import { convertParam } from '../../../kernel/experiments/params'
import type { Condition, ConditionalStatement, Experiment, FeatureFlag, LayerBound, ParamType } from '../../../kernel/experiments/types'
import { identifierCounts } from '../../../kernel/experiments/visitor'

const cases = JSON.parse(readFileSync(new URL('../../vectors/experiments/cases.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown[][]
>

describe('hash: FNV-1a 32-bit over UTF-8 bytes (pinned, README)', () => {
  it.each(cases.fnv1a32 as [string, string, number][])('%s', (_name, input, expected) => {
    expect(fnv1a32(input)).toBe(expected)
  })
  it.each(cases.hashPoint as [string, string, number, number][])('%s', (_name, key, scale, expected) => {
    expect(hashPoint(key, scale)).toBe(expected)
  })
})

describe('allocation: hash of id plus salt reduced to 0-99, in iff point < allocation (spec §5)', () => {
  it.each(cases.allocation as [string, string, string, number, boolean][])('%s', (_name, id, salt, allocation, expected) => {
    expect(isAllocated(id, salt, allocation)).toBe(expected)
  })
})

describe('group choice: cumulative group weights over an independent hash (spec §5)', () => {
  it.each(cases.groupPoint as [string, string, string, number][])('%s', (_name, id, salt, expected) => {
    expect(groupPoint(id, salt)).toBe(expected)
  })
  it.each(cases.chooseGroup as [string, number, number[], number][])('%s', (_name, point, weights, expected) => {
    expect(chooseGroup(point, weights)).toBe(expected)
  })
})

describe('layers: the layer hash divided by 10 falls within a layer bound (spec §5)', () => {
  it.each(cases.layerPoint as [string, string, string, number][])('%s', (_name, id, layerId, expected) => {
    expect(layerPoint(id, layerId)).toBe(expected)
  })
  it.each(cases.layer as [string, string, string, LayerBound | LayerBound[], boolean][])('%s', (_name, id, layerId, bounds, expected) => {
    expect(isInLayer(id, layerId, bounds)).toBe(expected)
  })
})

describe('conditions: equal, not equal, any of, none of; OR/AND; private flags by MD5 (spec §3, §5)', () => {
  it.each(cases.conditions as [string, Condition[], ConditionalStatement, Record<string, string>, boolean, boolean][])(
    '%s',
    (_name, conditions, statement, attributes, isPrivate, expected) => {
      expect(evaluateConditions(conditions, statement, attributes, isPrivate)).toBe(expected)
    },
  )
})

describe('params: bool is the text true, json parses or null, integer and number as floats (spec §5)', () => {
  it.each(cases.params as [string, ParamType, unknown, unknown][])('%s', (_name, type, raw, expected) => {
    expect(convertParam(type, raw)).toEqual(expected)
  })
})

describe('feature flags: exactly one default rule, rules in order (spec §5)', () => {
  it.each(cases.flags as [string, FeatureFlag, Record<string, string>, string | null, Record<string, unknown>][])(
    '%s',
    (_name, flag, attributes, group, expected) => {
      expect(evaluateFlag(flag, attributes, group)).toMatchObject(expected)
    },
  )
})

describe('assignment: forced, forced users, sticky, layer, allocation, groups (spec §4, §5)', () => {
  it.each(cases.assignment as [string, Experiment, string, number | null, number | null, Record<string, unknown>][])(
    '%s',
    (_name, experiment, unitId, forced, sticky, expected) => {
      const result = assignGroup({
        experiment,
        unitId,
        forcedGroupIndex: forced ?? undefined,
        stickyIndex: sticky ?? undefined,
      })
      expect(result).toMatchObject(expected)
    },
  )
})

describe('expiry: visitor identifiers stop counting 86 400 000 ms after they were set (spec §4, §9)', () => {
  it.each(cases.expiry as [string, number | null, number, boolean][])('%s', (_name, setAt, now, expected) => {
    expect(identifierCounts(setAt ?? undefined, now)).toBe(expected)
  })
})
