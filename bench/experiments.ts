/**
 * Flag evaluations per second: our experiment client beside @growthbook/growthbook evaluating an
 * equivalent feature in the same run (machines are noisy; only the ratio means much).
 *
 *   npx tsx bench/experiments.ts      → prints a table, writes bench/experiments-results.json
 *   runExperimentsBench()             → used by `npm run bench` (bench/run.ts)
 *
 * Scenarios, each built the same way on both sides:
 * - targeting: a bool flag with one rule (geo.code equal BR → true) and a default (false), for a
 *   visitor the rule matches. Full public call on both sides: attributes in, value out.
 * - anyOf: a string flag with an 'any of' rule over 20 country codes, visitor not matching.
 * - experiment: a flag whose value follows a two-group 50/50 experiment with allocation 100.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { GrowthBook } from '@growthbook/growthbook'
import { Sigma } from '../kernel/experiments/client'
import { opsPerSecond } from './measure'
import { evaluateFlag } from '../kernel/experiments/flags'
import type { ExperimentsConfig, KeyValueStorage } from '../kernel/experiments/types'


/**
 * The machine is shared and noisy: contenders run in alternating short rounds and each reports its
 * median round, so a burst of load hits both sides alike.
 */
function compare(contenders: Record<string, () => void>, rounds = 7, roundMs = 120): Record<string, number> {
  for (const run of Object.values(contenders)) for (let i = 0; i < 5000; i++) run() // warm-up
  const samples: Record<string, number[]> = {}
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of Object.entries(contenders)) (samples[name] ??= []).push(opsPerSecond(run, roundMs))
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  return Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]))
}

function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>()
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) }
}

const COUNTRIES = ['AR', 'AT', 'BE', 'BG', 'CL', 'CO', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HU', 'IT', 'LT', 'LV', 'MX', 'PE']

const config: ExperimentsConfig = {
  feature_flags: [
    {
      name: 'cpf',
      type: 'bool',
      rules: [
        { id: 1, value: 'true', is_default: false, conditions: [{ name: 'geo.code', value: 'BR', condition_sign: 'equal' }] },
        { id: 2, value: 'false', is_default: true },
      ],
    },
    {
      name: 'banner',
      type: 'string',
      rules: [
        { id: 1, value: 'eu', is_default: false, conditions: [{ name: 'geo.code', value: COUNTRIES, condition_sign: 'any of' }] },
        { id: 2, value: 'default', is_default: true },
      ],
    },
    { name: 'depositCta', type: 'string', rules: [{ id: 1, value: 'Deposit', is_default: true }], groups: [{ name: 'a', value: 'Deposit' }, { name: 'b', value: 'Top up' }] },
  ],
  experiments: [{ name: 'depositCtaTest', salt: 'cta', allocation: 100, groups: [{ name: 'a' }, { name: 'b' }], feature_flags: ['depositCta'] }],
}

const growthbookFeatures = {
  cpf: { defaultValue: false, rules: [{ condition: { 'geo.code': 'BR' }, force: true }] },
  banner: { defaultValue: 'default', rules: [{ condition: { 'geo.code': { $in: COUNTRIES } }, force: 'eu' }] },
  depositCta: {
    defaultValue: 'Deposit',
    rules: [{ key: 'depositCtaTest', variations: ['Deposit', 'Top up'], weights: [0.5, 0.5], coverage: 1, hashAttribute: 'id' }],
  },
}

export async function runExperimentsBench(): Promise<object> {
  const sigma = new Sigma({
    token: 'bench-token',
    api: '/experiments/api',
    storage: memoryStorage(),
    fetch: async () => ({ status: 200, text: async () => JSON.stringify(config) }),
    readCookie: () => undefined,
    random: () => 0.5,
    visitor: { userId: 'punter-42' },
    geo: { code: 'BR', country: 'Brazil' },
  })
  await sigma.loadConfig()
  const growthbook = new GrowthBook({
    attributes: { id: 'punter-42', geo: { code: 'BR', country: 'Brazil' } },
    features: growthbookFeatures,
    trackingCallback: () => undefined,
  })

  // Same answers first: a benchmark of different behaviour measures nothing.
  const same = {
    targeting: sigma.getFlag('cpf') === true && growthbook.evalFeature('cpf').value === true,
    anyOf: sigma.getFlag('banner') === 'default' && growthbook.evalFeature('banner').value === 'default',
  }
  if (!same.targeting || !same.anyOf) throw new Error(`scenarios disagree: ${JSON.stringify(same)}`)

  const attributes = sigma.attributes()
  const cpfFlag = config.feature_flags[0]
  const scenarios = {
    targeting: compare({
      parlay: () => sigma.getFlag('cpf'),
      parlayPrecomputedAttributes: () => evaluateFlag(cpfFlag, attributes),
      growthbook: () => growthbook.evalFeature('cpf'),
    }),
    anyOf: compare({ parlay: () => sigma.getFlag('banner'), growthbook: () => growthbook.evalFeature('banner') }),
    experiment: compare({ parlay: () => sigma.getFlag('depositCta'), growthbook: () => growthbook.evalFeature('depositCta') }),
  }
  growthbook.destroy()
  const round = (n: number) => Math.round(n)
  const result: Record<string, unknown> = { unit: 'flag evaluations per second', node: process.version }
  for (const [name, s] of Object.entries(scenarios)) {
    const entry: Record<string, number> = {}
    for (const [k, v] of Object.entries(s)) entry[k] = round(v)
    entry.ratioParlayToGrowthbook = Math.round((s.parlay / s.growthbook) * 100) / 100
    result[name] = entry
  }
  return result
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = (await runExperimentsBench()) as Record<string, unknown>
  const rows: string[][] = [['scenario', 'parlay', 'growthbook', 'parlay / growthbook']]
  for (const [name, value] of Object.entries(result)) {
    if (typeof value !== 'object' || value === null) continue
    const v = value as Record<string, number>
    rows.push([name, v.parlay.toLocaleString('en'), v.growthbook.toLocaleString('en'), String(v.ratioParlayToGrowthbook)])
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  console.log(`${result.unit} (${result.node})`)
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
  writeFileSync(join(import.meta.dirname, 'experiments-results.json'), JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2) + '\n')
  console.log('written bench/experiments-results.json')
}
