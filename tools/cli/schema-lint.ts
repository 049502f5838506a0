/**
 * `npm run schema-lint [-- <documents dir>]`: lint every document; prints `file:json-pointer: message`
 * lines and exits non-zero on any error. `schema-lint diff <old> <new>`: the semantic diff.
 * `schema-lint server-only`: the fields each kind keeps on the server.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadDocuments } from '../schema-lint'
import { lintRecords, type Finding } from '../schema-lint'
import { regulatoryFindings } from '../schema-lint'
import { serverOnlyListing } from '../schema-lint'

const ROOT = resolve(import.meta.dirname, '..', '..')

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'diff') {
    const diff = join(import.meta.dirname, 'schema-diff.ts')
    if (!existsSync(diff)) {
      console.error('schema-lint diff is not available in this build')
      return 2
    }
    const module = (await import(pathToFileURL(diff).href)) as { runDiffCli: (args: string[]) => Promise<number> }
    return module.runDiffCli(argv.slice(1))
  }
  if (argv[0] === 'server-only') {
    // The fields each kind keeps on the server (schema mark x-server-only): never served.
    for (const line of serverOnlyListing()) console.log(line)
    return 0
  }
  const dir = resolve(argv[0] ?? join(ROOT, 'schemas'))
  if (!existsSync(dir)) {
    console.error(`${dir}: no such folder`)
    return 2
  }
  // Schema and expressions, cross-references, then the regulatory blocks each jurisdiction must
  // keep (waivers live in the document store; the files in git have none).
  const { records, problems } = loadDocuments(dir)
  const findings: Finding[] = [
    ...problems.map((p) => ({ ...p, severity: 'error' as const, rule: 'schema' })),
    ...(await lintRecords(records)),
    ...regulatoryFindings(records, []),
  ]
  const errors = findings.filter((f) => f.severity === 'error')
  for (const finding of findings)
    console.log(`${finding.file}:${finding.pointer || '/'}: ${finding.severity === 'warning' ? 'warning: ' : ''}${finding.message}`)
  console.log(`schema-lint: ${errors.length} error(s), ${findings.length - errors.length} warning(s)`)
  return errors.length > 0 ? 1 : 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error('schema-lint failed:', (error as Error).message)
    process.exit(2)
  },
)
