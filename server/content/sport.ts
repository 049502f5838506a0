/**
 * Demo sport and e-sport data for the line, live, results and tournament pages: fixtures with odds,
 * live scores, finished matches and an event's markets. Times are laid out around the injected
 * clock, so the pages always show today's line and the last days' results.
 */
import { localLabel, localPlace } from './labels'
import { pickLocale, WORDS, type ContentLocale } from './texts'

type Discipline = 'football' | 'tennis' | 'basketball' | 'esports'

interface Fixture {
  home: string
  away: string
  league: string
  discipline: Discipline
  odds: [number, number | null, number]
}

const fixture = (home: string, away: string, league: string, discipline: Discipline, odds: [number, number | null, number]): Fixture => ({ home, away, league, discipline, odds })

const LIVE: Record<string, (Fixture & { score: string; clock: string })[]> = {
  sport: [
    { ...fixture('Arsenal', 'Chelsea', 'England. Premier League', 'football', [1.95, 3.6, 4.1]), score: '2:1', clock: "67'" },
    { ...fixture('Real Madrid', 'Sevilla', 'Spain. LaLiga', 'football', [1.4, 4.8, 7.5]), score: '0:0', clock: "23'" },
    { ...fixture('Djokovic', 'Alcaraz', 'ATP Finals', 'tennis', [2.2, null, 1.66]), score: '6:4 3:5', clock: 'S2' },
    { ...fixture('Lakers', 'Celtics', 'NBA', 'basketball', [2.05, null, 1.78]), score: '88:91', clock: 'Q4' },
  ],
  esports: [
    { ...fixture('NaVi', 'FaZe', 'CS2. Major', 'esports', [1.72, null, 2.1]), score: '1:0', clock: 'Map 2' },
    { ...fixture('Team Spirit', 'Liquid', 'Dota 2. The International', 'esports', [1.55, null, 2.45]), score: '0:1', clock: 'Map 2' },
  ],
}

const PREMATCH: Record<string, (Fixture & { inHours: number })[]> = {
  sport: [
    { ...fixture('Bayern', 'Dortmund', 'Germany. Bundesliga', 'football', [1.62, 4.2, 5.0]), inHours: 3 },
    { ...fixture('Milan', 'Inter', 'Italy. Serie A', 'football', [2.75, 3.2, 2.6]), inHours: 5 },
    { ...fixture('PSG', 'Marseille', 'France. Ligue 1', 'football', [1.45, 4.6, 6.8]), inHours: 26 },
    { ...fixture('Sinner', 'Medvedev', 'ATP. Vienna', 'tennis', [1.5, null, 2.6]), inHours: 28 },
    { ...fixture('Real Madrid', 'Olympiacos', 'EuroLeague', 'basketball', [1.3, null, 3.5]), inHours: 30 },
    { ...fixture('Zenit', 'Spartak', 'Russia. Premier League', 'football', [1.85, 3.5, 4.3]), inHours: 50 },
  ],
  esports: [
    { ...fixture('T1', 'Gen.G', 'LoL. Worlds', 'esports', [1.9, null, 1.9]), inHours: 4 },
    { ...fixture('Vitality', 'G2', 'CS2. Major', 'esports', [1.65, null, 2.2]), inHours: 7 },
    { ...fixture('Gaimin Gladiators', 'Tundra', 'Dota 2. The International', 'esports', [2.3, null, 1.6]), inHours: 27 },
  ],
}

