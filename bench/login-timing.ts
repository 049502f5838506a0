/**
 * Login timing beside itself (`npx tsx bench/login-timing.ts`): the median answer time of an
 * unknown login, a wrong password and a locked login on a real server. A benchmark, not a test:
 * the tests prove "no enumeration" by the code path (one argon2 verification each), because wall
 * clocks on a shared machine are too noisy to assert on.
 */
import { pathToFileURL } from 'node:url'
import { recordFailure, THROTTLE } from '../server/auth/throttle'
import { startTestServer } from '../tests/support/server'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function runLoginTimingBench(rounds = 15): Promise<Record<string, number>> {
  const server = await startTestServer({ now: () => Date.UTC(2025, 5, 1, 12) })
  try {
    const db = server.deps.db
    const locked = db.prepare('SELECT id, email FROM punters WHERE email = ?').get('vip@demo.parlay.test') as { id: number; email: string }
    for (let i = 0; i < THROTTLE.lockAfter; i++) await recordFailure(server.deps.data, { login: 'nickname:none', accountId: locked.id, client: '10.9.9.9' }, Date.UTC(2025, 5, 1, 12))
    let ip = 0
    const time = async (login: string, password: string) => {
      const started = performance.now()
      await fetch(`${server.url}/mobile-gate/api/v1/auth/v2/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.8.0.${++ip % 250}` },
        body: JSON.stringify({ login, password }),
      }).then((r) => r.text())
      return performance.now() - started
    }
    const samples = { unknown: [] as number[], wrong: [] as number[], locked: [] as number[] }
    for (let i = 0; i < rounds; i++) {
      samples.unknown.push(await time(`nobody-${i}@demo.parlay.test`, 'wrong-password'))
      samples.wrong.push(await time(`1000000${1 + (i % 5)}`, 'wrong-password'))
      samples.locked.push(await time('HighRoller', 'parlay-demo-1'))
    }
    const result = { unknownMs: median(samples.unknown), wrongPasswordMs: median(samples.wrong), lockedMs: median(samples.locked) }
    return { ...result, maxOverMin: Math.max(...Object.values(result)) / Math.min(...Object.values(result)) }
  } finally {
    await server.dispose()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await runLoginTimingBench())
