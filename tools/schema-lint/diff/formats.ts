/**
 * The diff in four shapes: markdown (a pull request comment), HTML (the admin review page and a
 * standalone report), JSON (machines), SARIF 2.1.0 (code-scanning tools; the fingerprint goes in
 * `partialFingerprints` so an approval follows the finding across commits).
 */
import { IMPACT_CLASSES, IMPACT_LABELS } from './classify'
import type { DiffFinding } from './differ'

export const DIFF_FORMATS = ['markdown', 'html', 'json', 'sarif'] as const
export type DiffFormat = (typeof DIFF_FORMATS)[number]

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
const escapeMd = (s: string) => s.replace(/([\\`*_[\]|<>])/g, '\\$1')

export function summaryOf(findings: DiffFinding[]) {
  return {
    total: findings.length,
    error: findings.filter((f) => f.severity === 'error').length,
    warning: findings.filter((f) => f.severity === 'warning').length,
    note: findings.filter((f) => f.severity === 'note').length,
    byImpact: Object.fromEntries(IMPACT_CLASSES.map((c) => [c, findings.filter((f) => f.impact === c).length])),
  }
}

export function toJson(findings: DiffFinding[], meta: { before?: string; after?: string } = {}): string {
  return JSON.stringify({ ...meta, summary: summaryOf(findings), findings }, null, 2)
}

export function toMarkdown(findings: DiffFinding[], meta: { before?: string; after?: string } = {}): string {
  const s = summaryOf(findings)
  const lines = [`# Document changes${meta.before ? ` ${escapeMd(meta.before)} → ${escapeMd(meta.after ?? '')}` : ''}`, '']
  if (findings.length === 0) return [...lines, 'No semantic changes.', ''].join('\n')
  lines.push(`${s.total} change(s): ${s.error} error(s), ${s.warning} warning(s), ${s.note} note(s).`, '')
  for (const impact of IMPACT_CLASSES) {
    const group = findings.filter((f) => f.impact === impact)
    if (group.length === 0) continue
    lines.push(`## ${IMPACT_LABELS[impact]}`, '', '| severity | change | where | fingerprint |', '|---|---|---|---|')
    for (const f of group) lines.push(`| ${f.severity} | ${escapeMd(f.message)} | \`${f.document.file}\` \`${f.location.replace(/`/g, "'")}\` | \`${f.fingerprint}\` |`)
    lines.push('')
  }
  return lines.join('\n')
}

/** The findings as an HTML fragment (no inline style or script: the admin CSP forbids them). */
export function toHtmlFragment(findings: DiffFinding[]): string {
  if (findings.length === 0) return '<p class="diff-empty">No semantic changes.</p>'
  const parts: string[] = []
  for (const impact of IMPACT_CLASSES) {
    const group = findings.filter((f) => f.impact === impact)
    if (group.length === 0) continue
    parts.push(`<section class="diff-group diff-${impact}"><h3>${escapeHtml(IMPACT_LABELS[impact])} <span class="count">${group.length}</span></h3><ul>`)
    for (const f of group)
      parts.push(
        `<li class="finding severity-${f.severity}" data-fingerprint="${f.fingerprint}"><span class="severity">${f.severity}</span> ` +
          `<span class="message">${escapeHtml(f.message)}</span> <code class="where">${escapeHtml(f.document.file)} ${escapeHtml(f.location)}</code></li>`,
      )
    parts.push('</ul></section>')
  }
  return parts.join('\n')
}

export function toHtml(findings: DiffFinding[], meta: { before?: string; after?: string } = {}): string {
  const s = summaryOf(findings)
  const title = `Document changes${meta.before ? ` ${meta.before} → ${meta.after ?? ''}` : ''}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1>
<p>${s.total} change(s): ${s.error} error(s), ${s.warning} warning(s), ${s.note} note(s).</p>
${toHtmlFragment(findings)}
</body></html>
`
}

export function toSarif(findings: DiffFinding[], meta: { before?: string; after?: string; root?: string } = {}): string {
  const rules = [...new Set(findings.map((f) => `${f.impact}/${f.rule}`))].sort()
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'schema-lint-diff',
            informationUri: 'https://parlay.example/tools/schema-lint',
            rules: rules.map((id) => {
              const [impact] = id.split('/')
              return { id, name: id.replace(/[^A-Za-z0-9]+/g, '-'), shortDescription: { text: `${IMPACT_LABELS[impact as keyof typeof IMPACT_LABELS]}: ${id.split('/')[1]}` } }
            }),
          },
        },
        ...(meta.before ? { properties: { before: meta.before, after: meta.after } } : {}),
        results: findings.map((f) => ({
          ruleId: `${f.impact}/${f.rule}`,
          ruleIndex: rules.indexOf(`${f.impact}/${f.rule}`),
          level: f.severity,
          message: { text: f.message },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: `schemas/${f.document.file}` } },
              logicalLocations: [{ fullyQualifiedName: `${f.document.kind}:${f.document.jurisdiction || '*'}:${f.document.id}${f.location}`, kind: 'member' }],
            },
          ],
          partialFingerprints: { 'parlayDiff/v1': f.fingerprint },
          properties: { impact: f.impact, direction: f.direction, before: f.before, after: f.after },
        })),
      },
    ],
  }
  return JSON.stringify(sarif, null, 2)
}

export function render(format: DiffFormat, findings: DiffFinding[], meta: { before?: string; after?: string } = {}): string {
  switch (format) {
    case 'markdown':
      return toMarkdown(findings, meta)
    case 'html':
      return toHtml(findings, meta)
    case 'json':
      return toJson(findings, meta)
    case 'sarif':
      return toSarif(findings, meta)
  }
}
