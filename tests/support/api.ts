/**
 * One way for the HTTP tests to call the server: the gateway prefix for bare paths, a client
 * address per call (so per-IP throttling counts only what a test means), the session hash and
 * target site headers, JSON in and out. The per-area supports (auth, payments, bets, credentials)
 * wrap it with their own option names.
 */
export const GATE = '/mobile-gate/api/v1/'
export const DEMO_PASSWORD = 'parlay-demo-1'

export interface CallOptions {
  body?: unknown
  /** A body sent as is (bad JSON, another content type). */
  raw?: string
  /** The punter-session-hash header. */
  hash?: string
  /** The site, by host name (x-parlay-target). */
  site?: string
  /** The client address (x-forwarded-for); a fresh one when not given. */
  ip?: string
  headers?: Record<string, string>
}

export interface CallResult {
  status: number
  json: any
  text: string
  headers: Headers
  ms: number
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<CallResult>

/** Fresh client addresses in one 10.x.0.0/16 block per caller family. */
export function addresses(block: number): () => string {
  let n = 0
  return () => `10.${block}.${Math.floor(++n / 250)}.${n % 250}`
}

export function apiCaller(baseUrl: string, freshIp: () => string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? freshIp(), ...options.headers }
    if (options.hash) headers['punter-session-hash'] = options.hash
    if (options.site) headers['x-parlay-target'] = options.site
    let body = options.raw
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const started = performance.now()
    const res = await fetch(baseUrl + (path.startsWith('/') ? path : GATE + path), { method, headers, body, redirect: 'manual' })
    const text = await res.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: res.status, json, text, headers: res.headers, ms: performance.now() - started }
  }
}
