/**
 * Each game's tile art (issue 31 item 3): its own colours and its category's motif, so the tiles
 * of a lobby tell games apart. Read back from the PNG's own pixels.
 */
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { TILE_HEIGHT, TILE_MOTIFS, TILE_WIDTH, tilePng } from '../../../server/content/tile-png'
import { lobbyGames, tileMotifOf } from '../../../server/content/games'

/** The RGB of pixel (x, y) of a tile. */
function pixel(png: Buffer, x: number, y: number): number[] {
  const at = png.indexOf('IDAT')
  const raw = inflateSync(png.subarray(at + 4, at + 4 + png.readUInt32BE(at - 4)))
  const start = y * (1 + TILE_WIDTH * 3) + 1 + x * 3
  return [raw[start], raw[start + 1], raw[start + 2]]
}

describe('game tile art', () => {
  it('every motif draws a different tile over the same colours', () => {
    const tiles = TILE_MOTIFS.map((motif) => tilePng(200, motif).toString('base64'))
    expect(new Set([...tiles, tilePng(200).toString('base64')]).size).toBe(TILE_MOTIFS.length + 1)
  })

  it('the slots motif lightens its three reels and leaves the gaps between them as they were', () => {
    const plain = tilePng(120)
    const reels = tilePng(120, 'reels')
    for (const x of [60, 110, 160]) expect(pixel(reels, x, 90).every((c, i) => c > pixel(plain, x, 90)[i])).toBe(true)
    for (const x of [85, 135]) expect(pixel(reels, x, 90)).toEqual(pixel(plain, x, 90))
    expect(pixel(reels, 10, TILE_HEIGHT - 5)).toEqual(pixel(plain, 10, TILE_HEIGHT - 5))
  })

  it('every game of the casino lobby has a motif, and games of different categories get different ones', () => {
    const games = lobbyGames('casino')
    for (const game of games) expect(TILE_MOTIFS).toContain(tileMotifOf(game.id))
    const byCategory = new Map(games.map((g) => [g.category, tileMotifOf(g.id)]))
    expect(new Set(byCategory.values()).size).toBe(byCategory.size)
  })
})
