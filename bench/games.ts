/**
 * Casino games benchmark (issue 28 item 3): each game document's declared return beside its EXACT
 * return (the paytable enumerated, kernel/games) and a seeded simulation of ROUNDS rounds through
 * the server's own round code (HMAC-SHA256 words of each round id, server/games/engine.ts), with its
 * 99 % interval; and each game's volatility: standard deviation of one round's win, hit frequency
 * (any pay, the stake back included) and the largest win seen beside the largest possible.
 * The crash game is simulated once and read at several cash-out targets (every target has the
 * same exact return). Asserts nothing: `npm run bench games` prints and stores the numbers.
 */
import { join } from 'node:path'
import { loadDocuments } from '../tools/schema-lint/documents/loader'
import { crashReturn } from '../kernel/games/crash'
import { exactReturn, type GameMaths } from '../kernel/games/maths'
import { percentOf } from '../kernel/games/rational'
import { slotFigures } from '../kernel/games/slot'
import { playGame, roundStream } from '../server/games/engine'

const ROUNDS = Number(process.env.PARLAY_BENCH_GAME_ROUNDS ?? 1_000_000)
const SEED = 'parlay-bench-games'
const CRASH_TARGETS = [101, 150, 200, 500, 1000, 10000, 100000]
const Z99 = 2.576

interface Tally {
  n: number
  sum: number
  squares: number
  hits: number
  max: number
}
const tally = (): Tally => ({ n: 0, sum: 0, squares: 0, hits: 0, max: 0 })
function add(t: Tally, multiplier: number): void {
  t.n++
  t.sum += multiplier
  t.squares += multiplier * multiplier
  if (multiplier > 0) t.hits++
  if (multiplier > t.max) t.max = multiplier
}
const round4 = (x: number) => Math.round(x * 10_000) / 10_000

function summary(t: Tally) {
  const mean = t.sum / t.n
  const sd = Math.sqrt(Math.max(0, t.squares / t.n - mean * mean))
  return {
    simulatedPercent: round4(mean * 100),
    interval99Points: round4(((Z99 * sd) / Math.sqrt(t.n)) * 100),
    standardDeviation: round4(sd),
    hitFrequencyPercent: round4((t.hits / t.n) * 100),
    maxWinSeen: t.max,
  }
}

function benchSlot(game: GameMaths) {
  const t = tally()
  for (let i = 0; i < ROUNDS; i++) add(t, playGame(game, roundStream(SEED, `${game.id}-${i}`)).payHundredths / 100)
  const figures = slotFigures(game.slot!)
  const simulated = summary(t)
  return {
    declaredPercent: game.targetReturn,
    exactPercent: round4(percentOf(figures.exact)),
    ...simulated,
    confirmed: Math.abs(simulated.simulatedPercent - percentOf(figures.exact)) <= simulated.interval99Points,
    exactStandardDeviation: round4(figures.standardDeviation),
    exactHitFrequencyPercent: round4(figures.hitFrequency * 100),
    maxWinPossible: figures.maxMultiplier,
  }
}

function benchCrash(game: GameMaths) {
  const targets = CRASH_TARGETS.filter((t) => t <= game.crash!.maxMultiplier * 100)
  const tallies = targets.map(tally)
  for (let i = 0; i < ROUNDS; i++) {
    // one round, read at every target: the crash point does not depend on the target
    const crashAt = (playGame(game, roundStream(SEED, `${game.id}-${i}`), 101).outcome as { crashAt: number }).crashAt
    targets.forEach((target, j) => add(tallies[j], Math.round(crashAt * 100) >= target ? target / 100 : 0))
  }
  const exact = exactReturn(game, Math.round(game.targetReturn * 100))
  const atTarget = Object.fromEntries(
    targets.map((target, j) => {
      const simulated = summary(tallies[j])
      const exactPercent = percentOf(crashReturn(game.crash!, target))
      return [`x${(target / 100).toFixed(2)}`, { exactPercent: round4(exactPercent), ...simulated, confirmed: Math.abs(simulated.simulatedPercent - exactPercent) <= simulated.interval99Points }]
    }),
  )
  return { declaredPercent: game.targetReturn, exactPercentLowest: round4(percentOf(exact.lowest)), exactPercentHighest: round4(percentOf(exact.highest)), maxWinPossible: game.crash!.maxMultiplier, atTarget }
}

export async function runGamesBench() {
  const { records, problems } = loadDocuments(join(import.meta.dirname, '..', 'schemas'))
  if (problems.length > 0) throw new Error(`documents do not load: ${problems[0].file}:${problems[0].pointer}: ${problems[0].message}`)
  const games = records.filter((r) => r.kind === 'game' && r.jurisdiction === '').map((r) => r.source as unknown as GameMaths)
  const results: Record<string, unknown> = { rounds: ROUNDS, seed: SEED }
  for (const game of games) {
    const started = Date.now()
    const result = game.engine === 'slot' ? benchSlot(game) : benchCrash(game)
    results[game.id] = { ...result, seconds: (Date.now() - started) / 1000 }
    printGame(game, result)
  }
  return results
}

function printGame(game: GameMaths, result: ReturnType<typeof benchSlot> | ReturnType<typeof benchCrash>): void {
  const line = (label: string, r: { exactPercent: number; simulatedPercent: number; interval99Points: number; standardDeviation: number; hitFrequencyPercent: number; maxWinSeen: number; confirmed: boolean }) =>
    `  ${label.padEnd(16)} declared ${game.targetReturn.toFixed(2).padStart(6)} %  exact ${r.exactPercent.toFixed(4).padStart(8)} %  simulated ${r.simulatedPercent.toFixed(2).padStart(6)} % ± ${r.interval99Points.toFixed(2)} (99 %, ${r.confirmed ? 'confirms' : 'DOES NOT confirm'})  sd ${r.standardDeviation.toFixed(2)}  hits ${r.hitFrequencyPercent.toFixed(2)} %  max ×${r.maxWinSeen}`
  if ('atTarget' in result) for (const [target, r] of Object.entries(result.atTarget)) console.log(line(`${game.id} ${target}`, r))
  else console.log(line(game.id, result))
}
