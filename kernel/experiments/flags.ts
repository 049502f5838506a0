import { evaluateConditions, type VisitorAttributes } from './conditions'
import { convertParam } from './params'
import type { FeatureFlag } from './types'

export type FlagResult =
  | { ok: true; value: unknown; source: 'rule' | 'default' | 'experiment'; ruleId?: string | number }
  | { ok: false; code: 'FLAG_NOT_FOUND' | 'DEFAULT_RULE_COUNT' }

/** A feature flag needs exactly one default rule (spec §5); otherwise it does not evaluate. */
const defaultRuleCheck = new WeakMap<FeatureFlag, boolean>()
export function hasSingleDefaultRule(flag: FeatureFlag): boolean {
  let valid = defaultRuleCheck.get(flag)
  if (valid === undefined) {
    valid = (flag.rules ?? []).filter((rule) => rule.is_default === true).length === 1
    defaultRuleCheck.set(flag, valid)
  }
  return valid
}

/**
 * Non-default rules are tried in document order; the first whose conditions hold gives the value,
 * else the default rule does. When an experiment lists the flag and the visitor is in one of its
 * groups, the flag's value for that group wins (`experimentGroup`).
 */
export function evaluateFlag(
  flag: FeatureFlag,
  attributes: VisitorAttributes,
  experimentGroup?: string | null,
): FlagResult {
  if (!hasSingleDefaultRule(flag)) return { ok: false, code: 'DEFAULT_RULE_COUNT' }
  if (experimentGroup) {
    const byGroup = flag.groups?.find((g) => g.name === experimentGroup)
    if (byGroup) return { ok: true, value: convertParam(flag.type, byGroup.value), source: 'experiment' }
  }
  const isPrivate = flag.is_private === true
  let fallback: FlagResult = { ok: false, code: 'DEFAULT_RULE_COUNT' }
  for (const rule of flag.rules) {
    if (rule.is_default) {
      fallback = { ok: true, value: convertParam(flag.type, rule.value), source: 'default', ruleId: rule.id }
      continue
    }
    // A non-default rule without conditions targets nobody: only the default rule applies to all.
    if (rule.conditions && rule.conditions.length > 0 && evaluateConditions(rule.conditions, rule.conditional_statement, attributes, isPrivate)) {
      return { ok: true, value: convertParam(flag.type, rule.value), source: 'rule', ruleId: rule.id }
    }
  }
  return fallback
}
