/**
 * Content labels in the punter's language (the census found "England. Premier League" and "Horse
 * racing" on Spanish and Danish pages). Decision: names stay as they are — teams, players, games,
 * providers and the leagues' own names (Premier League, LaLiga, Serie A) are proper names — but the
 * words around them are translated: the country or region before a league ("England. …"), and the
 * generic labels of the demo lobbies (sport kinds, rounds, match states).
 */
import type { ContentLocale } from './texts'

type Localised = Record<ContentLocale, string>

/** Countries and regions that open a league label ("Spain. LaLiga") or name a tournament's home. */
const PLACES: Record<string, Localised> = {
  England: { en: 'England', ru: 'Англия', be: 'Англія', es: 'Inglaterra', pt: 'Inglaterra', da: 'England', it: 'Inghilterra' },
  Spain: { en: 'Spain', ru: 'Испания', be: 'Іспанія', es: 'España', pt: 'Espanha', da: 'Spanien', it: 'Spagna' },
  Germany: { en: 'Germany', ru: 'Германия', be: 'Германія', es: 'Alemania', pt: 'Alemanha', da: 'Tyskland', it: 'Germania' },
  Italy: { en: 'Italy', ru: 'Италия', be: 'Італія', es: 'Italia', pt: 'Itália', da: 'Italien', it: 'Italia' },
  France: { en: 'France', ru: 'Франция', be: 'Францыя', es: 'Francia', pt: 'França', da: 'Frankrig', it: 'Francia' },
  Russia: { en: 'Russia', ru: 'Россия', be: 'Расія', es: 'Rusia', pt: 'Rússia', da: 'Rusland', it: 'Russia' },
  Denmark: { en: 'Denmark', ru: 'Дания', be: 'Данія', es: 'Dinamarca', pt: 'Dinamarca', da: 'Danmark', it: 'Danimarca' },
  Portugal: { en: 'Portugal', ru: 'Португалия', be: 'Партугалія', es: 'Portugal', pt: 'Portugal', da: 'Portugal', it: 'Portogallo' },
  Europe: { en: 'Europe', ru: 'Европа', be: 'Еўропа', es: 'Europa', pt: 'Europa', da: 'Europa', it: 'Europa' },
  USA: { en: 'USA', ru: 'США', be: 'ЗША', es: 'EE. UU.', pt: 'EUA', da: 'USA', it: 'USA' },
}

/** Whole labels and label parts of the demo lobbies that are words, not names. */
const WORDS: Record<string, Localised> = {
  'Horse racing': { en: 'Horse racing', ru: 'Скачки', be: 'Скачкі', es: 'Carreras de caballos', pt: 'Corridas de cavalos', da: 'Hestevæddeløb', it: 'Ippica' },
  Football: { en: 'Football', ru: 'Футбол', be: 'Футбол', es: 'Fútbol', pt: 'Futebol', da: 'Fodbold', it: 'Calcio' },
  Greyhounds: { en: 'Greyhounds', ru: 'Собачьи бега', be: 'Сабачыя бегі', es: 'Galgos', pt: 'Galgos', da: 'Greyhounds', it: 'Levrieri' },
  'Correct score, 15 matches': { en: 'Correct score, 15 matches', ru: 'Точный счёт, 15 матчей', be: 'Дакладны лік, 15 матчаў', es: 'Resultado exacto, 15 partidos', pt: 'Placar exato, 15 jogos', da: 'Korrekt resultat, 15 kampe', it: 'Risultato esatto, 15 partite' },
  'Correct score, 12 matches': { en: 'Correct score, 12 matches', ru: 'Точный счёт, 12 матчей', be: 'Дакладны лік, 12 матчаў', es: 'Resultado exacto, 12 partidos', pt: 'Placar exato, 12 jogos', da: 'Korrekt resultat, 12 kampe', it: 'Risultato esatto, 12 partite' },
  finished: { en: 'finished', ru: 'завершён', be: 'завершаны', es: 'finalizado', pt: 'encerrado', da: 'slut', it: 'terminata' },
  '4th quarter': { en: '4th quarter', ru: '4-я четверть', be: '4-я чвэрць', es: '4.º cuarto', pt: '4º quarto', da: '4. periode', it: '4° quarto' },
  live: { en: 'live', ru: 'в игре', be: 'у гульні', es: 'en directo', pt: 'ao vivo', da: 'live', it: 'live' },
  race: { en: 'race', ru: 'забег', be: 'забег', es: 'carrera', pt: 'corrida', da: 'løb', it: 'corsa' },
  round: { en: 'round', ru: 'тур', be: 'тур', es: 'jornada', pt: 'rodada', da: 'runde', it: 'turno' },
}

/** A place's name in the locale (unknown places as they are). */
export function localPlace(place: string, locale: ContentLocale): string {
  return PLACES[place]?.[locale] ?? place
}

/** A content label in the locale: "Country. League" gets the country translated, comma-separated
 * parts that are known words are translated, and "race"/"round" before a number too. */
export function localLabel(label: string, locale: ContentLocale): string {
  if (locale === 'en') return label
  const dot = /^([^.]+)\. (.+)$/.exec(label)
  if (dot && PLACES[dot[1]]) return `${localPlace(dot[1], locale)}. ${localLabel(dot[2], locale)}`
  return label
    .split(', ')
    .map((part) => WORDS[part]?.[locale] ?? part.replace(/\b(race|round) (\d+)/, (_, word: string, n: string) => `${WORDS[word][locale]} ${n}`))
    .join(', ')
}
