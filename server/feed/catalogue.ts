/**
 * What the demo feed is made of: the sport kinds of spec §3 it shows, their leagues and
 * competitors, how each one scores and which markets it offers. Names of teams, players and
 * leagues are proper names and stay as they are; sport names are translated for display.
 */
import type { ContentLocale } from '../content/texts'
import type { FeedSection, MarketKind } from './model'

export interface ScoringModel {
  /** Chance per tick (2 s of play) that someone scores. */
  rate: number
  /** Points one score is worth (a draw picks one). */
  points: readonly number[]
  /** Sets, maps, frames: the match ends when one side reaches this many. */
  winAt?: number
  /** How far the stronger side's share of the scores leaves one half (1: as its strength; a
   * basketball favourite scores 52–55 % of the points, not 75 %). Default 1. */
  spread?: number
  /** How much a lead of one point lowers the leader's chance of the next score (basketball's
   * possessions alternate; a team 20 points down presses). Default 0. */
  catchUp?: number
  /** A score suspends the markets for two ticks (default). Not where points come every minute. */
  suspends?: boolean
}

export interface SportSpec {
  kind: string
  section: FeedSection
  draw: boolean
  /** The playing time on the match clock (football 90, NBA 48, hockey 60 …). */
  durationMinutes: number
  /** Added time drawn per match [least, most] minutes, shown as 90+2′ (football). */
  addedMinutes?: readonly [number, number]
  scoring: ScoringModel
  markets: readonly MarketKind[]
  /** Total line for the total market. */
  totalLine?: number
  leagues: readonly { name: string; competitors: readonly string[] }[]
}

const GOALS: ScoringModel = { rate: 0.001, points: [1] }
const sets = (rate: number, winAt: number): ScoringModel => ({ rate, points: [1], winAt })

export const SPORTS: readonly SportSpec[] = [
  {
    kind: 'Football', section: 'sport', draw: true, durationMinutes: 90, addedMinutes: [1, 6], scoring: GOALS, markets: ['main', 'total', 'both-score', 'handicap'], totalLine: 2.5,
    leagues: [
      { name: 'England. Premier League', competitors: ['Arsenal', 'Chelsea', 'Liverpool', 'Manchester City', 'Tottenham', 'Newcastle', 'Aston Villa', 'Brighton'] },
      { name: 'Spain. LaLiga', competitors: ['Real Madrid', 'Barcelona', 'Atlético Madrid', 'Sevilla', 'Real Sociedad', 'Villarreal'] },
      { name: 'Italy. Serie A', competitors: ['Milan', 'Inter', 'Juventus', 'Napoli', 'Roma', 'Lazio'] },
      { name: 'Germany. Bundesliga', competitors: ['Bayern', 'Dortmund', 'Leipzig', 'Leverkusen', 'Stuttgart', 'Frankfurt'] },
      { name: 'Denmark. Superliga', competitors: ['FC Copenhagen', 'Brøndby', 'Midtjylland', 'AGF'] },
      { name: 'Russia. Premier League', competitors: ['Zenit', 'Spartak', 'CSKA', 'Lokomotiv'] },
    ],
  },
  {
    kind: 'Tennis', section: 'sport', draw: false, durationMinutes: 120, scoring: sets(0.0008, 2), markets: ['main'],
    leagues: [{ name: 'ATP Finals', competitors: ['Djokovic', 'Alcaraz', 'Sinner', 'Medvedev', 'Zverev', 'Rune', 'Ruud', 'Fritz'] }],
  },
  {
    kind: 'Basketball', section: 'sport', draw: false, durationMinutes: 48, scoring: { rate: 0.075, points: [1, 2, 2, 3], spread: 0.15, catchUp: 0.006, suspends: false }, markets: ['main', 'total'], totalLine: 210.5,
    leagues: [
      { name: 'NBA', competitors: ['Lakers', 'Celtics', 'Warriors', 'Nuggets', 'Bucks', 'Heat'] },
      { name: 'EuroLeague', competitors: ['Real Madrid', 'Olympiacos', 'Fenerbahçe', 'Panathinaikos'] },
    ],
  },
  { kind: 'IceHockey', section: 'sport', draw: true, durationMinutes: 60, scoring: { rate: 0.003, points: [1], spread: 0.6 }, markets: ['main'], leagues: [{ name: 'NHL', competitors: ['Rangers', 'Bruins', 'Oilers', 'Avalanche', 'Panthers', 'Stars'] }] },
  { kind: 'Volleyball', section: 'sport', draw: false, durationMinutes: 100, scoring: sets(0.0015, 3), markets: ['main'], leagues: [{ name: 'Italy. SuperLega', competitors: ['Perugia', 'Trentino', 'Civitanova', 'Modena'] }] },
  { kind: 'Handball', section: 'sport', draw: true, durationMinutes: 60, scoring: { rate: 0.03, points: [1], spread: 0.25, catchUp: 0.01, suspends: false }, markets: ['main'], leagues: [{ name: 'EHF Champions League', competitors: ['Aalborg', 'Barça', 'Kiel', 'Veszprém'] }] },
  { kind: 'TableTennis', section: 'sport', draw: false, durationMinutes: 40, scoring: sets(0.004, 3), markets: ['main'], leagues: [{ name: 'WTT Champions', competitors: ['Fan Zhendong', 'Ma Long', 'Harimoto', 'Moregard'] }] },
  { kind: 'Darts', section: 'sport', draw: false, durationMinutes: 45, scoring: sets(0.0035, 3), markets: ['main'], leagues: [{ name: 'Premier League Darts', competitors: ['Littler', 'Humphries', 'van Gerwen', 'Price'] }] },
  { kind: 'Snooker', section: 'sport', draw: false, durationMinutes: 150, scoring: sets(0.0024, 6), markets: ['main'], leagues: [{ name: 'UK Championship', competitors: ["O'Sullivan", 'Trump', 'Robertson', 'Selby'] }] },
  { kind: 'MMA', section: 'sport', draw: false, durationMinutes: 25, scoring: sets(0.0025, 2), markets: ['main'], leagues: [{ name: 'UFC', competitors: ['Makhachev', 'Topuria', 'Pereira', 'Adesanya'] }] },
  { kind: 'e-Sports', section: 'esports', draw: false, durationMinutes: 120, scoring: sets(0.0008, 2), markets: ['main', 'total'], totalLine: 2.5,
    leagues: [
      { name: 'CS2. Major', competitors: ['NaVi', 'FaZe', 'Vitality', 'G2', 'Spirit', 'MOUZ', 'Astralis', 'Heroic', 'Cloud9', 'Eternal Fire'] },
      { name: 'Dota 2. Riyadh Masters', competitors: ['Team Spirit', 'Liquid', 'Gaimin Gladiators', 'Tundra', 'BetBoom', 'Falcons', 'Xtreme Gaming', 'Aurora'] },
      { name: 'LoL. Worlds', competitors: ['T1', 'Gen.G', 'BLG', 'Fnatic', 'G2 Esports', 'Hanwha Life', 'Weibo Gaming', 'Dplus KIA'] },
      { name: 'Valorant. Champions', competitors: ['Sentinels', 'Paper Rex', 'EDward Gaming', 'LOUD', 'Team Heretics', 'Leviatán', 'DRX', 'Karmine Corp'] },
      { name: 'Rainbow Six. Major', competitors: ['w7m', 'FaZe Clan', 'Team BDS', 'Shopify Rebellion', 'Wolves', 'Oxygen', 'Spacestation', 'Elevate'] },
    ],
  },
  {
    kind: 'Football', section: 'toto', draw: true, durationMinutes: 90, addedMinutes: [1, 6], scoring: GOALS, markets: ['main'],
    leagues: [{ name: 'Toto 15', competitors: ['Benfica', 'Porto', 'Sporting', 'Braga', 'Ajax', 'PSV', 'Feyenoord', 'Celtic', 'Rangers', 'Galatasaray'] }],
  },
]

