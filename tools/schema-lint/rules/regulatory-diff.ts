/**
 * Every ERROR the semantic diff finds in a regulatory class (age gate, consent and legal,
 * self-exclusion and limits, responsible gambling: classify.ts COMPLIANCE_CLASSES — a loosened
 * rule) blocks a change, unless an active waiver covers it in every jurisdiction the changed
 * document reaches. A waiver covers a diff error when it names the error's document, a
 * jurisdiction the document reaches and either the error's class itself (`consent-legal`) or a
 * regulatory rule that guards that class (`terms-consent`), so one waiver settles both the rule's
 * finding and the diff's error of the same change.
 *
 * Before, only the review showed these errors: a change letting regulator-excluded punters deposit
 * was marked ERROR in the diff and still went live.
 */
import { COMPLIANCE_CLASSES, type ImpactClass } from '../diff/classify'
import { diffDocumentSets, type DocumentRef } from '../diff/differ'
import type { Finding } from '../finding'
import { REGULATORY_RULES, type Records, type Waiver } from './regulatory'

/** The waiver rule ids that cover a diff error of this class. */
export function coveringRules(impact: ImpactClass): string[] {
  return [impact, ...REGULATORY_RULES.filter((r) => r.impact === impact).map((r) => r.id)]
}

/** The jurisdictions served this document: its own, or (shared) every site without a copy of its own. */
function reachedBy(doc: DocumentRef, records: Records): string[] {
  if (doc.jurisdiction) return [doc.jurisdiction]
  return records
    .filter((r) => r.kind === 'jurisdiction')
    .map((site) => site.id)
    .filter((site) => !records.some((r) => r.kind === doc.kind && r.id === doc.id && r.jurisdiction === site))
}

/**
 * The diff's regulatory errors between two sets, for the changed files only, that no active
 * waiver covers. `pointer` is the diff's location (a JSON path keyed by identity).
 */
export function regulatoryDiffFindings(before: Records, after: Records, files: ReadonlySet<string>, waivers: readonly Waiver[]): Finding[] {
  const diff = diffDocumentSets(
    before.filter((r) => files.has(r.file)),
    after.filter((r) => files.has(r.file)),
  )
  const findings: Finding[] = []
  for (const error of diff) {
    if (error.severity !== 'error' || !COMPLIANCE_CLASSES.has(error.impact)) continue
    const rules = coveringRules(error.impact)
    const reached = reachedBy(error.document, error.rule === 'document.removed' ? before : after)
    const open = reached.filter((site) => !waivers.some((w) => w.jurisdiction === site && w.document === error.document.file && rules.includes(w.rule)))
    if (open.length === 0) continue
    findings.push({
      file: error.document.file,
      pointer: error.location,
      message: `${error.message}: a regulatory ERROR of the review's diff [${open.join(', ')}; waiver rule id: ${error.impact}${rules.length > 1 ? ' or a rule of that class' : ''}]`,
      severity: 'error',
      rule: `regulatory/${error.impact}`,
    })
  }
  return findings
}
