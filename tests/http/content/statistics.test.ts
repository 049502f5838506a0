/**
 * The statistics page's league tables (spec §2 left menu "statistics"; issue 34 item 8: real
 * content). Oracle: the public results API of the same server (every finished match as
 * "Home 2:1 Away" with its league), tallied here by the rule the page states — 3 points a win,
 * 1 a draw; ranked by points, score difference, scored, then name — and compared row for row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../support/server'

const clock = { now: Date.UTC(2026, 10, 27, 3, 17) }
let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ now: () => clock.now })
})
afterAll(async () => server?.dispose())

const get = async (path: string) => {
  const answer = await fetch(`${server.url}${path}`)
  return { status: answer.status, body: (await answer.json()) as { payload: any; errorCode?: string } }
}

interface Row { team: string; played: number; won: number; drawn: number; lost: number; scored: number; conceded: number; points: number }

/** The tables the results imply, by league label. */
function tablesFromResults(results: { title: string; subtitle: string }[]): Map<string, Row[]> {
  const leagues = new Map<string, Map<string, Row>>()
  for (const r of results) {
    const [, home, h, a, away] = /^(.*) (\d+):(\d+) (.*)$/.exec(r.title)!
    const league = r.subtitle.split(' · ')[2]!
    const teams = leagues.get(league) ?? leagues.set(league, new Map()).get(league)!
    for (const [team, f, c] of [[home!, Number(h), Number(a)], [away!, Number(a), Number(h)]] as const) {
      const row = teams.get(team) ?? teams.set(team, { team, played: 0, won: 0, drawn: 0, lost: 0, scored: 0, conceded: 0, points: 0 }).get(team)!
      row.played++
      row.scored += f
      row.conceded += c
      if (f > c) (row.won++, (row.points += 3))
      else if (f === c) (row.drawn++, row.points++)
      else row.lost++
    }
  }
  const order = (x: Row, y: Row) => y.points - x.points || y.scored - y.conceded - (x.scored - x.conceded) || y.scored - x.scored || x.team.localeCompare(y.team)
  return new Map([...leagues].map(([league, teams]) => [league, [...teams.values()].sort(order)]))
}

describe('league tables on the statistics page', () => {
  it('each league with finished matches has a table whose rows are exactly the tally of its results, ranked by points, score difference, scored, name', async () => {
    clock.now += 8 * 3_600_000 // matches start and finish on the injected clock
    const results = (await get('/api/content/results?section=sport&locale=en')).body.payload as { title: string; subtitle: string }[]
    expect(results.length).toBeGreaterThan(3)
    const tables = (await get('/api/content/statistics?section=sport&locale=en')).body.payload as { title: string; rows: (Row & { title: string; subtitle: string })[] }[]
    const expected = tablesFromResults(results)
    expect(tables.map((t) => t.title).sort()).toEqual([...expected.keys()].sort())
    for (const table of tables) {
      const rows = table.rows.map(({ team, played, won, drawn, lost, scored, conceded, points }) => ({ team, played, won, drawn, lost, scored, conceded, points }))
      expect(rows, table.title).toEqual(expected.get(table.title))
      // what the page shows: rank, team and points; the counts
      const first = table.rows[0]!
      expect(first.title).toBe(`1. ${first.team} · points: ${first.points}`)
      expect(first.subtitle).toBe(`played: ${first.played} · won: ${first.won} · drawn: ${first.drawn} · lost: ${first.lost} · ${first.scored}:${first.conceded}`)
    }
  })

  it('the words are in the asked locale (Russian) and the numbers the same as in English', async () => {
    const en = (await get('/api/content/statistics?section=sport&locale=en')).body.payload as { rows: { title: string; subtitle: string; points: number }[] }[]
    const ru = (await get('/api/content/statistics?section=sport&locale=ru')).body.payload as { rows: { title: string; subtitle: string; points: number }[] }[]
    expect(ru.map((t) => t.rows.map((r) => r.points))).toEqual(en.map((t) => t.rows.map((r) => r.points)))
    expect(ru[0]!.rows[0]!.title).toMatch(/ · очки: \d+$/)
    expect(ru[0]!.rows[0]!.subtitle).toMatch(/^игры: \d+ · победы: \d+ · ничьи: \d+ · поражения: \d+ · \d+:\d+$/)
  })

  it('an unknown section is a 400 with its code, not a 500', async () => {
    for (const section of ['casino', '']) {
      const answer = await get(`/api/content/statistics?section=${section}&locale=en`)
      expect([answer.status, answer.body.errorCode]).toEqual([400, 'UNKNOWN_SECTION'])
    }
    // a control character is refused before the route (the server's query guard)
    expect((await get('/api/content/statistics?section=%00&locale=en')).status).toBe(400)
  })
})
