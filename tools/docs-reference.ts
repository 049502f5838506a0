/**
 * Writes docs/reference/documents.md, the documents reference, from the kinds' schemas
 * (kernel/documents/kinds.ts) and the action definitions (kernel/actions/), with real
 * examples from schemas/. `npm run docs:reference` writes it; `--check` (in `npm run docs:check`,
 * part of `npm test`) exits non-zero when the file is stale, so a changed kind or action that was
 * not regenerated fails the tests.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { documentSchemas, nodeKindProperties } from '../kernel/documents/kinds'
import { collectActionDefinitions } from './actions/definitions'
import { findExamples, readDocuments, type DocumentFile } from './docs/examples'
import { referenceMarkdown } from './docs/reference-markdown'
import type { Schema } from './docs/schema-words'

export const REFERENCE_FILE = join('docs', 'reference', 'documents.md')

function byKind(documents: DocumentFile[]): Map<string, { count: number; folders: string[] }> {
  const found = new Map<string, { count: number; folders: Set<string> }>()
  for (const { file, kind } of documents) {
    const entry = found.get(kind) ?? { count: 0, folders: new Set<string>() }
    entry.count++
    entry.folders.add(dirname(file))
    found.set(kind, entry)
  }
  return new Map([...found].map(([kind, { count, folders }]) => [kind, { count, folders: [...folders].sort() }]))
}

/** The reference as it should read now, for the repository at `root`. */
export function buildReference(root: string): string {
  const documents = readDocuments(root)
  const actions = collectActionDefinitions() as unknown as Record<string, { description: string; params: Schema }>
  const nodeCommon = (documentSchemas.screen.$defs.node as unknown as { properties: Schema }).properties
  return referenceMarkdown({
    documentSchemas: documentSchemas as unknown as Record<string, Schema>,
    nodeKindProperties: nodeKindProperties as unknown as Record<string, Schema>,
    nodeCommon,
    actions,
    examples: findExamples(documents, Object.keys(nodeKindProperties), Object.keys(actions)),
    documentsByKind: byKind(documents),
  })
}

function main(): void {
  const root = join(import.meta.dirname, '..')
  const file = join(root, REFERENCE_FILE)
  const text = buildReference(root)
  const current = existsSync(file) ? readFileSync(file, 'utf8') : ''
  if (process.argv.includes('--check')) {
    if (current === text) return
    console.error(`${REFERENCE_FILE}: out of date with the kinds' schemas, the action definitions or schemas/; run npm run docs:reference`)
    process.exit(1)
  }
  mkdirSync(dirname(file), { recursive: true })
  if (current !== text) writeFileSync(file, text)
  console.log(`${REFERENCE_FILE} written`)
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main()
