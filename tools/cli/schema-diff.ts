/**
 * `schema-lint diff <old> <new> [--format markdown|html|json|sarif] [--out file] [--data dir]
 *   [--fail-on error|warning|never] [--approved file]`
 *
 * Each side is a documents folder, a git ref (its `schemas/` tree, e.g. `HEAD~1`, `main`), or a
 * store version `store:<id>` (with `--data`, the server's data folder). `--approved` names a file
 * of approved fingerprints (one a line, or the JSON of an earlier run): those findings do not fail.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { diffDocumentSets } from '../schema-lint'
import { DIFF_FORMATS, render, type DiffFormat } from '../schema-lint'
import { loadSide, type StoreSource } from '../schema-lint'

const USAGE = 'usage: schema-lint diff <old> <new> [--format markdown|html|json|sarif] [--out file] [--data dir] [--fail-on error|warning|never] [--approved file]'

function readApproved(file: string): Set<string> {
  const text = readFileSync(file, 'utf8')
  try {
    const json = JSON.parse(text) as { findings?: { fingerprint: string }[] } | string[]
    if (Array.isArray(json)) return new Set(json.map(String))
    return new Set((json.findings ?? []).map((f) => f.fingerprint))
  } catch {
    return new Set(text.split(/\s+/).filter(Boolean))
  }
}

async function storeSource(dataDir: string, specs: string[]): Promise<StoreSource> {
  const { openStoreSnapshots } = await import('../../server/store/snapshots')
  const ids = specs.flatMap((spec) => /^store:(\d+)$/.exec(spec)?.[1] ?? []).map(Number)
  return openStoreSnapshots(join(dataDir), ids)
}

export async function runDiffCli(args: string[]): Promise<number> {
  const positional: string[] = []
  const options: Record<string, string> = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg.startsWith('--')) {
      const value = args[i + 1]
      if (value === undefined) {
        console.error(USAGE)
        return 2
      }
      options[arg.slice(2)] = value
      i++
    } else positional.push(arg)
  }
  if (positional.length !== 2) {
    console.error(USAGE)
    return 2
  }
  const format = (options.format ?? 'markdown') as DiffFormat
  if (!DIFF_FORMATS.includes(format)) {
    console.error(`unknown format ${format}; expected ${DIFF_FORMATS.join(', ')}`)
    return 2
  }
  const failOn = options['fail-on'] ?? 'error'
  if (!['error', 'warning', 'never'].includes(failOn)) {
    console.error(USAGE)
    return 2
  }
  try {
    const store = options.data ? await storeSource(options.data, positional) : undefined
    const [before, after] = positional.map((side) => loadSide(side, { store }))
    const findings = diffDocumentSets(before, after)
    const output = render(format, findings, { before: positional[0], after: positional[1] })
    if (options.out) writeFileSync(options.out, output)
    else process.stdout.write(output.endsWith('\n') ? output : output + '\n')
    const approved = options.approved && existsSync(options.approved) ? readApproved(options.approved) : new Set<string>()
    const blocking = findings.filter(
      (f) => !approved.has(f.fingerprint) && (failOn === 'error' ? f.severity === 'error' : failOn === 'warning' ? f.severity !== 'note' : false),
    )
    return blocking.length > 0 ? 1 : 0
  } catch (error) {
    console.error(`schema-lint diff: ${(error as Error).message}`)
    return 2
  }
}
