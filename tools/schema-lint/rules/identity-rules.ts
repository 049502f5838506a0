/**
 * Regulatory rules read from what each jurisdiction document declares, never from jurisdiction ids
 * in code:
 *
 * - `identity-requirements`: every identity requirement the site declares (`identityRequirements`:
 *   Spain's DNI/NIE, Denmark's CPR and MitID, Italy's codice fiscale) is kept — its field required
 *   by every sign-up flow with exactly the declared pattern, its server check in `signup.checks`,
 *   its `signup` setting on, its identity provider and its page still served. Dropping a
 *   declaration itself is caught by `identityRequirementChanges` (the gate compares the published
 *   declarations with the candidate's).
 * - `regulator-self-exclusion`: a regulator's self-exclusion takes every operation away (deposit,
 *   bet, game) wherever the site lists what SELF_EXCLUSION_REGULATOR blocks.
 */
import type { Finding } from '../finding'
import type { Waiver } from './regulatory-context'
import { isObject, regulatory, requiredFields, signupFlows, type Context, type Problem, type Records, type RegulatoryRule } from './regulatory-context'

export interface IdentityRequirement {
  id: string
  name: string
  field?: string
  pattern?: string
  check?: string
  signupSetting?: string
  identityProvider?: string
  route?: string
}

const OPERATIONS = ['deposit', 'bet', 'game'] as const

export const requirementsOf = (jurisdiction: Record<string, unknown>): IdentityRequirement[] =>
  Array.isArray(jurisdiction.identityRequirements) ? (jurisdiction.identityRequirements as IdentityRequirement[]).filter((r) => isObject(r) && typeof r.id === 'string') : []

/** What a sign-up flow lacks of one requirement's field. */
function flowProblems(requirement: IdentityRequirement, flow: Records[number]): Problem[] {
  if (!requirement.field) return []
  const field = requiredFields(flow).find((f) => f.field === requirement.field)
  const what = `${requirement.name} (${requirement.field})`
  if (!field) return [{ file: flow.file, pointer: '/steps', message: `sign-up flow ${flow.id} no longer requires the ${what}` }]
  if (requirement.pattern !== undefined && field.schema.pattern !== requirement.pattern)
    return [{ file: flow.file, pointer: '/steps', message: `sign-up flow ${flow.id}: the ${what} pattern ${JSON.stringify(field.schema.pattern ?? null)} is not the declared ${JSON.stringify(requirement.pattern)}` }]
  return []
}

/** What the site lacks of one requirement outside its flows. */
function settingProblems(requirement: IdentityRequirement, context: Context): Problem[] {
  const signup = isObject(context.jurisdiction.signup) ? context.jurisdiction.signup : {}
  const problems: Problem[] = []
  if (requirement.check && !(Array.isArray(signup.checks) && signup.checks.includes(requirement.check)))
    problems.push({ pointer: '/signup/checks', message: `the server check ${requirement.check} of the ${requirement.name} is no longer run at sign-up` })
  if (requirement.signupSetting && signup[requirement.signupSetting] !== true)
    problems.push({ pointer: `/signup/${requirement.signupSetting}`, message: `sign-up no longer requires the ${requirement.name} (${requirement.signupSetting} is not true)` })
  if (requirement.identityProvider && signup.identityProvider !== requirement.identityProvider)
    problems.push({ pointer: '/signup/identityProvider', message: `sign-up no longer uses ${requirement.name} (identityProvider ${JSON.stringify(signup.identityProvider ?? null)})` })
  if (requirement.route && !context.records.some((r) => r.kind === 'screen' && r.source.route === requirement.route && context.resolve('screen', r.id) === r))
    problems.push({ pointer: '/identityRequirements', message: `no page serves ${requirement.route}, where ${requirement.name} returns` })
  return problems
}

export const IDENTITY_AND_EXCLUSION_RULES: RegulatoryRule[] = [
  {
    id: 'identity-requirements',
    impact: 'identity-kyc',
    description: "The site's declared identity requirements (identityRequirements: DNI/NIE, CPR, MitID, codice fiscale) stay required at sign-up.",
    check(context) {
      const flows = signupFlows(context)
      return requirementsOf(context.jurisdiction).flatMap((requirement) => [...flows.flatMap((flow) => flowProblems(requirement, flow)), ...settingProblems(requirement, context)])
    },
  },
  {
    id: 'regulator-self-exclusion',
    impact: 'self-exclusion-limits',
    description: "A regulator's self-exclusion takes away deposits, bets and games.",
    check(context) {
      const restrictions = regulatory(context).restrictions
      const listed = isObject(restrictions) ? restrictions.SELF_EXCLUSION_REGULATOR : undefined
      if (listed === undefined) return [] // a type left out takes every operation away
      const allowed = OPERATIONS.filter((operation) => !(Array.isArray(listed) && listed.includes(operation)))
      return allowed.length === 0
        ? []
        : [{ pointer: '/regulatory/restrictions/SELF_EXCLUSION_REGULATOR', message: `punters the regulator excluded could ${allowed.join(', ')}: a regulator's exclusion takes every operation away` }]
    },
  },
]

/**
 * Declared identity requirements the candidate set drops or changes, per jurisdiction, as errors
 * of the identity-requirements rule unless a waiver of that rule covers the jurisdiction's document (a requirement's own declaration is what the rule reads, so
 * removing it would otherwise silence the rule).
 */
export function identityRequirementChanges(before: Records, after: Records, waivers: readonly Waiver[] = []): Finding[] {
  const findings: Finding[] = []
  for (const old of before.filter((r) => r.kind === 'jurisdiction')) {
    const next = after.find((r) => r.kind === 'jurisdiction' && r.id === old.id)
    const kept = new Map(requirementsOf(next?.source ?? {}).map((r) => [r.id, JSON.stringify(r)]))
    for (const requirement of requirementsOf(old.source)) {
      const now = kept.get(requirement.id)
      const file = next?.file ?? old.file
      if (now === JSON.stringify(requirement) || waivers.some((w) => w.rule === 'identity-requirements' && w.jurisdiction === old.id && w.document === file)) continue
      findings.push({
        file,
        pointer: '/identityRequirements',
        message: `the ${requirement.name} requirement is ${now === undefined ? 'no longer declared' : 'changed'} [${old.id}; waiver rule id: identity-requirements]`,
        severity: 'error',
        rule: 'regulatory/identity-requirements',
      })
    }
  }
  return findings
}
