import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadDocuments, type DocumentRecord } from '../../../shared/documents/loader'
import { REGULATORY_RULES, regulatoryFindings } from '../../../tools/schema-lint/rules/regulatory'

const SCHEMAS = resolve(import.meta.dirname, '..', '..', '..', 'schemas')
let records: DocumentRecord[]
beforeAll(() => {
  records = loadDocuments(SCHEMAS).records
})

/** The set with one document edited (a deep copy; the loaded set stays intact). */
function edited(file: string, edit: (source: Record<string, any>) => void): DocumentRecord[] {
  return records.map((r) => {
    if (r.file !== file) return r
    const source = structuredClone(r.source) as Record<string, any>
    edit(source)
    return { ...r, source }
  })
}
const rules = (findings: { rule: string }[]) => [...new Set(findings.map((f) => f.rule))].sort()

describe('every jurisdiction keeps its mandatory blocks', () => {
  it('the documents in schemas/ pass every regulatory rule', () => {
    expect(regulatoryFindings(records)).toEqual([])
  })
  it('age check: a sign-up flow without a required birth date is an error', () => {
    const findings = regulatoryFindings(edited('jurisdictions/spain/flows/signup-email.json', (d) => (d.steps[1].schema.required = ['firstName'])))
    expect(rules(findings)).toEqual(['regulatory/age-check'])
    expect(findings[0].file).toBe('jurisdictions/spain/flows/signup-email.json')
  })
  it('terms consent: a terms field that need not be true is an error', () => {
    const findings = regulatoryFindings(edited('jurisdictions/italy/flows/signup-email.json', (d) => delete d.steps[2].schema.properties.terms.const))
    expect(rules(findings)).toEqual(['regulatory/terms-consent'])
  })
  it('responsible-gambling link: the footer without it is an error for every jurisdiction', () => {
    const findings = regulatoryFindings(edited('footers/footer.json', (d) => (d.items = d.items.filter((i: { name: string }) => i.name !== 'responsibleGambling'))))
    expect(rules(findings)).toEqual(['regulatory/responsible-gambling-link'])
    expect(new Set(findings.map((f) => f.message.match(/\[(\w+);/)![1])).size).toBe(7)
  })
  it('self-exclusion entry point: removing the after-login rule is an error', () => {
    const findings = regulatoryFindings(edited('jurisdictions/curacao/jurisdiction.json', (d) => (d.afterLogin = d.afterLogin.filter((r: { popup: string }) => r.popup !== 'self-exclude'))))
    expect(rules(findings)).toEqual(['regulatory/self-exclusion-entry'])
  })
  it('Denmark: the deposit-limit step (daily/weekly/monthly, 24 h wait) is mandatory', () => {
    expect(rules(regulatoryFindings(edited('jurisdictions/denmark/jurisdiction.json', (d) => delete d.regulatory.depositLimits)))).toEqual(['regulatory/denmark-deposit-limits'])
    expect(rules(regulatoryFindings(edited('jurisdictions/denmark/jurisdiction.json', (d) => (d.regulatory.depositLimits.increaseTakesEffectAfterHours = 1))))).toEqual(['regulatory/denmark-deposit-limits'])
  })
  it('Spain: the session reminder; Belarus: 21+; Italy and Curaçao: their exclusion periods', () => {
    expect(rules(regulatoryFindings(edited('jurisdictions/spain/jurisdiction.json', (d) => (d.regulatory.sessionReminder = false))))).toEqual(['regulatory/spain-session-reminder'])
    expect(rules(regulatoryFindings(edited('jurisdictions/belarus/jurisdiction.json', (d) => (d.minimumAge = 18))))).toEqual(['regulatory/belarus-minimum-age'])
    expect(rules(regulatoryFindings(edited('jurisdictions/italy/jurisdiction.json', (d) => (d.regulatory.selfExclusion.days = [30]))))).toEqual(['regulatory/italy-self-exclusion-periods'])
    expect(rules(regulatoryFindings(edited('jurisdictions/curacao/jurisdiction.json', (d) => (d.regulatory.selfExclusion.permanent = false))))).toEqual(['regulatory/curacao-self-exclusion-and-limits'])
  })
  it('an approved waiver for the jurisdiction and rule silences exactly that finding', () => {
    const set = edited('jurisdictions/denmark/jurisdiction.json', (d) => delete d.regulatory.depositLimits)
    expect(regulatoryFindings(set, [{ jurisdiction: 'denmark', rule: 'denmark-deposit-limits', reason: 'limits moved to the wallet' }])).toEqual([])
    expect(regulatoryFindings(set, [{ jurisdiction: 'spain', rule: 'denmark-deposit-limits', reason: 'wrong site' }])).toHaveLength(1)
  })
  it('every rule has a stable id and a description', () => {
    for (const rule of REGULATORY_RULES) {
      expect(rule.id).toMatch(/^[a-z][a-z-]+$/)
      expect(rule.description.length).toBeGreaterThan(10)
    }
  })
})
