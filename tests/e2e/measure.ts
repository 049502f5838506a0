/**
 * Where the browser suite's time goes (docs/testing.md, "How long it takes"), when PARLAY_E2E_TIMINGS
 * names a file: one JSON line per test with its wall time and the CPU it cost — this worker process
 * (Playwright's client and the test server, which runs in it) and the worker's Chromium process tree
 * (renderers that ended are counted by their parent) — and one line per server start. CPU seconds
 * read the same on a loaded machine as on a quiet one; wall seconds do not.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'

const OUT = process.env.PARLAY_E2E_TIMINGS
const TICK_MS = 10 // USER_HZ is 100 on Linux

export const measuring = Boolean(OUT)

export function record(line: Record<string, unknown>): void {
  if (OUT) appendFileSync(OUT, JSON.stringify(line) + '\n')
}

/** CPU of this process, in ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/** CPU of every descendant process of this one (Chromium and its renderers), in ms, including the
 * ended children their parents have reaped. */
export function childrenCpuMs(): number {
  const parentOf = new Map<number, number>()
  const cpu = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parentOf.set(Number(entry), Number(fields[1]))
      cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS)
    } catch {
      // the process ended while the table was read
    }
  }
  let total = 0
  for (const [pid, ms] of cpu) {
    for (let up = parentOf.get(pid); up !== undefined && up > 1; up = parentOf.get(up)) {
      if (up === process.pid) {
        total += ms
        break
      }
    }
  }
  return total
}
