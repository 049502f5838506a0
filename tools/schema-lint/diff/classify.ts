/**
 * Compliance impact classes: what a change means for a regulator, decided from the words the
 * documents already use (field names, action names, popup ids, regulatory keys). The order of
 * RULES matters: "deposit limit" is a limit before it is money.
 */

export const IMPACT_CLASSES = [
  'age-gate',
  'consent-legal',
  'self-exclusion-limits',
  'responsible-gambling',
  'identity-kyc',
  'money-bonus',
  'validation',
  'copy',
  'cosmetic',
] as const
export type ImpactClass = (typeof IMPACT_CLASSES)[number]

export const IMPACT_LABELS: Record<ImpactClass, string> = {
  'age-gate': 'age gate',
  'consent-legal': 'consent and legal',
  'self-exclusion-limits': 'self-exclusion and limits',
  'responsible-gambling': 'responsible gambling and reality check',
  'identity-kyc': 'identity and KYC',
  'money-bonus': 'money and bonus',
  validation: 'input validation',
  copy: 'copy',
  cosmetic: 'cosmetic',
}

/** Classes a regulator audits: loosening one of them is an error, not a warning. */
export const COMPLIANCE_CLASSES = new Set<ImpactClass>(['age-gate', 'consent-legal', 'self-exclusion-limits', 'responsible-gambling'])

const RULES: [ImpactClass, RegExp][] = [
  ['age-gate', /birth|minimumAge|\bage\b|adult|dateOfBirth|ageCheck/i],
  ['self-exclusion-limits', /self-?exclu|exclusion|limit|cooling|timeOut|playerProtection|player-protection|selfExclude/i],
  ['responsible-gambling', /reality-?check|responsible|sessionReminder|session-reminder|gamblingTest|gamblingRules/i],
  ['consent-legal', /terms|consent|agree|legal|privacy|gdpr|cookie|policy|regulation|contract/i],
  ['identity-kyc', /document|passport|identity|identification|kyc|codiceFiscale|\bcpr\b|mitid|firstName|lastName|address|upload|tsupis|verification|needDocument/i],
  ['money-bonus', /deposit|bonus|promo|balance|currency|withdraw|payment|money|amount|welcome|offer|cashback|loyalty|vip|stake|payout/i],
]

/**
 * The class of a change to what a field accepts (its length, bounds, pattern, format or type):
 * input validation, unless the field is itself a compliance subject where the bound IS the rule (a
 * birth date's latest day is the age gate, a limit's maximum is the limit, an amount's minimum is
 * money) or, for a pattern or a fixed value, an identity document whose format KYC checks.
 * A sign-up's `maxLength` on a name is validation, not "identity and KYC".
 */
export function classifyConstraint(field: string, keyword: string): ImpactClass {
  const subject = classifyWords(field)
  if (subject && (COMPLIANCE_CLASSES.has(subject) || subject === 'money-bonus')) return subject
  if (subject === 'identity-kyc' && (keyword === 'pattern' || keyword === 'const')) return subject
  return 'validation'
}

/** The compliance class a set of words points at, or undefined. */
export function classifyWords(...words: (string | undefined)[]): ImpactClass | undefined {
  const text = words.filter(Boolean).join(' ')
  for (const [impact, pattern] of RULES) if (pattern.test(text)) return impact
  return undefined
}

export type Direction = 'loosened' | 'tightened' | 'neutral'
export type Severity = 'error' | 'warning' | 'note'

/** Loosening or removing a compliance rule is an error; any other change there is a warning. */
export function severityOf(impact: ImpactClass, direction: Direction): Severity {
  if (COMPLIANCE_CLASSES.has(impact)) return direction === 'loosened' ? 'error' : 'warning'
  if (impact === 'identity-kyc' || impact === 'money-bonus') return 'warning'
  return 'note'
}
