/** Helpers for the money HTTP tests: a server with simulators on, a movable clock, a logged-in punter, the provider's pages. */
import { startTestServer, type TestServer } from '../../support/server'
import { addresses, apiCaller, DEMO_PASSWORD, type CallOptions, type CallResult } from '../../support/api'

export { GATE, DEMO_PASSWORD } from '../../support/api'

export interface MoneyServer extends TestServer {
  clock: { now: number }
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>
  /** Logs a demo punter in; answers the session hash. */
  login(login: string, site?: string): Promise<string>
  /** Submits one of the simulator's forms, as the browser would: answers the Location it redirects to. */
  provider(path: string, form: Record<string, string>): Promise<string>
}

const freshIp = addresses(9)
export async function startMoneyServer(): Promise<MoneyServer> {
  const clock = { now: Date.UTC(2026, 0, 15, 12) }
  const server = await startTestServer({ now: () => clock.now, simulators: true })
  const call: MoneyServer['call'] = apiCaller(server.url, freshIp)
  return {
    ...server,
    clock,
    call,
    async login(login, site) {
      const res = await call('POST', 'auth/v2/login', { body: { login, password: DEMO_PASSWORD }, site })
      if (res.status !== 200) throw new Error(`login ${login}: ${res.status} ${JSON.stringify(res.json)}`)
      return res.json.payload.punterHash as string
    },
    async provider(path, form) {
      const res = await fetch(server.url + path, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' })
      return res.headers.get('location') ?? ''
    },
  }
}
