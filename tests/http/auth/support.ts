/** Helpers for the accounts HTTP tests: a server with a movable clock and a captured log. */
import { createHash } from 'node:crypto'
import { createLogger } from '../../../server/log'
import { startTestServer, type TestServer } from '../../support/server'

export const GATE = '/mobile-gate/api/v1/'
export const DEMO_PASSWORD = 'parlay-demo-1'

export interface AuthTestServer extends TestServer {
  clock: { now: number }
  logLines: string[]
  call(method: string, path: string, options?: { body?: unknown; raw?: string; headers?: Record<string, string>; ip?: string }): Promise<{ status: number; json: any; text: string; headers: Headers; ms: number }>
  login(login: string, password?: string, extra?: Record<string, unknown>, ip?: string): ReturnType<AuthTestServer['call']>
  solvedCaptcha(): Promise<string>
}

let ipCounter = 0
/** A fresh client address per call site, so the per-IP counter only counts what a test means. */
export const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`

export async function startAuthServer(): Promise<AuthTestServer> {
  const clock = { now: Date.UTC(2025, 5, 1, 12) }
  const logLines: string[] = []
  const server = await startTestServer({ now: () => clock.now, log: createLogger((line) => logLines.push(line)) })
  const call: AuthTestServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? freshIp(), ...options.headers }
    let body: string | undefined = options.raw
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const started = performance.now()
    const res = await fetch(server.url + (path.startsWith('/') ? path : GATE + path), { method, headers, body })
    const text = await res.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: res.status, json, text, headers: res.headers, ms: performance.now() - started }
  }
  return {
    ...server,
    clock,
    logLines,
    call,
    login: (login, password = DEMO_PASSWORD, extra = {}, ip) => call('POST', 'auth/v2/login', { body: { login, password, ...extra }, ip }),
    async solvedCaptcha() {
      const { json } = await call('GET', 'auth/captcha/challenge')
      const challenge = json.payload.challenge
      // A synchronous solver: the same work as the browser's, without a promise per hash.
      let number = 0
      while (createHash('sha256').update(challenge.salt + number).digest('hex') !== challenge.challenge) number++
      return Buffer.from(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature })).toString('base64')
    },
  }
}
