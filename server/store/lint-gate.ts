/**
 * The lint gate a version passes before review and again before it goes live: the document must
 * load (JSON, its kind's schema, its expressions), must not collide with another file's identity,
 * and the set with it in place must add no schema-lint or regulatory error.
 *
 * Errors the published set already has (the seed from git may carry some while other parts of the
 * product are being built) do not block an unrelated change: they come back as warnings marked
 * "already published", so the reviewer still sees them. They are matched by file, rule and
 * message, not pointer, so inserting a button does not make an old finding look new.
 */
import { readDocument, variantOf, type DocumentProblem, type DocumentRecord } from '../../tools/schema-lint'
import { lintRecords, type Finding } from '../../tools/schema-lint'
import { regulatoryFindings, type Waiver } from '../../tools/schema-lint'

export type GateFinding = Finding

const identity = (r: DocumentRecord) => `${r.kind}/${r.id}/${r.jurisdiction}/${variantOf(r)}`
const findingKey = (f: Finding) => `${f.file}|${f.rule}|${f.message}`

async function setFindings(records: DocumentRecord[], waivers: Waiver[]): Promise<Finding[]> {
  return [...(await lintRecords(records)), ...regulatoryFindings(records, waivers)]
}

/** The gate of one version: a release of that version alone. */
export function lintGate(input: { file: string; content: string; baseline: DocumentRecord[]; waivers: Waiver[]; baselineFindings?: Promise<Finding[]> }): Promise<GateFinding[]> {
  return lintReleaseGate({ versions: [{ file: input.file, content: input.content, deleted: false }], ...input })
}

/** The gate for a deletion: the set without the file must add no error (nothing may still need it). */
export async function lintDeletionGate(input: { file: string; baseline: DocumentRecord[]; waivers: Waiver[]; baselineFindings?: Promise<Finding[]> }): Promise<GateFinding[]> {
  const others = input.baseline.filter((r) => r.file !== input.file)
  const [before, after] = await Promise.all([input.baselineFindings ?? setFindings(input.baseline, input.waivers), setFindings(others, input.waivers)])
  const known = new Map<string, number>()
  for (const f of before) known.set(findingKey(f), (known.get(findingKey(f)) ?? 0) + 1)
  return after.filter((f) => {
    const left = known.get(findingKey(f)) ?? 0
    if (left > 0) known.set(findingKey(f), left - 1)
    return left === 0 && f.severity === 'error'
  })
}

/**
 * The gate for a release: every version must load and not collide, and the set with ALL of them in
 * place must add no error (two lint runs whatever the release's size, and a flow may use a popup
 * the same release adds). A deletion takes its file out of the set.
 */
export async function lintReleaseGate(input: {
  versions: { file: string; content: string; deleted: boolean }[]
  baseline: DocumentRecord[]
  waivers: Waiver[]
  /** The baseline's own findings when the caller already has them (they change only with the published set). */
  baselineFindings?: Promise<Finding[]>
}): Promise<GateFinding[]> {
  const problems: DocumentProblem[] = []
  const records = input.versions.filter((v) => !v.deleted).flatMap((v) => readDocument(v.file, v.content, problems) ?? [])
  if (problems.length > 0) return problems.map((p) => ({ ...p, severity: 'error' as const, rule: 'schema' }))
  const files = new Set(input.versions.map((v) => v.file))
  const others = input.baseline.filter((r) => !files.has(r.file))
  const clashes: GateFinding[] = []
  records.forEach((record, i) => {
    const clash = [...others, ...records.slice(0, i)].find((r) => identity(r) === identity(record))
    if (clash) clashes.push({ file: record.file, pointer: '/id', message: `duplicate ${record.kind} ${JSON.stringify(record.id)}: also defined in ${clash.file}`, severity: 'error', rule: 'schema' })
  })
  if (clashes.length > 0) return clashes
  const [before, after] = await Promise.all([input.baselineFindings ?? setFindings(input.baseline, input.waivers), setFindings([...others, ...records], input.waivers)])
  const known = new Map<string, number>()
  for (const f of before) known.set(findingKey(f), (known.get(findingKey(f)) ?? 0) + 1)
  const out: GateFinding[] = []
  for (const f of after) {
    const left = known.get(findingKey(f)) ?? 0
    if (left > 0) {
      known.set(findingKey(f), left - 1)
      if (files.has(f.file)) out.push({ ...f, severity: 'warning', message: `${f.message} (already published)` })
      continue
    }
    if (f.severity === 'error' || files.has(f.file)) out.push(f)
  }
  return out
}

/** The findings of a set on its own (the "before" side of a gate). */
export const findingsOf = (records: DocumentRecord[], waivers: Waiver[]): Promise<Finding[]> => setFindings(records, waivers)
