/** Helpers for the accounts HTTP tests: a server with a movable clock and a captured log. */
import { createHash } from 'node:crypto'
import { createLogger } from '../../../server/log'
import type { StartOptions } from '../../../server/main'
import { startTestServer, type TestServer } from '../../support/server'
import { addresses, apiCaller, DEMO_PASSWORD, type CallResult } from '../../support/api'

export { GATE, DEMO_PASSWORD } from '../../support/api'

export interface AuthTestServer extends TestServer {
  clock: { now: number }
  logLines: string[]
  call(method: string, path: string, options?: { body?: unknown; raw?: string; headers?: Record<string, string>; ip?: string }): Promise<CallResult>
  login(login: string, password?: string, extra?: Record<string, unknown>, ip?: string): ReturnType<AuthTestServer['call']>
  solvedCaptcha(): Promise<string>
}

/** A fresh client address per call site, so the per-IP counter only counts what a test means. */
export const freshIp = addresses(0)

/** `options`: e.g. a PostgreSQL `databaseUrl` for the converted stores (tests/http/auth/counters-engines.test.ts). */
export async function startAuthServer(options: StartOptions = {}): Promise<AuthTestServer> {
  const clock = { now: Date.UTC(2025, 5, 1, 12) }
  const logLines: string[] = []
  const server = await startTestServer({ now: () => clock.now, log: createLogger((line) => logLines.push(line)), ...options })
  const call: AuthTestServer['call'] = apiCaller(server.url, freshIp)
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
