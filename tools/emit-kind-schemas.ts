/**
 * Writes the document kinds' JSON Schemas (source of truth: engine/documents/kinds.ts) to
 * schemas/kinds/*.schema.json, where each document's "$schema" points so an operator's editor
 * validates and completes while typing. `--check` exits non-zero when the files are stale.
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { documentSchemas } from '../engine/documents/kinds'

const dir = join(import.meta.dirname, '..', 'schemas', 'kinds')
const check = process.argv.includes('--check')
mkdirSync(dir, { recursive: true })
let stale = 0
for (const [kind, schema] of Object.entries(documentSchemas)) {
  const file = join(dir, `${kind}.schema.json`)
  const text = JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...schema }, null, 2) + '\n'
  const current = existsSync(file) ? readFileSync(file, 'utf8') : ''
  if (current === text) continue
  stale++
  if (check) console.error(`${file}: out of date; run npm run schemas:emit`)
  else writeFileSync(file, text)
}
if (check && stale > 0) process.exit(1)
if (!check) console.log(`kind schemas written to ${dir}`)
