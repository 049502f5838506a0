/** Helpers for the money HTTP tests: a server with simulators on, a movable clock, a logged-in punter, the provider's pages. */
import { startTestServer, type TestServer } from '../../support/server'

export const GATE = '/mobile-gate/api/v1/'
export const DEMO_PASSWORD = 'parlay-demo-1'

export interface MoneyServer extends TestServer {
  clock: { now: number }
  call(method: string, path: string, options?: { body?: unknown; raw?: string; hash?: string; site?: string; headers?: Record<string, string> }): Promise<{ status: number; json: any; headers: Headers }>
  /** Logs a demo punter in; answers the session hash. */
  login(login: string, site?: string): Promise<string>
  /** Submits one of the simulator's forms, as the browser would: answers the Location it redirects to. */
  provider(path: string, form: Record<string, string>): Promise<string>
}

let ip = 0
export async function startMoneyServer(): Promise<MoneyServer> {
  const clock = { now: Date.UTC(2026, 0, 15, 12) }
  const server = await startTestServer({ now: () => clock.now, simulators: true })
  const call: MoneyServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { 'x-forwarded-for': `10.9.${Math.floor(++ip / 250)}.${ip % 250}`, ...options.headers }
    if (options.hash) headers['punter-session-hash'] = options.hash
    if (options.site) headers['x-parlay-target'] = options.site
    let body = options.raw
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await fetch(server.url + (path.startsWith('/') ? path : GATE + path), { method, headers, body, redirect: 'manual' })
    const text = await res.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: res.status, json, headers: res.headers }
  }
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
