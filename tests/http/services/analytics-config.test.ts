/**
 * The analytics remote-config GET over HTTP (spec §7 "remote-config GET (api_key, config_keys,
 * session_id)"): it answers the asked keys as the site's remote-config document holds them (the
 * oracle: the document file itself), briefly cacheable; a wrong api_key, an unknown key or
 * parameter, a bad or repeated session_id answer 400 ValidationError, a wrong api_key 403, never a 500.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, apiCaller, type Call } from '../../support/api'
import { startTestServer, type TestServer } from '../../support/server'

const document = JSON.parse(readFileSync('schemas/remote-config/app.json', 'utf8')) as { config: Record<string, unknown> }
const KEY = document.config.AMPLITUDE_KEY as string
const SESSION = String(Date.UTC(2026, 0, 15, 12, 0))
let server: TestServer
const freshIp = addresses(47)

beforeAll(async () => {
  server = await startTestServer({ now: () => Date.UTC(2026, 0, 15, 12, 0) })
})
afterAll(async () => server?.dispose())

const call: Call = (method, path, options) => apiCaller(server.url, freshIp)(method, path, options)
const ask = (query: string, headers: Record<string, string> = {}) => call('GET', `/analytics/api/2/config?${query}`, { headers })
const query = (fields: Record<string, string>) => new URLSearchParams({ api_key: KEY, config_keys: 'AMPLITUDE_DISABLED_EVENTS', session_id: SESSION, ...fields }).toString()

describe('analytics remote-config GET', () => {
  it('answers the asked keys as the site document holds them, private and cacheable for 60 s', async () => {
    const res = await ask(query({ config_keys: 'AMPLITUDE_DISABLED_EVENTS,AMPLITUDE_REPLAY' }))
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ code: 200, configs: { AMPLITUDE_DISABLED_EVENTS: document.config.AMPLITUDE_DISABLED_EVENTS, AMPLITUDE_REPLAY: document.config.AMPLITUDE_REPLAY } })
    expect(res.headers.get('cache-control')).toBe('private, max-age=60')
    const one = await ask(query({ config_keys: 'AMPLITUDE_REPLAY' }))
    expect(one.json).toEqual({ code: 200, configs: { AMPLITUDE_REPLAY: document.config.AMPLITUDE_REPLAY } })
  })

  it.each([
    ['no api_key', `config_keys=AMPLITUDE_REPLAY&session_id=${SESSION}`],
    ['an unknown config key', query({ config_keys: 'AMPLITUDE_REPLAY,AMPLITUDE_KEY' })],
    ['an empty config key', query({ config_keys: 'AMPLITUDE_REPLAY,' })],
    ['a session_id that is not a number', query({ session_id: '12ab' })],
    ['a session_id of 17 digits', query({ session_id: '1'.repeat(17) })],
    ['a session_id given twice', `${query({})}&session_id=2`],
    ['an unknown parameter', `${query({})}&user_id=7`],
    ['a bracketed parameter', `${query({})}&api_key[x]=1`],
  ])('%s answers 400 ValidationError in the envelope, never a 500', async (_name, q) => {
    const res = await ask(q)
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError' })
  })

  it('a wrong api_key answers 403 INVALID_API_KEY, not cacheable', async () => {
    const res = await ask(query({ api_key: 'someone-else' }))
    expect(res.status).toBe(403)
    expect(res.json).toEqual({ status: 'ERROR', errorCode: 'INVALID_API_KEY' })
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('a site whose AMPLITUDE_KEY is empty (Russia) answers no settings, even to the default key', async () => {
    const res = await ask(query({}), { 'x-parlay-target': 'russia' })
    expect(res.status).toBe(403)
    expect(res.json).toMatchObject({ errorCode: 'INVALID_API_KEY' })
  })
})
