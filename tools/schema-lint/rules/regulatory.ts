/**
 * Regulatory lint rules: every jurisdiction keeps its mandatory blocks. Each rule is
 * `given` (the jurisdiction's documents) → `then` (a check), Spectral-style, with a stable id a
 * waiver names. Removing a block is an error unless the document store holds an active waiver
 * (rule + jurisdiction + document, with a reason and an end, approved by a second person).
 *
 * Blocks every jurisdiction keeps: an age check (minimum age and a required birth date in every
 * sign-up flow), terms consent (a required terms field that must be true), a responsible-gambling
 * link (footer), a self-exclusion entry point (the after-login rule opening the self-exclude popup).
 * Jurisdiction blocks (REFERENCES: responsible-gambling rules): Denmark deposit limits
 * daily/weekly/monthly with a 24 h wait for raises and the exclusion register at login; Italy
 * exclusion 30/60/90 days or indefinite; Spain the session reminder (reality check); Belarus 21+;
 * Curaçao exclusion 1/3/5 years or permanent and a waiting period for raised limits.
 */
import type { Finding } from '../finding'
import { IDENTITY_AND_EXCLUSION_RULES } from './identity-rules'
import { afterLoginPopups, includesAll, isObject, regulatory, requiredFields, signupFlows, type Context, type Problem, type Records, type RegulatoryRule, type Waiver } from './regulatory-context'

export type { Context, Problem, Records, RegulatoryRule, Waiver } from './regulatory-context'


export const REGULATORY_RULES: RegulatoryRule[] = [
  {
    id: 'age-check',
    impact: 'age-gate',
    description: 'Every sign-up flow asks for a required birth date; the site has a minimum age of at least 18.',
    check(context) {
      const problems: Problem[] = []
      if (typeof context.jurisdiction.minimumAge !== 'number' || context.jurisdiction.minimumAge < 18)
        problems.push({ pointer: '/minimumAge', message: 'the minimum age must be at least 18' })
      for (const flow of signupFlows(context))
        if (!requiredFields(flow).some((f) => /^(birthDay|birthDate|dateOfBirth)$/.test(f.field)))
          problems.push({ file: flow.file, pointer: '/steps', message: `sign-up flow ${flow.id} has no required birth date: the age check is mandatory` })
      return problems
    },
  },
  {
    id: 'terms-consent',
    impact: 'consent-legal',
    description: 'Every sign-up flow has a required terms field that must be accepted (const true).',
    check(context) {
      return signupFlows(context)
        .filter((flow) => !requiredFields(flow).some((f) => /terms|legal|agree/i.test(f.field) && f.schema.const === true))
        .map((flow) => ({ file: flow.file, pointer: '/steps', message: `sign-up flow ${flow.id} has no required terms consent (a field that must be true)` }))
    },
  },
  {
    id: 'responsible-gambling-link',
    impact: 'responsible-gambling',
    description: 'The footer links to responsible gambling.',
    check(context) {
      const footer = context.resolve('footer', 'footer')
      const items = footer && Array.isArray(footer.source.items) ? (footer.source.items as Record<string, unknown>[]) : []
      return items.some((item) => item.name === 'responsibleGambling')
        ? []
        : [{ file: footer?.file ?? 'footers/footer.json', pointer: '/items', message: 'the footer has no responsible-gambling link' }]
    },
  },
  {
    id: 'self-exclusion-entry',
    impact: 'self-exclusion-limits',
    description: 'An after-login rule opens the self-exclude popup, and the popup exists.',
    check(context) {
      const problems: Problem[] = []
      if (!afterLoginPopups(context).includes('self-exclude'))
        problems.push({ pointer: '/afterLogin', message: 'no after-login rule opens the self-exclude popup: the self-exclusion entry point is mandatory' })
      else if (!context.resolve('popup', 'self-exclude')) problems.push({ pointer: '/afterLogin', message: 'the self-exclude popup document is missing' })
      return problems
    },
  },
  {
    id: 'denmark-deposit-limits',
    impact: 'self-exclusion-limits',
    jurisdictions: ['denmark'],
    description: 'Denmark: deposit limits daily, weekly and monthly; a raised limit takes effect after 24 h; the exclusion register is checked at login.',
    check(context) {
      const reg = regulatory(context)
      const limits = isObject(reg.depositLimits) ? reg.depositLimits : undefined
      const problems: Problem[] = []
      if (!limits || !includesAll(limits.periods, ['daily', 'weekly', 'monthly']))
        problems.push({ pointer: '/regulatory/depositLimits', message: 'Denmark needs the deposit-limit step with daily, weekly and monthly limits' })
      else if (typeof limits.increaseTakesEffectAfterHours !== 'number' || limits.increaseTakesEffectAfterHours < 24)
        problems.push({ pointer: '/regulatory/depositLimits/increaseTakesEffectAfterHours', message: 'Denmark: a raised deposit limit takes effect only after 24 hours' })
      if (reg.selfExclusionRegisterCheckedAtLogin !== true)
        problems.push({ pointer: '/regulatory/selfExclusionRegisterCheckedAtLogin', message: 'Denmark: the self-exclusion register must be checked at every login' })
      return problems
    },
  },
  {
    id: 'italy-self-exclusion-periods',
    impact: 'self-exclusion-limits',
    jurisdictions: ['italy'],
    description: 'Italy: self-exclusion 30, 60 or 90 days or indefinite, immediate.',
    check(context) {
      const se = regulatory(context).selfExclusion
      return isObject(se) && includesAll(se.days, [30, 60, 90]) && se.indefinite === true && se.immediate === true
        ? []
        : [{ pointer: '/regulatory/selfExclusion', message: 'Italy: self-exclusion must offer 30, 60, 90 days and indefinite, effective immediately' }]
    },
  },
  {
    id: 'spain-session-reminder',
    impact: 'responsible-gambling',
    jurisdictions: ['spain'],
    description: 'Spain: the periodic session reminder (reality check) is on.',
    check(context) {
      const problems: Problem[] = []
      if (regulatory(context).sessionReminder !== true) problems.push({ pointer: '/regulatory/sessionReminder', message: 'Spain: the session reminder must be on' })
      if (!afterLoginPopups(context).includes('reality-check-required'))
        problems.push({ pointer: '/afterLogin', message: 'Spain: no after-login rule opens the reality-check popup' })
      return problems
    },
  },
  {
    id: 'belarus-minimum-age',
    impact: 'age-gate',
    jurisdictions: ['belarus'],
    description: 'Belarus: players are 21 or older.',
    check: (context) =>
      Number(context.jurisdiction.minimumAge) >= 21 ? [] : [{ pointer: '/minimumAge', message: 'Belarus: the minimum age is 21' }],
  },
  {
    id: 'curacao-self-exclusion-and-limits',
    impact: 'self-exclusion-limits',
    jurisdictions: ['curacao'],
    description: 'Curaçao: self-exclusion 1, 3 or 5 years or permanent; raised limits wait.',
    check(context) {
      const reg = regulatory(context)
      const problems: Problem[] = []
      const se = reg.selfExclusion
      if (!isObject(se) || !includesAll(se.years, [1, 3, 5]) || se.permanent !== true)
        problems.push({ pointer: '/regulatory/selfExclusion', message: 'Curaçao: self-exclusion must offer 1, 3, 5 years and permanent' })
      const limits = reg.limits
      if (!isObject(limits) || typeof limits.increaseWaitingHours !== 'number' || limits.increaseWaitingHours <= 0)
        problems.push({ pointer: '/regulatory/limits/increaseWaitingHours', message: 'Curaçao: a raised limit needs a waiting period' })
      return problems
    },
  },
  ...IDENTITY_AND_EXCLUSION_RULES,
]

