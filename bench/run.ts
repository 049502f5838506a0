/**
 * `npm run bench`: benchmarks, not timed tests. Every number is reported beside a baseline measured
 * in the same run (bare React, the reference CEL interpreter, GrowthBook), since machines are noisy.
 * Writes bench/results.json and prints a table.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

type Bench = { name: string; file: string; exportName: string }
const benches: Bench[] = [
  { name: 'lobby', file: 'lobby.ts', exportName: 'runLobbyBench' },
  { name: 'expressions', file: 'expressions.ts', exportName: 'runExpressionsBench' },
  { name: 'experiments', file: 'experiments.ts', exportName: 'runExperimentsBench' },
  { name: 'first-load', file: 'first-load.ts', exportName: 'runFirstLoadBench' },
  { name: 'realtime', file: 'realtime.ts', exportName: 'runRealtimeBench' },
  { name: 'server', file: 'server.ts', exportName: 'runServerBench' },
  { name: 'scale', file: 'scale.ts', exportName: 'runScaleBench' },
  { name: 'heartbeat-cost', file: 'heartbeat-cost.ts', exportName: 'runHeartbeatCostBench' },
  { name: 'games', file: 'games.ts', exportName: 'runGamesBench' },
  { name: 'interactions', file: 'interactions.ts', exportName: 'runInteractionsBench' },
  { name: 'live-page', file: 'live-page.ts', exportName: 'runLivePageBench' },
  { name: 'call-cost', file: 'call-cost.ts', exportName: 'runCallCostBench' },
  { name: 'checks', file: 'checks.ts', exportName: 'runChecksBench' },
]

const only = process.argv.slice(2)
// a run of some benches (`npm run bench first-load`) keeps the other benches' last results
const resultsFile = join(import.meta.dirname, 'results.json')
const previous = only.length > 0 && existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, unknown>) : {}
const results: Record<string, unknown> = { ...previous, machine: { node: process.version, cpus: (await import('node:os')).cpus().length }, at: new Date().toISOString() }
for (const bench of benches) {
  if (only.length > 0 && !only.includes(bench.name)) continue
  const file = join(import.meta.dirname, bench.file)
  if (!existsSync(file)) {
    results[bench.name] = { skipped: 'not present in this build' }
    continue
  }
  process.stdout.write(`running ${bench.name}…\n`)
  const module = (await import(pathToFileURL(file).href)) as Record<string, () => Promise<unknown>>
  // the every-route run keeps its own entry beside the default three pages' figures
  const key = bench.name === 'first-load' && process.env.PARLAY_BENCH_ROUTES === 'all' ? 'first-load-every-route' : bench.name
  try {
    results[key] = await module[bench.exportName]()
  } catch (error) {
    results[key] = { failed: (error as Error).message }
  }
}

writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n')
const rows: [string, string][] = []
const flatten = (prefix: string, value: unknown) => {
  if (value && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v)
  else rows.push([prefix, Array.isArray(value) ? JSON.stringify(value) : String(value)])
}
for (const [name, value] of Object.entries(results)) if (name !== 'at') flatten(name, value)
const width = Math.max(...rows.map(([k]) => k.length))
console.log('\n' + rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'))
console.log('\nwritten bench/results.json')