type Localised = Record<ContentLocale, string>

/** Sport kind names in the punter's language. */
export const SPORT_NAMES: Record<string, Localised> = {
  Football: { en: 'Football', ru: 'Футбол', be: 'Футбол', es: 'Fútbol', pt: 'Futebol', da: 'Fodbold', it: 'Calcio' },
  Tennis: { en: 'Tennis', ru: 'Теннис', be: 'Тэніс', es: 'Tenis', pt: 'Ténis', da: 'Tennis', it: 'Tennis' },
  Basketball: { en: 'Basketball', ru: 'Баскетбол', be: 'Баскетбол', es: 'Baloncesto', pt: 'Basquetebol', da: 'Basketball', it: 'Pallacanestro' },
  IceHockey: { en: 'Ice hockey', ru: 'Хоккей', be: 'Хакей', es: 'Hockey sobre hielo', pt: 'Hóquei no gelo', da: 'Ishockey', it: 'Hockey su ghiaccio' },
  Volleyball: { en: 'Volleyball', ru: 'Волейбол', be: 'Валейбол', es: 'Voleibol', pt: 'Voleibol', da: 'Volleyball', it: 'Pallavolo' },
  Handball: { en: 'Handball', ru: 'Гандбол', be: 'Гандбол', es: 'Balonmano', pt: 'Andebol', da: 'Håndbold', it: 'Pallamano' },
  TableTennis: { en: 'Table tennis', ru: 'Настольный теннис', be: 'Настольны тэніс', es: 'Tenis de mesa', pt: 'Ténis de mesa', da: 'Bordtennis', it: 'Tennistavolo' },
  Darts: { en: 'Darts', ru: 'Дартс', be: 'Дартс', es: 'Dardos', pt: 'Dardos', da: 'Dart', it: 'Freccette' },
  Snooker: { en: 'Snooker', ru: 'Снукер', be: 'Снукер', es: 'Snooker', pt: 'Snooker', da: 'Snooker', it: 'Snooker' },
  MMA: { en: 'MMA', ru: 'ММА', be: 'ММА', es: 'MMA', pt: 'MMA', da: 'MMA', it: 'MMA' },
  'e-Sports': { en: 'E-sports', ru: 'Киберспорт', be: 'Кіберспорт', es: 'eSports', pt: 'eSports', da: 'E-sport', it: 'eSport' },
}

export const sportName = (kind: string, locale: ContentLocale): string => SPORT_NAMES[kind]?.[locale] ?? kind

/**
 * Whether a sport runs on a match clock (football, basketball, hockey …). Sports played to a number
 * of sets, frames, maps or rounds (tennis, darts, snooker, e-sports) show no running minute: a
 * snooker match at "97′" means nothing to a punter.
 */
export function hasMatchClock(kind: string): boolean {
  const sport = SPORTS.find((s) => s.kind === kind)
  return sport !== undefined && sport.scoring.winAt === undefined
}

