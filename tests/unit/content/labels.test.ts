/**
 * Content data in the punter's language: team, player, game and league names stay as they are
 * (proper names); the country before a league and the lobbies' generic labels are translated.
 */
import { describe, expect, it } from 'vitest'
import { localLabel, localPlace } from '../../../server/content/labels'
import { demoEvents } from '../../../server/content/router'
import { results, tournaments } from '../../../server/content/sport'
import { createFeed } from '../../../server/feed'

describe('content labels', () => {
  it('a league keeps its own name; the country before it is translated', () => {
    expect(localLabel('England. Premier League', 'es')).toBe('Inglaterra. Premier League')
    expect(localLabel('Spain. LaLiga', 'da')).toBe('Spanien. LaLiga')
    expect(localLabel('Italy. Serie A, finished', 'ru')).toBe('Италия. Serie A, завершён')
    expect(localLabel('England. Premier League', 'en')).toBe('England. Premier League')
  })

  it('names that are not places are left alone (game titles, e-sport leagues)', () => {
    expect(localLabel('Dota 2. The International', 'it')).toBe('Dota 2. The International')
    expect(localLabel('Virtual Cup: Reds – Blues', 'pt')).toBe('Virtual Cup: Reds – Blues')
  })

  it('generic lobby labels and numbered rounds are words, so they are translated', () => {
    expect(localLabel('Horse racing', 'it')).toBe('Ippica')
    expect(localLabel('Greyhounds, race 7', 'es')).toBe('Galgos, carrera 7')
    expect(localLabel('Toto 15: round 112', 'be')).toBe('Toto 15: тур 112')
    expect(localPlace('USA', 'es')).toBe('EE. UU.')
  })

  it('the lobby events, results and tournaments answer in the locale asked for', () => {
    expect(demoEvents('sport', 'es')[0]).toMatchObject({ title: 'Arsenal – Chelsea', league: 'Inglaterra. Premier League' })
    const feed = createFeed({ seed: 14, now: () => Date.UTC(2026, 0, 10) })
    expect(results(feed, 'sport', 'it').some((r) => r.subtitle.includes('Inghilterra. Premier League'))).toBe(true)
    expect(tournaments(feed, 'ru')[0]).toMatchObject({ title: 'Англия. Premier League', sport: 'Футбол' })
    expect(demoEvents('sport')[0].league).toBe('England. Premier League')
  })
})
