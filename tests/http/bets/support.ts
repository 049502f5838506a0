/** Helpers for the bets and games HTTP tests: the money test server in development mode (feed controls), a live selection, a placement. */
import { startTestServer } from '../../support/server'
import { DEMO_PASSWORD, type MoneyServer } from '../payments/support'
import { addresses, apiCaller } from '../../support/api'

export interface BetsServer extends MoneyServer {
  /** A live event's main-market selections (ids and prices) not yet used by this test file. */
  liveSelections(count?: number): Promise<{ id: string; price: number; eventId: string }[]>
  balance(hash: string): Promise<number>
  dev(path: 'price' | 'hold' | 'settle' | 'pause', body: Record<string, unknown>): Promise<any>
}

const freshIp = addresses(8)
let key = 0
export const newKey = () => `key-${process.pid}-${Date.now()}-${++key}`

export async function startBetsServer(options: Parameters<typeof startTestServer>[0] = {}): Promise<BetsServer> {
  const clock = { now: Date.UTC(2026, 0, 15, 12, 30) }
  const server = await startTestServer({ now: () => clock.now, simulators: true, development: true, ...options })
  const used = new Set<string>()
  const call: MoneyServer['call'] = apiCaller(server.url, freshIp)
  const dev: BetsServer['dev'] = async (path, body) => (await call('POST', `/api/dev/feed/${path}`, { body })).json
  return {
    ...server,
    clock,
    call,
    dev,
    async login(login, site) {
      const res = await call('POST', 'auth/v2/login', { body: { login, password: DEMO_PASSWORD }, site })
      if (res.status !== 200) throw new Error(`login ${login}: ${res.status} ${JSON.stringify(res.json)}`)
      return res.json.payload.punterHash as string
    },
    async provider() {
      return ''
    },
    async balance(hash) {
      return (await call('GET', 'heartbeat', { hash })).json.payload.balanceInfo.mainBalance
    },
    async liveSelections(count = 1) {
      const line = (await call('GET', '/api/content/line?section=sport&state=live')).json.payload as { id: string; main: { selections: { id: string; price: number }[] } | null }[]
      const events = line.filter((e) => e.main && !used.has(e.id)).slice(0, count)
      if (events.length < count) throw new Error('not enough live events')
      const picks = []
      for (const event of events) {
        used.add(event.id)
        await dev('hold', { eventId: event.id, held: false })
        const selection = event.main!.selections[0]
        const priced = (await dev('price', { selectionId: selection.id, price: 2.5 })).payload
        picks.push({ id: selection.id, price: priced.selections[0].price as number, eventId: event.id })
      }
      return picks
    },
  }
}
