import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { diffDocumentSets, type DocumentSnapshot } from '../../../tools/schema-lint/diff/differ'

interface Vectors {
  baseline: { file: string; jurisdiction: string; source: Record<string, unknown> }[]
  cases: { name: string; edit: { file: string; pointer: string; value: unknown }; expected: { message: string; impact: string; severity: string }[] }[]
}

const vectors = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'vectors', 'diff', 'changes.json'), 'utf8')) as Vectors

const snapshots = (): DocumentSnapshot[] =>
  structuredClone(vectors.baseline).map((d) => ({ kind: String(d.source.kind), id: String(d.source.id), jurisdiction: d.jurisdiction, file: d.file, source: d.source }))

function setPointer(target: Record<string, unknown>, pointer: string, value: unknown) {
  const parts = pointer.split('/').slice(1)
  let node: any = target
  for (const part of parts.slice(0, -1)) node = node[part]
  node[parts[parts.length - 1]] = value
}

describe('diff vectors (tests/vectors/diff/changes.json)', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    const after = snapshots()
    setPointer(after.find((d) => d.file === vector.edit.file)!.source, vector.edit.pointer, vector.edit.value)
    const findings = diffDocumentSets(snapshots(), after).map((f) => ({ message: f.message, impact: f.impact, severity: f.severity }))
    expect(findings).toEqual(vector.expected)
  })
})
