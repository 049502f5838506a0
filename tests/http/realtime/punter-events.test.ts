/**
 * The punter events of spec §3 that follow a change made elsewhere, over a real server and real
 * sockets (issue 14 item 1): settingsUpdate when settings are saved, regulationAlert when an alert
 * is raised, coRequest through a delayed cash-out (PENDING, then ACCEPTED beside the balance), and
 * mirror when an operator publishes a site's new working mirror. Each goes only to the sockets
 * it concerns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPunterByLogin } from '../../../server/punters/repository'
import { CASH_OUT_DELAY_MS } from '../../../server/bets/cashout'
import { raiseRegulationAlert } from '../../../server/regulation/alerts'
import { DEMO_PASSWORD } from '../../support/api'
import { openSocketClient, type SocketClient } from '../../support/socket-client'
import { newKey, startBetsServer, type BetsServer } from '../bets/support'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

type Client = SocketClient
const open = (path: string, host: string) => openSocketClient(server.port, path, host)

/** A logged-in punter's socket (a device of its own: its own session), authenticated. */
async function punterSocket(login: string, host = 'localhost'): Promise<Client & { hash: string }> {
  const answer = await server.call('POST', 'auth/v2/login', { body: { login, password: DEMO_PASSWORD }, site: host === 'localhost' ? undefined : host.replace('.localhost', '') })
  if (answer.status !== 200) throw new Error(`login ${login}: ${answer.status} ${answer.text}`)
  const { punterHash, accessToken } = answer.json.payload
  const client = await open('/sockets/v2/punter?channel=web', host)
  client.socket.send(JSON.stringify({ type: 'AUTH', punterHash, accessToken }))
  const auth = await client.next((f) => f.type === 'AUTH' || f.type === 'ERROR')
  if (auth.type !== 'AUTH') throw new Error(`AUTH refused: ${JSON.stringify(auth)}`)
  return Object.assign(client, { hash: punterHash as string })
}

const punterIdOf = async (email: string) => (await findPunterByLogin(server.deps.data, 'curacao', 'email', email))!.id

describe('settingsUpdate', () => {
  it('settings saved on one device reach every socket of that punter (the saving one too) with the saved settings, and no other punter', async () => {
    const phone = await punterSocket('opened@demo.parlay.test')
    const laptop = await punterSocket('opened@demo.parlay.test')
    const stranger = await punterSocket('vip@demo.parlay.test')
    const saved = await server.call('PUT', 'punter/settings', { hash: phone.hash, body: { oddsType: 'american', priceChangeNotificationViewType: 'TEXT_COLOR' } })
    expect(saved.status).toBe(200)
    for (const device of [phone, laptop]) {
      const frame = await device.next((f) => f.type === 'settingsUpdate')
      expect(frame.payload.changed).toEqual(['oddsType', 'priceChangeNotificationViewType'])
      expect(frame.payload.settings).toMatchObject({ oddsType: 'american', priceChangeNotificationViewType: 'TEXT_COLOR' })
    }
    await stranger.roundTrip()
    expect(stranger.frames.some((f) => f.type === 'settingsUpdate')).toBe(false)
    // refused settings change nothing and announce nothing
    expect((await server.call('PUT', 'punter/settings', { hash: phone.hash, body: { oddsType: 'roman' } })).status).toBe(400)
    await laptop.roundTrip()
    expect(laptop.frames.filter((f) => f.type === 'settingsUpdate')).toHaveLength(1)
    for (const c of [phone, laptop, stranger]) c.socket.close()
  })
})

describe('regulationAlert', () => {
  it('an alert raised on the server goes at once to the punter’s sockets with the figures notification/info answers', async () => {
    const client = await punterSocket('opened@demo.parlay.test')
    const stranger = await punterSocket('vip@demo.parlay.test')
    await raiseRegulationAlert(server.deps.data, await punterIdOf('opened@demo.parlay.test'), { spentHours: 2, totalBetMinUnit: 15_000, totalLostMinUnit: 4_000 }, server.clock.now)
    const frame = await client.next((f) => f.type === 'regulationAlert')
    expect(frame.payload).toEqual({ notificationInfo: { status: 'NEED_TO_CONFIRM', spentHours: 2, totalBetMinUnit: 15_000, totalLostMinUnit: 4_000 } })
    const info = await server.call('GET', 'regulation/punter/alerts/notification/info', { hash: client.hash })
    expect(info.json.payload).toEqual(frame.payload)
    await stranger.roundTrip()
    expect(stranger.frames.some((f) => f.type === 'regulationAlert')).toBe(false)
    client.socket.close()
    stranger.socket.close()
  })
})

describe('coRequest', () => {
  it('a delayed cash-out: PENDING with the request id when asked, then ACCEPTED with the amount after the delay, after the balance’s accountUpdate', async () => {
    const client = await punterSocket('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const bet = (await server.call('POST', 'bets/place', { hash: client.hash, body: { kind: 'single', selections: [{ selectionId: pick.id, price: pick.price }], stake: 10, idempotencyKey: newKey() } })).json.payload
    const body = { amount: bet.cashOut.amount, confirmation: 'NEVER', delay: true }
    const asked = (await server.call('POST', `bets/${bet.betId}/cash-out`, { hash: client.hash, body })).json.payload
    const pending = await client.next((f) => f.type === 'coRequest')
    expect(pending.payload).toEqual({ betId: bet.betId, requestId: asked.requestId, status: 'PENDING' })
    server.clock.now += CASH_OUT_DELAY_MS
    try {
      const taken = (await server.call('POST', `bets/${bet.betId}/cash-out`, { hash: client.hash, body: { ...body, requestId: asked.requestId } })).json.payload
      expect(taken.status).toBe('ACCEPTED')
      const accepted = await client.next((f) => f.type === 'coRequest' && f.payload.status === 'ACCEPTED')
      expect(accepted.payload).toEqual({ betId: bet.betId, status: 'ACCEPTED', amount: bet.cashOut.amount })
      const types = client.frames.map((f) => f.type)
      expect(types.lastIndexOf('accountUpdate')).toBeLessThan(types.lastIndexOf('coRequest'))
      expect(client.frames.findLast((f) => f.type === 'accountUpdate').payload.balance).toBe(taken.balance)
    } finally {
      server.clock.now -= CASH_OUT_DELAY_MS
    }
    client.socket.close()
  })
})

describe('mirror', () => {
  it('publishing a new MIRROR_NAME in the remote config sends mirror {mirrorName} once to each open punter socket of the sites it changes; publishing it again sends nothing', async () => {
    const here = await punterSocket('opened@demo.parlay.test')
    const spain = await punterSocket('spain@demo.parlay.test', 'spain.localhost')
    const records = server.deps.documents.list()
    const withMirror = records.map((r) =>
      r.kind === 'remote-config' && r.id === 'app' ? { ...r, source: { ...r.source, config: { ...(r.source as { config: object }).config, MIRROR_NAME: 'parlay-mirror.example' } } } : r,
    )
    server.deps.store.serve(withMirror)
    for (const client of [here, spain]) expect((await client.next((f) => f.type === 'mirror')).payload).toMatchObject({ mirrorName: 'parlay-mirror.example' })
    server.deps.store.serve(withMirror)
    await here.roundTrip()
    await spain.roundTrip()
    expect(here.frames.filter((f) => f.type === 'mirror')).toHaveLength(1)
    expect(spain.frames.filter((f) => f.type === 'mirror')).toHaveLength(1)
    server.deps.store.serve(records)
    here.socket.close()
    spain.socket.close()
  })
})