const RESULTS: Record<string, (Fixture & { score: string; daysAgo: number })[]> = {
  sport: [
    { ...fixture('Liverpool', 'Manchester City', 'England. Premier League', 'football', [2.4, 3.5, 2.8]), score: '1:1', daysAgo: 1 },
    { ...fixture('Barcelona', 'Atlético Madrid', 'Spain. LaLiga', 'football', [1.8, 3.7, 4.4]), score: '3:1', daysAgo: 1 },
    { ...fixture('Juventus', 'Napoli', 'Italy. Serie A', 'football', [2.5, 3.1, 2.9]), score: '0:2', daysAgo: 1 },
    { ...fixture('Nadal', 'Zverev', 'ATP. Madrid', 'tennis', [1.9, null, 1.9]), score: '7:6 4:6 6:3', daysAgo: 2 },
    { ...fixture('Warriors', 'Nuggets', 'NBA', 'basketball', [1.95, null, 1.87]), score: '112:108', daysAgo: 2 },
    { ...fixture('CSKA', 'Lokomotiv', 'Russia. Premier League', 'football', [2.1, 3.3, 3.5]), score: '2:2', daysAgo: 3 },
    { ...fixture('FC Copenhagen', 'Brøndby', 'Denmark. Superliga', 'football', [1.9, 3.6, 3.9]), score: '2:0', daysAgo: 3 },
    { ...fixture('Benfica', 'Porto', 'Portugal. Primeira Liga', 'football', [2.2, 3.3, 3.2]), score: '1:0', daysAgo: 4 },
  ],
  esports: [
    { ...fixture('FaZe', 'Vitality', 'CS2. Major', 'esports', [2.0, null, 1.8]), score: '2:1', daysAgo: 1 },
    { ...fixture('Liquid', 'Tundra', 'Dota 2. The International', 'esports', [1.9, null, 1.9]), score: '0:2', daysAgo: 2 },
  ],
}

const TOURNAMENTS: { name: string; discipline: Discipline; country: string; startDaysAgo: number; endInDays: number; events: number }[] = [
  { name: 'Premier League 2025/26', discipline: 'football', country: 'England', startDaysAgo: 70, endInDays: 210, events: 380 },
  { name: 'LaLiga 2025/26', discipline: 'football', country: 'Spain', startDaysAgo: 72, endInDays: 208, events: 380 },
  { name: 'Serie A 2025/26', discipline: 'football', country: 'Italy', startDaysAgo: 69, endInDays: 212, events: 380 },
  { name: 'Bundesliga 2025/26', discipline: 'football', country: 'Germany', startDaysAgo: 65, endInDays: 205, events: 306 },
  { name: 'UEFA Champions League', discipline: 'football', country: 'Europe', startDaysAgo: 40, endInDays: 230, events: 189 },
  { name: 'ATP Finals', discipline: 'tennis', country: 'Italy', startDaysAgo: 2, endInDays: 5, events: 15 },
  { name: 'NBA 2025/26', discipline: 'basketball', country: 'USA', startDaysAgo: 20, endInDays: 170, events: 1230 },
  { name: 'EuroLeague 2025/26', discipline: 'basketball', country: 'Europe', startDaysAgo: 30, endInDays: 190, events: 306 },
]

const HOUR = 3_600_000
const DAY = 24 * HOUR

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

const when = (time: number, locale: ContentLocale) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(time)

const day = (time: number, locale: ContentLocale) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(time)

const price = (value: number) => value.toFixed(2)

function oddsLine(odds: Fixture['odds'], locale: ContentLocale): string {
  const [home, draw, away] = odds
  return draw === null ? `1 ${price(home)} · 2 ${price(away)}` : `1 ${price(home)} · ${WORDS.draw[locale]} ${price(draw)} · 2 ${price(away)}`
}

export type EventState = 'live' | 'prematch'

export interface LineEvent {
  id: string
  title: string
  subtitle: string
  league: string
  to: string
}

const eventPath = (section: string, state: EventState, id: string) =>
  `/${section}/${state === 'live' ? 'live' : section === 'esports' ? 'events' : 'prematch'}/event?id=${id}`

/** The live or pre-match line of sport or e-sports. */
export function lineEvents(section: string, state: EventState, localeName: unknown, now: number): LineEvent[] {
  const locale = pickLocale(localeName)
  if (state === 'live')
    return (LIVE[section] ?? []).map((f) => ({
      id: slug(`${f.home}-${f.away}`),
      title: `${f.home} ${f.score} ${f.away}`,
      subtitle: `${WORDS.live[locale]} ${f.clock} · ${localLabel(f.league, locale)} · ${oddsLine(f.odds, locale)}`,
      league: localLabel(f.league, locale),
      to: eventPath(section, 'live', slug(`${f.home}-${f.away}`)),
    }))
  return (PREMATCH[section] ?? []).map((f) => ({
    id: slug(`${f.home}-${f.away}`),
    title: `${f.home} – ${f.away}`,
    subtitle: `${when(now + f.inHours * HOUR, locale)} · ${localLabel(f.league, locale)} · ${oddsLine(f.odds, locale)}`,
    league: f.league,
    to: eventPath(section, 'prematch', slug(`${f.home}-${f.away}`)),
  }))
}

