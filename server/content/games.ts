/**
 * The demo lobbies' game catalogue (issue 31 item 3): per product, each game's name, provider,
 * category (the lobby's filter; its label is the text `lobby.category.<category>`), whether it is
 * new, and its tile. What a game plays is its game document (schemas/games/, claimed by
 * `product/id`); this is only what a lobby shows and filters on. Names are proper names and stay
 * as they are; the generic words in them ("race 14") are translated (./labels.ts).
 */
import { localLabel } from './labels'
import { pickLocale } from './texts'
import { TILE_HEIGHT, TILE_WIDTH, type TileMotif } from './tile-png'

export const GAME_CATEGORIES = ['slots', 'jackpots', 'classic', 'roulette', 'blackjack', 'baccarat', 'game-shows', 'lottery', 'dice', 'instant', 'crash', 'racing', 'football'] as const
export type GameCategory = (typeof GAME_CATEGORIES)[number]

/** [name, provider, category, new] */
type Entry = [string, string, GameCategory, boolean?]

const CATALOGUE = new Map<string, Entry[]>(
  Object.entries({
    casino: [
      ['Starburst Deluxe', 'NetEnt', 'slots'],
      ['Book of Ra', 'Novomatic', 'slots'],
      ['Gates of Olympus', 'Pragmatic Play', 'slots'],
      ['Sweet Bonanza', 'Pragmatic Play', 'slots'],
      ['Big Bass Splash', 'Reel Kingdom', 'slots'],
      ['Dead or Alive 2', 'NetEnt', 'slots'],
      ['Pharaoh Vault', 'Parlay Studios', 'jackpots', true],
      ['Lucky Lanterns', 'Parlay Studios', 'jackpots'],
      ['Golden Meteor', 'Northlight Games', 'jackpots', true],
      ['Neon Sevens', 'Northlight Games', 'classic'],
      ['Fruit Stand', 'Parlay Studios', 'classic'],
      ['Treasure Tides', 'Northlight Games', 'slots', true],
    ],
    'live-casino': [
      ['Lightning Roulette', 'Evolution', 'roulette'],
      ['Crazy Time', 'Evolution', 'game-shows'],
      ['Blackjack VIP', 'Playtech', 'blackjack'],
      ['Speed Baccarat', 'Evolution', 'baccarat'],
    ],
    'live-games': [
      ['Keno Live', 'Parlay Live', 'lottery'],
      ['Wheel of Fortune', 'Parlay Live', 'game-shows'],
      ['Lucky 6', 'Parlay Live', 'lottery'],
      ['Dice Duel', 'Parlay Live', 'dice', true],
    ],
    'virtual-sports': [
      ['Virtual Derby, race 14', 'Parlay Virtual', 'racing'],
      ['Virtual Cup: Reds – Blues', 'Parlay Virtual', 'football'],
      ['Greyhounds, race 7', 'Parlay Virtual', 'racing', true],
    ],
    mgames: [
      ['Mines', 'Parlay', 'instant'],
      ['Plinko', 'Parlay', 'instant'],
      ['Hi-Lo', 'Parlay', 'instant'],
      ['Tower', 'Parlay', 'instant', true],
    ],
    crash: [
      ['Aviator', 'Spribe', 'crash'],
      ['JetX', 'SmartSoft', 'crash'],
      ['Rocket Crash', 'Parlay', 'crash', true],
      ['Space XY', 'BGaming', 'crash'],
    ],
    'fast-games': [
      ['Dice', 'Parlay', 'dice'],
      ['Coin Flip', 'Parlay', 'instant'],
      ['Wheel', 'Parlay', 'game-shows'],
      ['Keno 80', 'Parlay', 'lottery', true],
    ],
  } satisfies Record<string, Entry[]>),
)

export interface LobbyGame {
  id: string
  title: string
  provider: string
  category: GameCategory
  isNew: boolean
  /** The tile (./tile-png.ts), and its size, so the lobby sets width and height (no layout shift). */
  image: string
  width: number
  height: number
}

export const gameSlug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** A product's lobby games, names in the locale's words (English by default). */
export function lobbyGames(product: string, localeName?: unknown): LobbyGame[] {
  const locale = pickLocale(localeName)
  return (CATALOGUE.get(product) ?? []).map(([title, provider, category, isNew]) => {
    const id = gameSlug(title)
    return { id, title: localLabel(title, locale), provider, category, isNew: isNew === true, image: `/api/content/images/${id}.png`, width: TILE_WIDTH, height: TILE_HEIGHT }
  })
}

/** The products that have a lobby catalogue. */
export const catalogueProducts = (): string[] => [...CATALOGUE.keys()]

const MOTIF: Record<GameCategory, TileMotif> = {
  slots: 'reels',
  jackpots: 'coin',
  classic: 'sevens',
  roulette: 'wheel',
  'game-shows': 'wheel',
  blackjack: 'card',
  baccarat: 'card',
  lottery: 'balls',
  dice: 'die',
  instant: 'coin',
  crash: 'flight',
  racing: 'lanes',
  football: 'ball',
}

/** The motif of a game's tile, by its id in any product (its category's); none for an unknown id. */
export function tileMotifOf(id: string): TileMotif | undefined {
  for (const entries of CATALOGUE.values()) for (const [title, , category] of entries) if (gameSlug(title) === id) return MOTIF[category]
  return undefined
}
