/**
 * Writes the document kinds' JSON Schemas (source of truth: kernel/documents/kinds.ts) to
 * schemas/kinds/*.schema.json, where each document's "$schema" points so an operator's editor
 * validates and completes while typing; action names and their params come from their one source,
 * kernel/actions/ (tools/actions). `--check` exits non-zero when any file is stale.
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { documentSchemas } from '../kernel/documents/kinds'
import { overlayFileSchema } from '../kernel/documents/overlay-schema'
import { collectActionDefinitions } from './actions/definitions'
import { withActions } from './actions/editor-schema'

const root = join(import.meta.dirname, '..')
const dir = join(root, 'schemas', 'kinds')
const check = process.argv.includes('--check')
mkdirSync(dir, { recursive: true })
let stale = 0

function emit(file: string, value: unknown): void {
  const text = JSON.stringify(value, null, 2) + '\n'
  const current = existsSync(file) ? readFileSync(file, 'utf8') : ''
  if (current === text) return
  stale++
  if (check) console.error(`${file}: out of date; run npm run schemas:emit`)
  else writeFileSync(file, text)
}

const actions = collectActionDefinitions()
for (const [kind, schema] of Object.entries(documentSchemas))
  emit(join(dir, `${kind}.schema.json`), { $schema: 'http://json-schema.org/draft-07/schema#', ...withActions(schema as Record<string, unknown>, actions) })
// jurisdiction overlays are partial documents: their editor schema says only what makes one an overlay
emit(join(dir, 'overlay.schema.json'), { $schema: 'http://json-schema.org/draft-07/schema#', ...overlayFileSchema })
if (check && stale > 0) process.exit(1)
if (!check) console.log(`kind schemas written to ${dir}`)