export interface MatchResult {
  id: string
  title: string
  subtitle: string
}

/** Finished matches of the last days, newest first, with scores and dates. */
export function results(section: string, localeName: unknown, now: number): MatchResult[] {
  const locale = pickLocale(localeName)
  return (RESULTS[section] ?? []).map((f) => ({
    id: slug(`${f.home}-${f.away}`),
    title: `${f.home} ${f.score} ${f.away}`,
    subtitle: `${day(now - f.daysAgo * DAY, locale)} · ${localLabel(f.league, locale)} · ${WORDS.finished[locale]}`,
  }))
}

export interface Tournament {
  id: string
  title: string
  subtitle: string
  to: string
}

export function tournaments(localeName: unknown, now: number): Tournament[] {
  const locale = pickLocale(localeName)
  return TOURNAMENTS.map((t) => ({
    id: slug(t.name),
    title: t.name,
    subtitle: `${localPlace(t.country, locale)} · ${day(now - t.startDaysAgo * DAY, locale)} – ${day(now + t.endInDays * DAY, locale)} · ${t.events} ${WORDS.events[locale]}`,
    to: '/sport/prematch',
  }))
}

export interface Market {
  id: string
  title: string
  subtitle: string
}

function marketsOf(f: Fixture, locale: ContentLocale): Market[] {
  const w = WORDS
  const [home, draw, away] = f.odds
  const pair = (a: number) => price(Math.max(1.05, a))
  const main: Market = { id: 'main', title: draw === null ? w.winner[locale] : w.matchResult[locale], subtitle: oddsLine(f.odds, locale) }
  switch (f.discipline) {
    case 'football':
      return [
        main,
        { id: 'double-chance', title: w.doubleChance[locale], subtitle: `1X ${pair(1 / (1 / home + 1 / (draw ?? 3)))} · 12 ${pair(1 / (1 / home + 1 / away))} · X2 ${pair(1 / (1 / (draw ?? 3) + 1 / away))}` },
        { id: 'total', title: w.totalGoals[locale], subtitle: `${w.over[locale]} 1.90 · ${w.under[locale]} 1.90` },
        { id: 'both-score', title: w.bothScore[locale], subtitle: `${w.yes[locale]} 1.75 · ${w.no[locale]} 2.05` },
        { id: 'handicap', title: w.handicap[locale], subtitle: `1 ${pair(home * 2)} · 2 ${pair(away / 2 + 1)}` },
      ]
    case 'tennis':
      return [main, { id: 'total', title: w.totalGames[locale], subtitle: `${w.over[locale]} 1.85 · ${w.under[locale]} 1.95` }]
    case 'basketball':
      return [main, { id: 'total', title: w.totalPoints[locale], subtitle: `${w.over[locale]} 1.87 · ${w.under[locale]} 1.93` }]
    default:
      return [main, { id: 'total', title: w.totalMaps[locale], subtitle: `${w.over[locale]} 2.10 · ${w.under[locale]} 1.70` }]
  }
}

export interface EventPage {
  id: string
  title: string
  subtitle: string
  markets: Market[]
}

/** One event with its markets; an unknown or missing id shows the first event of the line. */
export function eventPage(section: string, state: EventState, id: unknown, localeName: unknown, now: number): EventPage | null {
  const locale = pickLocale(localeName)
  const line = lineEvents(section, state, locale, now)
  const fixtures: Fixture[] = state === 'live' ? (LIVE[section] ?? []) : (PREMATCH[section] ?? [])
  const index = Math.max(0, line.findIndex((e) => e.id === id))
  const event = line[index]
  if (!event) return null
  return { id: event.id, title: event.title, subtitle: event.subtitle.split(' · ').slice(0, 2).join(' · '), markets: marketsOf(fixtures[index], locale) }
}
