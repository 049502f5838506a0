/**
 * What the gate checks after the lint (./lint-gate.ts) passes, on the whole published set with the
 * change in place — the same for a studio's live lint, a submit, an approval, a publish and a
 * release:
 *
 * 1. the server's own check of a set it installs (server/documents/set-check.ts: the sites, every
 *    flow step's validators compiled by ajv as the server compiles them);
 * 2. the regulatory errors the lint of one set cannot see: a declared identity requirement dropped
 *    or changed, and every ERROR of the review diff's regulatory classes
 *    (tools/schema-lint/rules/regulatory-diff.ts) — each unless an active waiver covers it (not for
 *    a rollback, which restores content approved before);
 * 3. when nothing above failed, a render of every page the change touches on every site and in
 *    every locale it reaches, by this server (./page-check.ts).
 *
 * Findings read `file:json-pointer: message` with a rule (`server`, `regulatory/…`, `render`).
 */
import { readDocument, type DocumentProblem, type DocumentRecord } from '../../tools/schema-lint'
import { identityRequirementChanges } from '../../tools/schema-lint'
import { regulatoryDiffFindings } from '../../tools/schema-lint'
import type { Waiver } from '../../tools/schema-lint'
import { checkServedSet } from '../documents/set-check'
import type { GateFinding } from './lint-gate'
import type { PageCheck } from './page-check'

export interface PublishCheckInput {
  /** A rollback's versions restore content approved before: the diff's regulatory errors (what
   * the restored content loosens against what is live) do not apply to them. */
  versions: readonly { file: string; content: string; deleted: boolean; origin?: string }[]
  baseline: DocumentRecord[]
  waivers: Waiver[]
  /** The page render (absent until the server listens, and in unit tests of the store). */
  pages?: PageCheck
}

const asFinding = (rule: string, files: ReadonlySet<string>) => (p: DocumentProblem): GateFinding =>
  // a set problem in a file the change does not touch was there before: not this change's fault
  files.has(p.file) || p.file === 'jurisdictions' ? { ...p, severity: 'error', rule } : { ...p, message: `${p.message} (already published)`, severity: 'warning', rule }

/** The candidate set: the baseline with every version in place (deletions taken out). */
export function candidateSet(baseline: readonly DocumentRecord[], versions: PublishCheckInput['versions']): { records: DocumentRecord[]; problems: DocumentProblem[] } {
  const files = new Set(versions.map((v) => v.file))
  const problems: DocumentProblem[] = []
  const changed = versions.filter((v) => !v.deleted).flatMap((v) => readDocument(v.file, v.content, problems) ?? [])
  return { records: [...baseline.filter((r) => !files.has(r.file)), ...changed], problems }
}

/**
 * The checks after the lint. With `lintFailed` only the regulatory ones run (cheap, and compliance
 * sees every regulatory error of a change at once); nothing is compiled or rendered until the lint
 * passes.
 */
export async function publishChecks(input: PublishCheckInput & { lintFailed?: boolean }): Promise<GateFinding[]> {
  const files = new Set(input.versions.map((v) => v.file))
  const { records: after, problems } = candidateSet(input.baseline, input.versions)
  if (problems.length > 0) return input.lintFailed ? [] : problems.map(asFinding('schema', files))
  const restoring = input.versions.every((v) => v.origin === 'rollback')
  const regulatory = restoring ? [] : [...identityRequirementChanges(input.baseline, after, input.waivers), ...regulatoryDiffFindings(input.baseline, after, files, input.waivers)]
  if (input.lintFailed) return regulatory
  const found = [...checkServedSet(after).map(asFinding('server', files)), ...regulatory]
  if (found.some((f) => f.severity === 'error') || !input.pages) return found
  return [...found, ...(await input.pages({ before: input.baseline, after, files }))]
}
