/**
 * The sport, e-sports and toto pages' data, read from the live feed (`server/feed`): the live and
 * pre-match line, an event with its markets and selections (ids and decimal prices: the browser
 * shows them in the punter's odds format and follows them over the socket), results of finished
 * events, live scores and tournaments. Words are in the punter's locale; names stay as they are.
 */
import type { Feed, FeedEvent, FeedMarket, FeedSection, FeedSelection } from '../feed'
import { matchMinute } from '../../kernel/core/match-clock'
import { hasMatchClock, SPORTS, sportName } from '../feed/catalogue'
import { localLabel } from './labels'
import { pickLocale, WORDS, type ContentLocale } from './texts'

export type EventState = 'live' | 'prematch'

const when = (time: number, locale: ContentLocale) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(time)

const day = (time: number, locale: ContentLocale) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(time)

export interface SelectionData {
  id: string
  code: string
  label: string
  price: number
  status: FeedSelection['status']
  result?: FeedSelection['result']
}

export interface MarketData {
  id: string
  kind: FeedMarket['kind']
  title: string
  selections: SelectionData[]
}

export interface LineEvent {
  id: string
  treeId: number
  title: string
  subtitle: string
  league: string
  sport: string
  state: FeedEvent['state']
  score: [number, number]
  to: string
  /** The main market (match result or winner), for the line's price buttons. */
  main: MarketData | null
}

const eventPath = (section: FeedSection, state: EventState, id: string) =>
  section === 'toto' ? `/toto/correct-score?id=${id}` : `/${section}/${state === 'live' ? 'live' : section === 'esports' ? 'events' : 'prematch'}/event?id=${id}`

function marketTitle(market: FeedMarket, event: FeedEvent, locale: ContentLocale): string {
  switch (market.kind) {
    case 'main':
      return event.sport === 'Football' || event.section === 'toto' ? WORDS.matchResult[locale] : WORDS.winner[locale]
    case 'total':
      return (event.sport === 'Basketball' ? WORDS.totalPoints : event.section === 'esports' ? WORDS.totalMaps : WORDS.totalGoals)[locale]
    case 'both-score':
      return WORDS.bothScore[locale]
    case 'handicap':
      return WORDS.handicap[locale]
  }
}

function selectionLabel(market: FeedMarket, selection: FeedSelection, locale: ContentLocale): string {
  switch (selection.code) {
    case 'over':
      return `${WORDS.over[locale]} ${market.line}`
    case 'under':
      return `${WORDS.under[locale]} ${market.line}`
    case 'yes':
      return WORDS.yes[locale]
    case 'no':
      return WORDS.no[locale]
    default:
      return market.kind === 'handicap' ? `${selection.code} (${selection.code === '1' ? market.line : `+${-(market.line ?? 0)}`})` : selection.code
  }
}

export function marketData(market: FeedMarket, event: FeedEvent, locale: ContentLocale): MarketData {
  return {
    id: market.id,
    kind: market.kind,
    title: marketTitle(market, event, locale),
    selections: market.selections.map((s) => ({ id: s.id, code: s.code, label: selectionLabel(market, s, locale), price: s.price, status: s.status, ...(s.result ? { result: s.result } : {}) })),
  }
}

const minute = (feed: Feed, event: FeedEvent) => `${matchMinute(feed.elapsed(event), event.durationMs, event.regularMs)}'`

function lineEvent(feed: Feed, event: FeedEvent, locale: ContentLocale): LineEvent {
  const live = event.state === 'live'
  const league = localLabel(event.league, locale)
  return {
    id: event.id,
    treeId: event.treeId,
    title: live ? `${event.home} ${event.score.join(':')} ${event.away}` : `${event.home} – ${event.away}`,
    subtitle: live ? `${[WORDS.live[locale], hasMatchClock(event.sport) ? minute(feed, event) : ''].filter(Boolean).join(' ')} · ${league}` : `${when(event.startsAt, locale)} · ${league}`,
    league,
    sport: sportName(event.sport, locale),
    state: event.state,
    score: event.score,
    to: eventPath(event.section, live ? 'live' : 'prematch', event.id),
    main: event.markets[0] ? marketData(event.markets[0], event, locale) : null,
  }
}

const sectionOf = (section: string): FeedSection => (section === 'esports' ? 'esports' : section === 'toto' ? 'toto' : 'sport')

/** The live or pre-match line of sport, e-sports or toto. */
export function lineEvents(feed: Feed, section: string, state: EventState, localeName: unknown): LineEvent[] {
  feed.advanceTo()
  const locale = pickLocale(localeName)
  return feed.events({ section: sectionOf(section), state }).map((event) => lineEvent(feed, event, locale))
}

export interface MatchResult {
  id: string
  title: string
  subtitle: string
}

