/**
 * The demo catalogue's game tiles as PNG (issue 10). An SVG in an `<img>` is a whole document for
 * the browser — its own loader, parser, style, layout and text shaping — and the lobby's six
 * tiles were the largest long tasks left after its first paint (about 0.8 s of main-thread work
 * under Lighthouse's 4× CPU); a PNG is decoded off the main thread. Same look as the SVG tile
 * (diagonal two-hue gradient, a light disc at the top right), without the name, which the card
 * prints under the image anyway. Encoded here with zlib: no image library for a demo tile.
 * Each game's art (issue 31): its own colours (the hue of its id) and its category's motif drawn
 * over them — reels for slots, a coin for jackpots, a wheel for roulette and shows, a card for
 * table games, balls for lotteries, a die, a rising flight for crash, lanes for racing — so the
 * tiles of a lobby tell games apart at a glance.
 */
import { deflateSync } from 'node:zlib'

export const TILE_WIDTH = 240
export const TILE_HEIGHT = 180

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** hsl (degrees, 0–1, 0–1) to 0–255 RGB. */
export function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => {
    const k = (n + h / 30) % 12
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))))
  }
  return [f(0), f(8), f(4)]
}

export const TILE_MOTIFS = ['reels', 'coin', 'sevens', 'wheel', 'card', 'balls', 'die', 'flight', 'lanes', 'ball'] as const
export type TileMotif = (typeof TILE_MOTIFS)[number]

const within = (x: number, y: number, cx: number, cy: number, r: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r
const inBox = (x: number, y: number, left: number, top: number, width: number, height: number) => x >= left && x < left + width && y >= top && y < top + height

/** Whether the motif covers the pixel (the motif sits left of centre, clear of the disc). */
const MOTIFS: Record<TileMotif, (x: number, y: number) => boolean> = {
  reels: (x, y) => [40, 90, 140].some((left) => inBox(x, y, left, 50, 40, 80)),
  coin: (x, y) => within(x, y, 95, 95, 55) && !within(x, y, 95, 95, 38),
  sevens: (x, y) => inBox(x, y, 45, 45, 110, 18) || (y >= 63 && y < 140 && x >= 140 - (y - 63) * 0.75 - 16 && x < 140 - (y - 63) * 0.75),
  wheel: (x, y) => (within(x, y, 95, 95, 60) && !within(x, y, 95, 95, 48)) || within(x, y, 95, 95, 12) || (within(x, y, 95, 95, 48) && (Math.abs(x - 95) < 4 || Math.abs(y - 95) < 4)),
  card: (x, y) => Math.abs(x - 95) / 45 + Math.abs(y - 95) / 65 <= 1,
  balls: (x, y) => [50, 95, 140].some((cx) => [70, 120].some((cy) => within(x, y, cx, cy, 18))),
  die: (x, y) => inBox(x, y, 45, 45, 100, 100) && !within(x, y, 70, 70, 10) && !within(x, y, 95, 95, 10) && !within(x, y, 120, 120, 10),
  flight: (x, y) => Math.abs(y - (150 - (x - 30) * 0.8)) < 9 && x >= 30 && x < 160,
  lanes: (x, y) => x >= 20 && x < 170 && [60, 95, 130].some((lane) => Math.abs(y - lane) < 5),
  ball: (x, y) => within(x, y, 95, 95, 50) && !(Math.abs(x - 95) < 14 && Math.abs(y - 95) < 14),
}

/** A tile: gradient from hsl(hue,70%,45%) at the top left to hsl(hue+60,70%,30%) at the bottom
 * right, with a white disc at 12% opacity centred at (190, 40), radius 60, and the motif (if any)
 * in white at 45% opacity. */
export function tilePng(hue: number, motif?: TileMotif): Buffer {
  const from = hslToRgb(hue, 0.7, 0.45)
  const to = hslToRgb((hue + 60) % 360, 0.7, 0.3)
  const covers = motif ? MOTIFS[motif] : () => false
  const row = 1 + TILE_WIDTH * 3
  const pixels = Buffer.alloc(row * TILE_HEIGHT)
  for (let y = 0; y < TILE_HEIGHT; y++) {
    pixels[y * row] = 0 // filter: none
    for (let x = 0; x < TILE_WIDTH; x++) {
      const t = (x / TILE_WIDTH + y / TILE_HEIGHT) / 2
      const light = covers(x, y) ? 0.45 : within(x, y, 190, 40, 60) ? 0.12 : 0
      for (let c = 0; c < 3; c++) {
        const base = from[c] + (to[c] - from[c]) * t
        pixels[y * row + 1 + x * 3 + c] = Math.round(base + (255 - base) * light)
      }
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(TILE_WIDTH, 0)
  header.writeUInt32BE(TILE_HEIGHT, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // colour type: RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
}
