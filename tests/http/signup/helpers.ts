/** Shared helpers of the sign-up HTTP tests: a server with an injected clock, calls by site, the outbox. */
import { createHash } from 'node:crypto'
import { startTestServer, type TestServer } from '../../support/server'

export const GATE = '/mobile-gate/api/v1'

export interface Harness {
  server: TestServer
  clock: { now: number }
  call(site: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>
  lastMessage(to: string): Promise<{ body: string; subject: string } | undefined>
  lastCode(to: string): Promise<string>
  /** A solved proof-of-work captcha payload (the same work the browser does). */
  solvedCaptcha(): Promise<string>
}

let ipCounter = 0
/** A fresh client address, so each call's SMS budget only counts what a test means. */
export const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`

/** How long a harness may take to start: the server start hashes the demo punters' passwords, seconds on a busy machine. */
export const HARNESS_START_MS = 60_000

export async function startHarness(): Promise<Harness> {
  const clock = { now: Date.UTC(2025, 5, 15, 12, 0, 0) }
  const server = await startTestServer({ now: () => clock.now, development: true })
  const call: Harness['call'] = async (site, method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { 'x-parlay-target': site, 'x-forwarded-for': freshIp(), ...headers } }
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body)
      ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
    }
    const res = await fetch(server.url + (path.startsWith('/') && !path.startsWith(GATE) && !path.startsWith('/api') && !path.startsWith('/dev') ? GATE + path : path), init)
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers }
  }
  const lastMessage = async (to: string) => {
    const res = await fetch(`${server.url}/api/dev/outbox?to=${encodeURIComponent(to)}`)
    const json = (await res.json()) as { payload: { messages: { body: string; subject: string }[] } }
    return json.payload.messages[0]
  }
  const lastCode = async (to: string) => {
    const message = await lastMessage(to)
    const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1]
    if (!code) throw new Error(`no code sent to ${to}`)
    return code
  }
  const solvedCaptcha = async () => {
    const res = await fetch(`${server.url}${GATE}/auth/captcha/challenge`)
    const challenge = ((await res.json()) as { payload: { challenge: { algorithm: string; challenge: string; salt: string; signature: string } } }).payload.challenge
    let number = 0
    while (createHash('sha256').update(challenge.salt + number).digest('hex') !== challenge.challenge) number++
    return Buffer.from(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature })).toString('base64')
  }
  return { server, clock, call, lastMessage, lastCode, solvedCaptcha }
}

let counter = 0
/** A fresh valid Curaçao mobile number (+599 9 5xx xxxx). */
export function curacaoPhone(): string {
  counter++
  return `+5999${String(5_000_000 + ((Date.now() + counter * 7919) % 999_999)).padStart(7, '0')}`
}
export function russianPhone(): string {
  counter++
  return `+7912${String((Date.now() * 13 + counter * 104729) % 10_000_000).padStart(7, '0')}`
}
export function belarusPhone(): string {
  counter++
  return `+37529${String((Date.now() * 7 + counter * 7907) % 10_000_000).padStart(7, '0')}`
}

export const countryId = (code: string) => (code.charCodeAt(0) - 64) * 100 + (code.charCodeAt(1) - 64)

export function curacaoBody(overrides: Record<string, unknown> = {}) {
  return {
    phoneNumber: curacaoPhone(),
    password: 'correct horse battery',
    countryId: countryId('CW'),
    currencyId: 1,
    firstName: 'Ana',
    lastName: 'Martina',
    birthDay: '1990-05-12',
    terms: true,
    ...overrides,
  }
}
