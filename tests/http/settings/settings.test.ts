/**
 * The account settings over HTTP (spec §3 "Account settings keys", §7 dictionary calls): the
 * dictionary calls that give every choice, PUT /punter/settings saving each server-side key into
 * the heartbeat, and bad input refused with a 4xx in the envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAuthServer, type AuthTestServer } from '../auth/support'

let server: AuthTestServer
beforeAll(async () => {
  server = await startAuthServer()
})
afterAll(async () => server?.dispose())

async function sessionOf(login: string, site?: string) {
  const headers: Record<string, string> = site ? { 'x-parlay-target': site } : {}
  const res = await server.call('POST', 'auth/v2/login', { body: { login, password: 'parlay-demo-1' }, headers })
  expect(res.status).toBe(200)
  return { ...headers, 'punter-session-hash': res.json.payload.punterHash as string }
}
const put = (headers: Record<string, string>, body: unknown) => server.call('PUT', 'punter/settings', { body, headers })
const heartbeatSettings = async (headers: Record<string, string>) => (await server.call('GET', 'heartbeat', { headers })).json.payload.settings

describe('dictionary calls give the choices of every setting', () => {
  it('odds types: the six of spec §3, decimal first', async () => {
    const res = await server.call('GET', 'dictionary/odds-types')
    expect(res.status).toBe(200)
    expect(res.json.payload.map((t: { id: string }) => t.id)).toEqual(['decimal', 'fractions', 'american', 'hongkong', 'indonesian', 'malaysian'])
  })

  it('betting modes carry the odds-change mapping: GreaterOrEqualsToCurrent → when_increase, Any → always, EqualsToCurrent → off', async () => {
    const res = await server.call('GET', 'dictionary/betting-modes')
    expect(res.json.payload).toEqual(
      expect.arrayContaining([
        { id: 'GreaterOrEqualsToCurrent', autoConfirm: 'when_increase' },
        { id: 'Any', autoConfirm: 'always' },
        { id: 'EqualsToCurrent', autoConfirm: 'off' },
      ]),
    )
  })

  it('available timeouts are whole minutes in ms, 0 (never) first', async () => {
    const timeouts = (await server.call('GET', 'dictionary/available-timeouts')).json.payload as { id: number; minutes: number }[]
    expect(timeouts[0]).toEqual({ id: 0, minutes: 0 })
    for (const t of timeouts) expect(t.id).toBe(t.minutes * 60_000)
  })

  it('time zones have an id, an IANA name and the offset in minutes at the server clock (summer time included)', async () => {
    const zones = (await server.call('GET', 'dictionary/time-zones')).json.payload as { id: number; name: string; offset: number }[]
    const byName = Object.fromEntries(zones.map((z) => [z.name, z]))
    // the test clock is 1 June 2025: Madrid is on summer time (UTC+2), Moscow has none (UTC+3)
    expect(byName.UTC).toEqual({ id: 0, name: 'UTC', offset: 0 })
    expect(byName['Europe/Madrid'].offset).toBe(120)
    expect(byName['Europe/Moscow'].offset).toBe(180)
    expect(byName['America/Curacao'].offset).toBe(-240)
    expect(new Set(zones.map((z) => z.id)).size).toBe(zones.length)
    expect(zones.map((z) => z.offset)).toEqual([...zones.map((z) => z.offset)].sort((a, b) => a - b))
  })

  it('currencies are there for currencyId', async () => {
    const res = await server.call('GET', 'dictionary/currencies')
    expect(res.json.payload).toEqual(expect.arrayContaining([expect.objectContaining({ id: 2, code: 'EUR' })]))
  })

  it('user location also names the currency of the country (autoDetectedCurrency): Spanish visitors get EUR', async () => {
    const res = await server.call('GET', 'dictionary/user-location', { headers: { 'accept-language': 'es-ES,es;q=0.9' } })
    expect(res.json.payload).toMatchObject({ countryCode: 'ES', currencyCode: 'EUR' })
  })

  it('OpenAPI lists every dictionary call of the settings', async () => {
    const paths = Object.keys((await server.call('GET', '/api/openapi.json')).json.paths)
    for (const name of ['odds-types', 'time-zones', 'available-timeouts', 'betting-modes', 'currencies']) expect(paths).toContain(`/mobile-gate/api/v1/dictionary/${name}`)
  })
})

describe('PUT /punter/settings saves every server-side key, seen in the heartbeat', () => {
  it('all twelve server-side keys at once come back in the heartbeat', async () => {
    const headers = await sessionOf('HighRoller')
    const values = {
      noEmailCorrespondence: true,
      termsAgreement: false,
      locale: 'ru',
      oddsType: 'fractions',
      betPlacingMode: 'Any',
      priceChangeNotificationViewType: 'TEXT_COLOR',
      standbyTimeoutMillis: 900_000,
      timeZoneId: 13,
      showCurrentBalance: false,
      currencyId: 2,
      showVipStatusAppIcon: true,
      showVipStatusAvatar: true,
    }
    expect((await put(headers, values)).status).toBe(200)
    expect(await heartbeatSettings(headers)).toMatchObject(values)
  })

  it('a partial save keeps the other keys', async () => {
    const headers = await sessionOf('Copenhagen', 'denmark')
    await put(headers, { oddsType: 'american' })
    await put(headers, { standbyTimeoutMillis: 300_000 })
    expect(await heartbeatSettings(headers)).toMatchObject({ oddsType: 'american', standbyTimeoutMillis: 300_000, locale: 'da' })
  })
})

describe('bad input on PUT /punter/settings: 400 ValidationError naming the field, nothing stored', () => {
  it.each([
    ['an unknown odds type', { oddsType: 'roman' }, 'oddsType'],
    ['an unknown betting mode', { betPlacingMode: 'Sometimes' }, 'betPlacingMode'],
    ['an unknown price-change indicator', { priceChangeNotificationViewType: 'BLINK' }, 'priceChangeNotificationViewType'],
    ['a timeout that is not offered', { standbyTimeoutMillis: 123 }, 'standbyTimeoutMillis'],
    ['a negative timeout', { standbyTimeoutMillis: -1 }, 'standbyTimeoutMillis'],
    ['an unknown time zone id', { timeZoneId: 999 }, 'timeZoneId'],
    ['a time zone name instead of its id', { timeZoneId: 'Europe/Madrid' }, 'timeZoneId'],
    ['an unknown currency id', { currencyId: 77 }, 'currencyId'],
    ['a string for a switch', { showCurrentBalance: 'false' }, 'showCurrentBalance'],
    ['a language the site does not offer', { locale: 'it' }, 'locale'],
    ['a malformed language', { locale: 'english' }, 'locale'],
    ['a local-only key', { quickBetAmount: 5 }, 'quickBetAmount'],
  ])('%s', async (_name, body, field) => {
    const headers = await sessionOf('Opened')
    const before = await heartbeatSettings(headers)
    const res = await put(headers, { ...body, oddsType: (body as { oddsType?: string }).oddsType ?? 'malaysian' })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: { field } })
    expect(res.text).not.toMatch(/\bat .+:\d+:\d+/)
    expect(await heartbeatSettings(headers)).toEqual(before)
  })

  it('without a session → 401', async () => {
    const res = await put({}, { oddsType: 'american' })
    expect(res.status).toBe(401)
    expect(res.json.status).toBe('ERROR')
  })
})
