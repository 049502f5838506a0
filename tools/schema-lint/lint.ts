/**
 * schema-lint: every document against its kind's schema (with expressions parsed and type-checked
 * by the loader), then the cross-references no single schema can see: action names and params
 * against the registry, popup ids, routes, menus, flows, and i18n keys in every shipped locale.
 *
 * Findings print as `file:json-pointer: message`, the same shape the server uses when it refuses
 * to start, so an operator learns one format.
 */
import { loadDocuments, type DocumentRecord } from './documents/loader'
import { errorTextFindings } from './rules/error-texts'
import { translationFindings } from './rules/translations'
import { serverOnlyFindings } from './rules/server-only'
import { promotionFindings } from './rules/promotions'
import { gameFindings } from './rules/games'
import { codeChannelFindings } from './rules/code-channels'
import { repeatedHeadingFindings } from './rules/repeated-heading'
import { missingTranslationFindings } from './rules/locale-parity'
import { checkRedirects } from '../../kernel/core/routes'
import { actionDefinitions } from '../../kernel/actions/index'
import { indexRecords, redirectsOf, type RecordIndex } from './record-index'
import { createReferenceChecks, type ActionDefinition, type AddFinding, type ReferenceChecks } from './references'
import type { Finding } from './finding'

export type { Finding } from './finding'
export type { ActionDefinition } from './references'

export interface LintOptions {
  /** name → params schema; defaults to the engine's action catalogue. */
  actions?: Record<string, ActionDefinition>
}

/** Every action (built-ins, each domain's and the form actions) from their one source, the
 * definitions data module: the lint core never loads the browser action runtime. */
function defaultActions(): Record<string, ActionDefinition> {
  return actionDefinitions
}

export async function lintDocuments(root: string, options: LintOptions = {}): Promise<Finding[]> {
  const { records, problems } = loadDocuments(root)
  const findings: Finding[] = problems.map((p) => ({ ...p, severity: 'error', rule: 'schema' }))
  findings.push(...(await lintRecords(records, options)))
  return findings
}

export async function lintRecords(records: DocumentRecord[], options: LintOptions = {}): Promise<Finding[]> {
  const findings: Finding[] = []
  const add: AddFinding = (record, pointer, rule, message, severity = 'error') => findings.push({ file: record.file, pointer, message, rule, severity })
  const index = indexRecords(records)
  const checks = createReferenceChecks(index, options.actions ?? defaultActions(), add)
  for (const record of records) lintReferences(record, index, checks, add)
  // Every shipped locale has the same keys (a key in one locale only is a missing translation).
  findings.push(...missingTranslationFindings(records, index.translations))
  // declared locales, code and error-catalogue keys, plural forms, placeholders (rules/translations.ts)
  findings.push(...translationFindings(records))
  findings.push(...errorTextFindings(records))
  findings.push(...serverOnlyFindings(records))
  findings.push(...promotionFindings(records))
  findings.push(...gameFindings(records))
  findings.push(...codeChannelFindings(records), ...repeatedHeadingFindings(records))
  return findings
}

/** One document's references: its whole tree, then what its kind links to (menu, footer and header items, redirects, after-login popups). */
function lintReferences(record: DocumentRecord, index: RecordIndex, { visit, checkRoute }: ReferenceChecks, add: AddFinding) {
  if (record.kind === 'translations' || record.kind === 'remote-config') return
  if (record.kind === 'promotion') return // its texts are inline copy, not i18n keys (rules/promotions.ts)
  visit(record, record.source, '', null)
  if (record.kind === 'menu' || record.kind === 'footer')
    (record.source.items as Record<string, unknown>[]).forEach((item, i) => {
      if (typeof item.to === 'string') checkRoute(record, `/items/${i}/to`, item.to)
    })
  if (record.kind === 'redirects')
    for (const problem of checkRedirects({ screens: index.routes, redirects: redirectsOf(record) }))
      add(record, `/redirects/${problem.index}/${problem.field}`, 'redirect', problem.message, problem.severity)
  if (record.kind === 'header') {
    const header = record.source as { items?: { to?: unknown }[]; profile?: { links?: { to?: unknown }[] } }
    ;(header.items ?? []).forEach((item, i) => checkRoute(record, `/items/${i}/to`, item.to))
    ;(header.profile?.links ?? []).forEach((link, i) => checkRoute(record, `/profile/links/${i}/to`, link.to))
  }
  if (record.kind === 'jurisdiction')
    ((record.source.afterLogin ?? []) as { popup: string }[]).forEach((rule, i) => {
      if (!index.popups.has(rule.popup)) add(record, `/afterLogin/${i}/popup`, 'popup', `no popup document has the id ${JSON.stringify(rule.popup)}`)
    })
}
