/**
 * `npx tsx tools/overlays-convert.ts [documents dir]`: turns the jurisdictions' whole copies into
 * overlays where every site's resolved documents stay identical (tools/overlays/convert.ts), writes
 * the files and prints what became of each copy. Run once (issue 29); running it again converts
 * only copies made since. Writes nothing if any served document would change.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { listDocumentFiles } from './schema-lint/documents/loader'
import { convertCopies, servedDocuments } from './overlays/convert'

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'schemas'))
const before = new Map(listDocumentFiles(root).map((file) => [file, readFileSync(join(root, file), 'utf8')]))
const { texts: after, outcomes } = convertCopies(before)

const served = [servedDocuments(before), servedDocuments(after)]
const changed = [...new Set([...served[0].keys(), ...served[1].keys()])].filter((file) => JSON.stringify(served[0].get(file)) !== JSON.stringify(served[1].get(file)))
if (changed.length > 0) {
  console.error(`refused: these documents would be served differently: ${changed.join(', ')}`)
  process.exit(1)
}
for (const [file, text] of after) {
  if (before.get(file) === text) continue
  mkdirSync(dirname(join(root, file)), { recursive: true })
  writeFileSync(join(root, file), text)
}
for (const o of outcomes) console.log(`${o.outcome.padEnd(7)} ${o.file}${o.base ? ` ← ${o.base}` : ''}  ${o.bytes[0]} → ${o.bytes[1]} B${o.reason ? `  (${o.reason})` : ''}`)
console.log(`${outcomes.filter((o) => o.outcome === 'overlay').length} overlay(s), ${outcomes.filter((o) => o.outcome === 'whole').length} whole, ${outcomes.filter((o) => o.outcome === 'base').length} new base(s); every served document unchanged`)