function score(record: Records[number], jurisdiction: string): number {
  if (record.jurisdiction !== '' && record.jurisdiction !== jurisdiction) return -1
  return (record.jurisdiction ? 4 : 0) + (record.locales.length ? 0 : 2) + (record.platforms.length ? 0 : 1)
}

/** Regulatory findings over a document set; a finding an active waiver covers (its rule, its
 * jurisdiction, its document) is left out. */
export function regulatoryFindings(records: Records, waivers: Waiver[] = []): Finding[] {
  const findings: Finding[] = []
  for (const record of records.filter((r) => r.kind === 'jurisdiction')) {
    const id = record.id
    const resolve = (kind: string, docId: string) => {
      let best: Records[number] | undefined
      let bestScore = -1
      for (const candidate of records) {
        if (candidate.kind !== kind || candidate.id !== docId) continue
        const s = score(candidate, id)
        if (s > bestScore) [best, bestScore] = [candidate, s]
      }
      return best
    }
    const context: Context = { jurisdiction: record.source, file: record.file, id, records, resolve }
    for (const rule of REGULATORY_RULES) {
      if (rule.jurisdictions && !rule.jurisdictions.includes(id)) continue
      for (const problem of rule.check(context)) {
        const file = problem.file ?? record.file
        // a waiver covers one rule in one jurisdiction's one document
        if (waivers.some((w) => w.jurisdiction === id && w.rule === rule.id && w.document === file)) continue
        findings.push({
          file,
          pointer: problem.pointer,
          message: `${problem.message} [${id}; waiver rule id: ${rule.id}]`,
          severity: 'error',
          rule: `regulatory/${rule.id}`,
        })
      }
    }
  }
  return findings
}
