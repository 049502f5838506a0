/**
 * The demo catalogue's game tiles (issue 10): a tile is a PNG, because an SVG in an `<img>` is a
 * whole document for the browser and the lobby's six were its longest tasks after the first
 * paint; a link stored before (an `.svg` favourite) still answers; a bad name is a clear 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inflateSync } from 'node:zlib'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => server?.dispose())

const get = (path: string) => fetch(`${server.url}${path}`)

describe('game tiles of the demo catalogue', () => {
  it('the lobby lists PNG tiles, and a tile is a 240×180 RGB PNG, cached 60 s (spec §9 image cache TTL) and then revalidated to a 304', async () => {
    const games = (await (await get('/api/content/games?section=casino')).json()) as { payload: Array<{ image: string }> }
    expect(games.payload.length).toBeGreaterThan(0)
    for (const game of games.payload) expect(game.image).toMatch(/^\/api\/content\/images\/[a-z0-9-]+\.png$/)
    const response = await get(games.payload[0].image)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('cache-control')).toBe('public, max-age=60')
    const etag = response.headers.get('etag')
    expect(etag).toBeTruthy()
    const png = Buffer.from(await response.arrayBuffer())
    // after the 60 s the browser asks again with the ETag: a 304, no bytes sent again
    const again = await fetch(`${server.url}${games.payload[0].image}`, { headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(304)
    expect((await again.arrayBuffer()).byteLength).toBe(0)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR')
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([240, 180, 8, 2])
    // the pixel data inflates to one filter byte and 240 RGB pixels per row
    const idat = png.indexOf('IDAT')
    expect(inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4))).length).toBe(180 * (1 + 240 * 3))
  })

  it('two games get different tiles, and the same game always the same one', async () => {
    const a = Buffer.from(await (await get('/api/content/images/book-of-ra.png')).arrayBuffer())
    const b = Buffer.from(await (await get('/api/content/images/sweet-bonanza.png')).arrayBuffer())
    const again = Buffer.from(await (await get('/api/content/images/book-of-ra.png')).arrayBuffer())
    expect(a.equals(b)).toBe(false)
    expect(a.equals(again)).toBe(true)
  })

  it('an SVG tile link stored before still answers; a bad name is a 404 in the envelope', async () => {
    const svg = await get('/api/content/images/book-of-ra.svg')
    expect(svg.status).toBe(200)
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    for (const bad of ['book-of-ra.gif', 'BOOK.png', '..%2Fsecret.png']) {
      const response = await get(`/api/content/images/${bad}`)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ status: 'ERROR', errorCode: 'NOT_FOUND' })
    }
  })
})
