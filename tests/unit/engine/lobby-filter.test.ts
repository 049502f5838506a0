/**
 * A casino lobby's search and filters (issue 31 item 3), kernel/core/lobby-filter.ts: the search
 * matches names whatever their case, accents and punctuation; each filter keeps only its games;
 * typing more never brings a game back (the tiles narrow as the punter types).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { facetsOf, filterGames, NO_FILTER, searchable, type LobbyGameItem } from '../../../kernel/core/lobby-filter'
import { lobbyGames } from '../../../server/content/games'

const games: LobbyGameItem[] = lobbyGames('casino')
const titles = (list: LobbyGameItem[]) => list.map((g) => g.title)
const search = (query: string, favourites: ReadonlySet<string> = new Set()) => titles(filterGames(games, { ...NO_FILTER, query }, favourites))

describe('lobby search by name', () => {
  it('finds a name from any part of it, whatever the case, accents or punctuation typed', () => {
    expect(search('dead or')).toEqual(['Dead or Alive 2'])
    expect(search('BOOK')).toEqual(['Book of Ra'])
    expect(search('Phäraoh')).toEqual(['Pharaoh Vault'])
    expect(search('  gates   of ')).toEqual(['Gates of Olympus'])
    expect(titles(filterGames(lobbyGames('mgames'), { ...NO_FILTER, query: 'hi lo' }, new Set()))).toEqual(['Hi-Lo'])
  })

  it('an empty search shows every game; a name no game has shows none', () => {
    expect(search('')).toEqual(titles(games))
    expect(search('poker')).toEqual([])
  })

  it('property: typing one more character never adds a game (the tiles narrow as the punter types)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...titles(games)), fc.nat(), fc.string({ maxLength: 3 }), (title, cut, extra) => {
        const typed = (title + extra).slice(0, 1 + (cut % (title.length + extra.length)))
        for (let n = 1; n < typed.length; n++) {
          const shorter = new Set(search(typed.slice(0, n)))
          for (const found of search(typed.slice(0, n + 1))) expect(shorter.has(found)).toBe(true)
        }
        expect(search(title)).toContain(title)
      }),
    )
  })
})

describe('lobby filters', () => {
  it('a category, a provider, new games and favourites each keep only their games, and they combine', () => {
    const only = (filter: Partial<typeof NO_FILTER>, favourites: ReadonlySet<string> = new Set()) => filterGames(games, { ...NO_FILTER, ...filter }, favourites)
    expect(only({ category: 'jackpots' }).every((g) => g.category === 'jackpots')).toBe(true)
    expect(only({ provider: 'NetEnt' }).map((g) => g.title)).toEqual(['Starburst Deluxe', 'Dead or Alive 2'])
    expect(only({ newOnly: true }).every((g) => g.isNew)).toBe(true)
    expect(only({ favouritesOnly: true }, new Set(['book-of-ra', 'fruit-stand'])).map((g) => g.id)).toEqual(['book-of-ra', 'fruit-stand'])
    expect(only({ category: 'jackpots', newOnly: true }).map((g) => g.title)).toEqual(['Pharaoh Vault', 'Golden Meteor'])
    expect(only({ provider: 'NetEnt', query: 'star' }).map((g) => g.title)).toEqual(['Starburst Deluxe'])
  })

  it('offers the categories in the catalogue’s order and the providers alphabetically', () => {
    const { categories, providers } = facetsOf(games)
    expect(categories).toEqual(['slots', 'jackpots', 'classic'])
    expect(providers).toEqual([...providers].sort((a, b) => a.localeCompare(b, 'en')))
    expect(searchable('Ça Va—Bien!')).toBe('ca va bien')
  })
})
