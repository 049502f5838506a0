import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Condition, Experiment, ExperimentGroup, ExperimentParam, FeatureFlag, FlagRule } from '../../../kernel/experiments/types'

const root = path.resolve(__dirname, '../../..')
const schema = JSON.parse(readFileSync(path.join(root, 'schemas/kinds/experiments.schema.json'), 'utf8'))
const props = (definition: string) => Object.keys(schema.definitions[definition].properties).filter((k) => k !== 'description').sort()

// `satisfies Record<keyof T, true>` fails to compile when the TS type gains or loses a field.
const experimentKeys = {
  name: true, type: true, salt: true, allocation: true, groups: true, params: true, feature_flags: true, split_by: true,
  forced_user_list: true, layer_id: true, layer_bounds: true, redirection: true, webbuilder: true, platform: true, platforms: true,
} satisfies Record<keyof Experiment, true>
const flagKeys = { name: true, type: true, is_private: true, rules: true, groups: true } satisfies Record<keyof FeatureFlag, true>
const ruleKeys = { id: true, value: true, is_default: true, conditional_statement: true, conditions: true } satisfies Record<keyof FlagRule, true>
const conditionKeys = { name: true, value: true, condition_sign: true } satisfies Record<keyof Condition, true>
const groupKeys = { name: true, weight: true, forced_user_list: true } satisfies Record<keyof ExperimentGroup, true>
const paramKeys = { name: true, type: true, values: true } satisfies Record<keyof ExperimentParam, true>

describe('the operator schema and the SDK types describe the same entities (spec §3)', () => {
  it.each([
    ['experiment', experimentKeys],
    ['featureFlag', flagKeys],
    ['rule', ruleKeys],
    ['condition', conditionKeys],
    ['group', groupKeys],
    ['param', paramKeys],
  ] as const)('%s has the same fields in schema and type', (definition, keys) => {
    expect(props(definition)).toEqual(Object.keys(keys).sort())
  })
})

describe('the client SDK is framework-free and eval-free', () => {
  const dir = path.join(root, 'engine/experiments')
  const sources = readdirSync(dir).filter((f) => f.endsWith('.ts'))
  it.each(sources)('%s imports no React and uses no eval or new Function', (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8')
    expect(text).not.toMatch(/from ['"]react/)
    expect(text).not.toMatch(/\beval\s*\(|new\s+Function\s*\(/)
    expect(text).not.toMatch(/from ['"](node:|express|jsdom)/)
  })
})
