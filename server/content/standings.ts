/**
 * The statistics page's league tables (spec §2 left menu "statistics"): from the matches of the
 * feed that have finished, one table per league, each team's played, won, drawn and lost matches,
 * what it scored and conceded, and its points (3 a win, 1 a draw). Ranked by points, then the
 * difference of scored and conceded, then scored, then name. Words in the punter's locale; team
 * and league names as the feed has them (leagues in the locale's label where it has one).
 */
import type { Feed, FeedEvent } from '../feed'
import { sportName } from '../feed/catalogue'
import { localLabel } from './labels'
import { slug } from './sport'
import { pickLocale, WORDS, type ContentLocale } from './texts'

export interface TableRow {
  id: string
  team: string
  played: number
  won: number
  drawn: number
  lost: number
  scored: number
  conceded: number
  points: number
  /** "1. Arsenal · points: 7" and the counts, as the page shows them. */
  title: string
  subtitle: string
}

export interface LeagueTable {
  id: string
  title: string
  subtitle: string
  rows: TableRow[]
}

type Tally = Omit<TableRow, 'id' | 'title' | 'subtitle'>

const tallyOf = (team: string): Tally => ({ team, played: 0, won: 0, drawn: 0, lost: 0, scored: 0, conceded: 0, points: 0 })

function count(tally: Tally, scored: number, conceded: number): void {
  tally.played += 1
  tally.scored += scored
  tally.conceded += conceded
  if (scored > conceded) [tally.won, tally.points] = [tally.won + 1, tally.points + 3]
  else if (scored === conceded) [tally.drawn, tally.points] = [tally.drawn + 1, tally.points + 1]
  else tally.lost += 1
}

const ranked = (a: Tally, b: Tally) => b.points - a.points || b.scored - b.conceded - (a.scored - a.conceded) || b.scored - a.scored || a.team.localeCompare(b.team)

function rowsOf(events: FeedEvent[], locale: ContentLocale): TableRow[] {
  const teams = new Map<string, Tally>()
  const of = (team: string) => teams.get(team) ?? teams.set(team, tallyOf(team)).get(team)!
  for (const e of events) {
    count(of(e.home), e.score[0], e.score[1])
    count(of(e.away), e.score[1], e.score[0])
  }
  return [...teams.values()].sort(ranked).map((t, i) => ({
    ...t,
    id: slug(t.team),
    title: `${i + 1}. ${t.team} · ${WORDS.points[locale]}: ${t.points}`,
    subtitle: WORDS.tableRow[locale].replace('{p}', String(t.played)).replace('{w}', String(t.won)).replace('{d}', String(t.drawn)).replace('{l}', String(t.lost)).replace('{f}', String(t.scored)).replace('{a}', String(t.conceded)),
  }))
}

/** One table per league with a finished match, leagues in the order their latest match finished. */
export function standings(feed: Feed, section: 'sport' | 'esports', localeName: unknown): LeagueTable[] {
  feed.advanceTo()
  const locale = pickLocale(localeName)
  const byLeague = new Map<string, FeedEvent[]>()
  for (const e of feed.events({ section, state: 'finished' })) {
    const key = `${e.sport}|${e.league}`
    byLeague.set(key, [...(byLeague.get(key) ?? []), e])
  }
  return [...byLeague.values()].map((events) => ({
    id: slug(`${events[0].sport}-${events[0].league}`),
    title: localLabel(events[0].league, locale),
    subtitle: sportName(events[0].sport, locale),
    rows: rowsOf(events, locale),
  }))
}
