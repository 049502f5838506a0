/**
 * What a casino lobby shows for the punter's search and filters (issue 31 item 3): games whose
 * name holds what was typed (case, accents and punctuation ignored: "dead or" finds "Dead or
 * Alive 2", "hi lo" finds "Hi-Lo", "pharaon" does not find "Pharaoh"), of the chosen category and
 * provider, new ones only, the punter's favourites only. Framework-free, tested without a browser.
 */

export interface LobbyGameItem {
  id: string
  title: string
  provider: string
  category: string
  isNew: boolean
}

export interface LobbyFilter {
  query: string
  category: string | null
  provider: string | null
  newOnly: boolean
  favouritesOnly: boolean
}

export const NO_FILTER: LobbyFilter = { query: '', category: null, provider: null, newOnly: false, favouritesOnly: false }

/** Lower case, without accents and with single spaces: what a search compares. */
export const searchable = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

export function filterGames<G extends LobbyGameItem>(games: readonly G[], filter: LobbyFilter, favourites: ReadonlySet<string>): G[] {
  const query = searchable(filter.query)
  return games.filter(
    (game) =>
      (query === '' || searchable(game.title).includes(query)) &&
      (filter.category === null || game.category === filter.category) &&
      (filter.provider === null || game.provider === filter.provider) &&
      (!filter.newOnly || game.isNew) &&
      (!filter.favouritesOnly || favourites.has(game.id)),
  )
}

/** The categories (in the catalogue's order) and providers (alphabetical) a lobby's games have. */
export function facetsOf(games: readonly LobbyGameItem[]): { categories: string[]; providers: string[] } {
  const categories = [...new Set(games.map((g) => g.category))]
  const providers = [...new Set(games.map((g) => g.provider))].sort((a, b) => a.localeCompare(b, 'en'))
  return { categories, providers }
}

/** Games as a lobby binding gives them: anything without an id, a title and a provider is left out. */
export function asLobbyGames(value: unknown): (LobbyGameItem & { image?: string; width?: number; height?: number })[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((g) =>
    g && typeof g === 'object' && typeof g.id === 'string' && typeof g.title === 'string' && typeof g.provider === 'string'
      ? [{ ...g, category: typeof g.category === 'string' ? g.category : '', isNew: g.isNew === true }]
      : [],
  )
}
