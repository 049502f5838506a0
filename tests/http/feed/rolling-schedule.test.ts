/**
 * The demo feed never runs dry (issue 31 item 7: 15 live events on the home page became 1 after
 * about 75 minutes). With the server's injected clock moved over three days in steps, the public
 * line API (`GET /api/content/line`, what the home, live and pre-match pages show) answers at
 * every step at least 10 live and 50 upcoming events in each sport section (sport, e-sports);
 * events start on schedule and finish (the live ids of a step are mostly gone a few hours later);
 * and the tree stays bounded (results beyond the retention are dropped).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../support/server'

const HOUR = 3_600_000
const START = Date.UTC(2026, 10, 27, 3, 17)
const SECTIONS = ['sport', 'esports'] as const

describe('the rolling schedule, through the public line API', () => {
  const clock = { now: START }
  let server: TestServer
  const line = async (section: string, state: 'live' | 'prematch') => {
    const answer = await fetch(`${server.url}/api/content/line?section=${section}&state=${state}&locale=en`)
    expect(answer.status).toBe(200)
    return ((await answer.json()) as { payload: { id: string; state: string }[] }).payload
  }
  const results = async (section: string) => ((await (await fetch(`${server.url}/api/content/results?section=${section}&locale=en`)).json()) as { payload: unknown[] }).payload

  beforeAll(async () => {
    server = await startTestServer({ now: () => clock.now })
  })
  afterAll(async () => server?.dispose())

  it('keeps at least 10 live and 50 upcoming events in every sport section at every step of 72 hours; live events finish and are replaced; results stay bounded', async () => {
    const lows: Record<string, number> = {}
    const liveAt = new Map<number, Set<string>>()
    const startedLater = new Set<string>()
    const upcomingAtStart = new Set((await line('sport', 'prematch')).map((e) => e.id))
    for (let step = 0; clock.now <= START + 72 * HOUR; step++, clock.now += 20 * 60_000) {
      for (const section of SECTIONS) {
        const live = await line(section, 'live')
        const upcoming = await line(section, 'prematch')
        expect(live.every((e) => e.state === 'live') && upcoming.every((e) => e.state === 'prematch')).toBe(true)
        lows[`${section} live`] = Math.min(lows[`${section} live`] ?? Infinity, live.length)
        lows[`${section} upcoming`] = Math.min(lows[`${section} upcoming`] ?? Infinity, upcoming.length)
        if (section === 'sport') {
          liveAt.set(step, new Set(live.map((e) => e.id)))
          for (const e of live) if (upcomingAtStart.has(e.id)) startedLater.add(e.id)
        }
        expect((await results(section)).length).toBeLessThanOrEqual(40)
      }
    }
    expect(lows['sport live']).toBeGreaterThanOrEqual(10)
    expect(lows['esports live']).toBeGreaterThanOrEqual(10)
    expect(lows['sport upcoming']).toBeGreaterThanOrEqual(50)
    expect(lows['esports upcoming']).toBeGreaterThanOrEqual(50)
    // upcoming events of the first hour went live on schedule
    expect(startedLater.size).toBeGreaterThan(0)
    // what was live at the start is finished six hours later (and replaced: the counts above held)
    const first = liveAt.get(0)!
    const later = liveAt.get(18)!
    expect([...first].filter((id) => later.has(id))).toEqual([])
  }, 300_000)
})
