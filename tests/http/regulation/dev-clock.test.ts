/**
 * The development server clock (server/regulation/dev-clock.ts): browser tests move it to see the
 * reality check and Spain's session reminder come due without waiting. Forward only, bad input is
 * a 400 in the envelope, and a production server has no such route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../support/server'

const post = (server: TestServer, body: unknown) =>
  fetch(`${server.url}/api/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('development server', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ development: true })
  })
  afterAll(async () => server?.dispose())

  it('moving the clock forward moves the time every part of the server reads', async () => {
    const res = await post(server, { advanceMs: 3_600_000 })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { payload: { now: number; offsetMs: number } }
    expect(body.payload.offsetMs).toBe(3_600_000)
    expect(server.deps.now() - Date.now()).toBeGreaterThanOrEqual(3_600_000 - 1_000)
    const ping = (await (await fetch(`${server.url}/ping.json`)).json()) as { payload: { time: number } }
    expect(ping.payload.time).toBeGreaterThanOrEqual(body.payload.now)
  })

  it.each([[{ advanceMs: -1 }], [{ advanceMs: 'soon' }], [{}], [{ advanceMs: 1, back: true }]])('never back, never bad input: %j → 400', async (body) => {
    const res = await post(server, body)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { status: string }).status).toBe('ERROR')
  })
})

describe('production server', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => server?.dispose())

  it('has no movable clock: /api/dev/clock is a 404 in the envelope', async () => {
    const res = await post(server, { advanceMs: 1_000 })
    expect(res.status).toBe(404)
    expect(((await res.json()) as { errorCode: string }).errorCode).toBe('NOT_FOUND')
  })
})
