/** Helpers for the credential HTTP tests: a development server (outbox on) with a movable clock, fresh punters, messages read from the outbox. */
import { expect } from 'vitest'
import { createPunter, type NewPunter } from '../../../server/punters/repository'
import { createLogger } from '../../../server/log'
import { startTestServer, type TestServer } from '../../support/server'
import type { StartOptions } from '../../../server/main'
import { freshIp } from '../auth/support'
import { apiCaller } from '../../support/api'

export interface CredentialsServer extends TestServer {
  clock: { now: number }
  logLines: string[]
  call(method: string, path: string, options?: { body?: unknown; session?: string; ip?: string; host?: string }): Promise<{ status: number; json: any; headers: Headers }>
  punter(input?: Partial<NewPunter> & { password?: string }): Promise<{ email: string; phone: string; id: number; password: string }>
  loginHash(login: string, password: string): Promise<string>
  lastMessage(to: string, after?: number): Promise<{ id: number; body: string; subject: string; channel: string }>
  messagesTo(to: string): Promise<{ id: number; body: string }[]>
}

let counter = 0

export async function startCredentialsServer(options: StartOptions = {}): Promise<CredentialsServer> {
  const clock = { now: Date.UTC(2025, 5, 1, 12) }
  const logLines: string[] = []
  const server = await startTestServer({ development: true, now: () => clock.now, log: createLogger((line) => logLines.push(line)), ...options })
  const api = apiCaller(server.url, freshIp)
  const call: CredentialsServer['call'] = async (method, path, options = {}) => {
    const res = await api(method, path, { body: options.body, hash: options.session, site: options.host, ip: options.ip })
    return { ...res, json: res.json ?? res.text }
  }
  const messagesTo = async (to: string) => (await call('GET', `/api/dev/outbox?to=${encodeURIComponent(to)}`)).json.payload.messages as { id: number; body: string; subject: string; channel: string }[]
  return {
    ...server,
    clock,
    logLines,
    call,
    messagesTo,
    async punter(input = {}) {
      const n = ++counter
      const email = input.email === undefined ? `cred-${n}@test.parlay.test` : input.email
      const phone = input.phone === undefined ? `+5999520${String(n).padStart(4, '0')}` : input.phone
      const password = input.password ?? `first-secret-${n}`
      const created = await createPunter(server.deps.data, { jurisdiction: 'curacao', firstName: 'Ana', lastName: 'Prieto', birthDay: '1990-05-12', ...input, email, phone, password }, clock.now)
      if (!created.ok) throw new Error(created.code)
      return { email: email ?? '', phone: phone ?? '', id: created.value.id, password }
    },
    async loginHash(login, password) {
      const byPhone = login.startsWith('+')
      const res = await call('POST', byPhone ? 'auth/v2/login/phone-number' : 'auth/v2/login', { body: byPhone ? { phoneNumber: login, password } : { login, password } })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      return res.json.payload.punterHash as string
    },
    async lastMessage(to, after = 0) {
      let found: { id: number; body: string; subject: string; channel: string } | undefined
      await expect.poll(async () => (found = (await messagesTo(to)).find((m) => m.id > after)) !== undefined, { timeout: 5000 }).toBe(true)
      return found!
    },
  }
}

export const linkToken = (body: string) => decodeURIComponent(/token=([A-Za-z0-9_%-]+)/.exec(body)![1])
export const smsCode = (body: string) => /\b(\d{6})\b/.exec(body)![1]
