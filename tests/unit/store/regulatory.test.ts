import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadDocuments, type DocumentRecord } from '../../../tools/schema-lint/documents/loader'
import { REGULATORY_RULES, regulatoryFindings } from '../../../tools/schema-lint/rules/regulatory'
import { identityRequirementChanges } from '../../../tools/schema-lint/rules/identity-rules'
import { regulatoryDiffFindings } from '../../../tools/schema-lint/rules/regulatory-diff'
import { SITES } from '../../support/sites'

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
    const findings = regulatoryFindings(edited('jurisdictions/spain/flows/signup-email.json', (d) => (d.steps[1].schema.required = d.steps[1].schema.required.filter((f: string) => f !== 'birthDay'))))
    expect(rules(findings)).toEqual(['regulatory/age-check'])
    expect(findings[0].file).toBe('jurisdictions/spain/flows/signup-email.json')
  })
  it('terms consent: a terms field that need not be true is an error', () => {
    const findings = regulatoryFindings(edited('jurisdictions/italy/flows/signup-email.json', (d) => delete d.steps[2].schema.properties.terms.const))
    expect(rules(findings)).toEqual(['regulatory/terms-consent'])
  })
  it('responsible-gambling link: the footer without it is an error for every jurisdiction, those with their own footer overlay too', () => {
    // loaded from an edited copy, so each jurisdiction's overlay is resolved on the edited shared footer
    const dir = mkdtempSync(join(tmpdir(), 'parlay-regulatory-'))
    cpSync(SCHEMAS, dir, { recursive: true })
    const file = join(dir, 'footers', 'footer.json')
    const footer = JSON.parse(readFileSync(file, 'utf8'))
    footer.items = footer.items.filter((i: { name: string }) => i.name !== 'responsibleGambling')
    writeFileSync(file, JSON.stringify(footer))
    const findings = regulatoryFindings(loadDocuments(dir).records)
    rmSync(dir, { recursive: true, force: true })
    expect(rules(findings)).toEqual(['regulatory/responsible-gambling-link'])
    expect([...new Set(findings.map((f) => f.message.match(/\[(\w+);/)![1]))].sort()).toEqual([...SITES].sort())
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
  it('a waiver silences exactly its rule in its jurisdiction and its document', () => {
    const file = 'jurisdictions/denmark/jurisdiction.json'
    const set = edited(file, (d) => delete d.regulatory.depositLimits)
    const waiver = { jurisdiction: 'denmark', rule: 'denmark-deposit-limits', document: file, reason: 'limits moved to the wallet' }
    expect(regulatoryFindings(set, [waiver])).toEqual([])
    expect(regulatoryFindings(set, [{ ...waiver, jurisdiction: 'spain' }])).toHaveLength(1)
    expect(regulatoryFindings(set, [{ ...waiver, document: 'jurisdictions/denmark/flows/signup-email.json' }])).toHaveLength(1)
    expect(regulatoryFindings(set, [{ ...waiver, rule: 'age-check' }])).toHaveLength(1)
  })
  it('every rule has a stable id and a description', () => {
    for (const rule of REGULATORY_RULES) {
      expect(rule.id).toMatch(/^[a-z][a-z-]+$/)
      expect(rule.description.length).toBeGreaterThan(10)
    }
  })
})

const SPAIN_FLOW = 'jurisdictions/spain/flows/signup-email.json'
const DENMARK_FLOW = 'jurisdictions/denmark/flows/signup-email.json'
const ITALY_FLOW = 'jurisdictions/italy/flows/signup-email.json'
const site = (id: string) => `jurisdictions/${id}/jurisdiction.json`
const personal = (d: Record<string, any>) => d.steps.find((s: { id: string }) => s.id === 'personal').schema
const sitesOf = (findings: { message: string }[]) => [...new Set(findings.map((f) => f.message.match(/\[(\w+);/)![1]))].sort()
const dropRequired = (field: string) => (d: Record<string, any>) => (personal(d).required = personal(d).required.filter((f: string) => f !== field))

describe('identity requirements the jurisdiction documents declare stay required at sign-up (rule identity-requirements)', () => {
  it("Spain's DNI/NIE: not required, a looser pattern, or the server check dropped — each is an error for Spain only", () => {
    for (const change of [dropRequired('documentNumber'), (d: Record<string, any>) => (personal(d).properties.documentNumber.pattern = '^.+$')]) {
      const findings = regulatoryFindings(edited(SPAIN_FLOW, change))
      expect(rules(findings)).toEqual(['regulatory/identity-requirements'])
      expect(sitesOf(findings)).toEqual(['spain'])
      expect(findings[0].file).toBe(SPAIN_FLOW)
      expect(findings[0].message).toContain('DNI/NIE')
    }
    const check = regulatoryFindings(edited(site('spain'), (d) => (d.signup.checks = [])))
    expect(rules(check)).toEqual(['regulatory/identity-requirements'])
    expect(check[0]).toMatchObject({ file: site('spain'), pointer: '/signup/checks' })
  })
  it("Denmark's CPR and MitID: the CPR field, requireCpr, the MitID provider and its return page", () => {
    expect(rules(regulatoryFindings(edited(DENMARK_FLOW, dropRequired('cpr'))))).toEqual(['regulatory/identity-requirements'])
    expect(regulatoryFindings(edited(site('denmark'), (d) => (d.signup.requireCpr = false)))[0]).toMatchObject({ pointer: '/signup/requireCpr', rule: 'regulatory/identity-requirements' })
    expect(regulatoryFindings(edited(site('denmark'), (d) => delete d.signup.identityProvider))[0].message).toContain('MitID')
    const noReturnPage = records.filter((r) => r.file !== 'screens/join-mitid.json')
    expect(regulatoryFindings(noReturnPage).map((f) => f.message)).toEqual([expect.stringContaining('/join/mitid')])
  })
  it("Italy's codice fiscale: the field and the server's fiscal-code check", () => {
    const findings = regulatoryFindings(edited(ITALY_FLOW, dropRequired('fiscalCode')))
    expect(rules(findings)).toEqual(['regulatory/identity-requirements'])
    expect(sitesOf(findings)).toEqual(['italy'])
    expect(rules(regulatoryFindings(edited(site('italy'), (d) => (d.signup.checks = ['italianCommune']))))).toEqual(['regulatory/identity-requirements'])
  })
  it('a site that declares no requirement is not held to another site\'s: Curaçao drops a document number freely', () => {
    expect(regulatoryFindings(edited('jurisdictions/curacao/flows/signup-email.json', (d) => (d.steps[0].schema.required = d.steps[0].schema.required.filter((f: string) => f !== 'documentNumber'))))).toEqual([])
  })
  it('dropping or loosening a declaration itself is an error of the same rule, unless a waiver covers the site document', () => {
    const after = edited(site('spain'), (d) => delete d.identityRequirements)
    const changes = identityRequirementChanges(records, after)
    expect(changes).toEqual([expect.objectContaining({ file: site('spain'), pointer: '/identityRequirements', rule: 'regulatory/identity-requirements', severity: 'error' })])
    expect(regulatoryFindings(after)).toEqual([]) // the set alone no longer knows the requirement
    const loosened = identityRequirementChanges(records, edited(site('denmark'), (d) => (d.identityRequirements[0].pattern = '^.*$')))
    expect(loosened.map((f) => f.message)).toEqual([expect.stringContaining('CPR number requirement is changed')])
    const waiver = { jurisdiction: 'spain', rule: 'identity-requirements', document: site('spain'), reason: 'DNI checked by the new KYC vendor' }
    expect(identityRequirementChanges(records, after, [waiver])).toEqual([])
    expect(identityRequirementChanges(records, after, [{ ...waiver, jurisdiction: 'italy' }])).toHaveLength(1)
  })
})

describe("a regulator's self-exclusion takes every operation away (rule regulator-self-exclusion)", () => {
  const letDeposit = (d: Record<string, any>) => (d.regulatory.restrictions.SELF_EXCLUSION_REGULATOR = ['bet', 'game'])
  it('letting regulator-excluded punters deposit is an error of the rule, on the site that allows it', () => {
    const findings = regulatoryFindings(edited(site('spain'), letDeposit))
    expect(findings).toEqual([expect.objectContaining({ rule: 'regulatory/regulator-self-exclusion', pointer: '/regulatory/restrictions/SELF_EXCLUSION_REGULATOR', file: site('spain') })])
    expect(findings[0].message).toContain('could deposit')
  })
  it('a site that does not list the type takes everything away: no finding', () => {
    expect(regulatoryFindings(edited(site('spain'), (d) => delete d.regulatory.restrictions.SELF_EXCLUSION_REGULATOR))).toEqual([])
  })
  it("the review diff's ERROR for the same change is a blocking finding too, covered by the rule's waiver of that document", () => {
    const after = edited(site('spain'), letDeposit)
    const files = new Set([site('spain')])
    const errors = regulatoryDiffFindings(records, after, files, [])
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.every((f) => f.rule === 'regulatory/self-exclusion-limits' && f.severity === 'error' && f.file === site('spain'))).toBe(true)
    const waiver = { jurisdiction: 'spain', rule: 'regulator-self-exclusion', document: site('spain'), reason: 'regulator register moved' }
    expect(regulatoryDiffFindings(records, after, files, [waiver])).toEqual([])
    expect(regulatoryDiffFindings(records, after, files, [{ ...waiver, rule: 'self-exclusion-limits' }])).toEqual([])
    expect(regulatoryDiffFindings(records, after, files, [{ ...waiver, rule: 'age-gate' }])).toHaveLength(errors.length)
    expect(regulatoryDiffFindings(records, after, files, [{ ...waiver, jurisdiction: 'italy' }])).toHaveLength(errors.length)
  })
  it('a harmless change has no regulatory diff error (a maxLength)', () => {
    const after = edited(SPAIN_FLOW, (d) => (personal(d).properties.firstName.maxLength = 40))
    expect(regulatoryDiffFindings(records, after, new Set([SPAIN_FLOW]), [])).toEqual([])
  })
})