/** Finished events, newest first, with scores and dates. */
export function results(feed: Feed, section: string, localeName: unknown): MatchResult[] {
  feed.advanceTo()
  const locale = pickLocale(localeName)
  return feed.events({ section: sectionOf(section), state: 'finished' }).map((e) => ({
    id: e.id,
    title: `${e.home} ${e.score.join(':')} ${e.away}`,
    subtitle: `${day(e.startsAt, locale)} · ${sportName(e.sport, locale)} · ${localLabel(e.league, locale)} · ${WORDS.finished[locale]}`,
  }))
}

/** Live scores first, then the last results (the scores product). */
export function scores(feed: Feed, localeName: unknown): MatchResult[] {
  const locale = pickLocale(localeName)
  const live = [...lineEvents(feed, 'sport', 'live', locale), ...lineEvents(feed, 'esports', 'live', locale)].map((e) => ({ id: e.id, title: e.title, subtitle: `${e.sport} · ${e.subtitle}` }))
  return [...live, ...results(feed, 'sport', locale).slice(0, 10)]
}

export interface EventPage {
  id: string
  treeId: number
  title: string
  subtitle: string
  state: FeedEvent['state']
  score: [number, number]
  /** The scoreboard's parts: the teams as they are named, the league, the playing time. */
  home: string
  away: string
  league: string
  elapsedMs: number
  durationMs: number
  /** Regular playing time when added time follows (the clock shows 90+n). */
  regularMs?: number
  /** False for sports played to sets, frames or maps: the scoreboard shows no running minute. */
  clock: boolean
  markets: MarketData[]
}

/**
 * One event with its markets; without an id, the first event of the line. An id the feed does not
 * know in this section is no event at all (undefined: the page is a 404), never another match
 * (issue 31: a bad event link silently opened a different one).
 */
export function eventPage(feed: Feed, section: string, state: EventState, id: unknown, localeName: unknown): EventPage | null | undefined {
  feed.advanceTo()
  const locale = pickLocale(localeName)
  const named = typeof id === 'string' && id !== ''
  const asked = named ? feed.event(id) : undefined
  if (named && asked?.section !== sectionOf(section)) return undefined
  const event = asked ?? feed.events({ section: sectionOf(section), state })[0]
  if (!event) return null
  const line = lineEvent(feed, event, locale)
  const subtitle = event.state === 'finished' ? `${line.league} · ${WORDS.finished[locale]}` : line.subtitle
  return {
    id: event.id,
    treeId: event.treeId,
    title: line.title,
    subtitle: `${line.sport} · ${subtitle}`,
    state: event.state,
    score: event.score,
    home: event.home,
    away: event.away,
    league: `${line.sport} · ${line.league}`,
    elapsedMs: feed.elapsed(event),
    durationMs: event.durationMs,
    ...(event.regularMs ? { regularMs: event.regularMs } : {}),
    clock: hasMatchClock(event.sport),
    markets: event.markets.map((m) => marketData(m, event, locale)),
  }
}

export const slug = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** Matches of one tournament a page lists: every live one, then the next pre-match ones. */
export const TOURNAMENT_MATCHES_SHOWN = 6

export interface Tournament {
  id: string
  title: string
  subtitle: string
  sport: string
  /** Matches under way now and matches still to play in the feed's line. */
  live: number
  upcoming: number
  matches: LineEvent[]
}

/**
 * The sport tournaments: the feed's leagues with the matches they have on the line (live first,
 * then by start time) and how many are live now, in the order of the sports' catalogue. A league
 * with nothing live or to come is left out (its results are on the results page).
 */
export function tournaments(feed: Feed, localeName: unknown): Tournament[] {
  feed.advanceTo()
  const locale = pickLocale(localeName)
  const byLeague = new Map<string, FeedEvent[]>()
  // the catalogue's order (football first), whatever plays now
  for (const spec of SPORTS) if (spec.section === 'sport') for (const league of spec.leagues) byLeague.set(`${spec.kind}|${league.name}`, [])
  for (const state of ['live', 'prematch'] as const)
    for (const event of feed.events({ section: 'sport', state })) {
      const key = `${event.sport}|${event.league}`
      byLeague.set(key, [...(byLeague.get(key) ?? []), event])
    }
  return [...byLeague.values()].filter((events) => events.length > 0).map((events) => {
    const [first] = events
    const live = events.filter((e) => e.state === 'live').length
    const sport = sportName(first.sport, locale)
    return {
      id: slug(`${first.sport}-${first.league}`),
      title: localLabel(first.league, locale),
      subtitle: `${sport} · ${WORDS.live[locale]}: ${live} · ${events.length} ${WORDS.events[locale]}`,
      sport,
      live,
      upcoming: events.length - live,
      matches: events.slice(0, Math.max(live, TOURNAMENT_MATCHES_SHOWN)).map((event) => lineEvent(feed, event, locale)),
    }
  })
}
