/**
 * The fingerprint link (spec §7 `POST punter/recognition/link`, §9: up to 5 attempts): when a
 * session starts in this tab — a login or a finished sign-up — the open-source FingerprintJS
 * (its own lazy chunk, its monitoring ping off: the CSP allows our origin only) computes the
 * visitor id and the server links it to the punter. Failures are only logged: a punter never
 * waits for, or sees, any of this.
 */
import type { ActionEnvironment } from '../actions/registry'
import { loadOnce } from '../core/load-once'

/** The punter gateway (engine/auth/session's MOBILE_GATE; not imported: that module lives in the auth chunk). */
const MOBILE_GATE = '/mobile-gate/api/v1'
export const LINK_ATTEMPTS = 5
const MIN_DELAY_MS = 100
const MAX_DELAY_MS = 3000

/** Back-off before attempt n+1 (n from 1): 100, 200, 400, 800 … ms, at most 3000 ms. */
export const backoffMs = (attempt: number) => Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** (attempt - 1))

/** Runs `task` up to `attempts` times with the back-off between; the last error is rethrown. */
export async function withAttempts<T>(task: () => Promise<T>, wait: (ms: number) => Promise<void>, attempts = LINK_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task()
    } catch (error) {
      if (attempt >= attempts) throw error
      await wait(backoffMs(attempt))
    }
  }
}

const sleep = (ms: number) => new Promise<void>((done) => window.setTimeout(done, ms))

const visitorId = loadOnce(async () => {
  const { load } = await import('@fingerprintjs/fingerprintjs')
  const agent = await load({ monitoring: false })
  return (await agent.get()).visitorId
})

async function link(env: ActionEnvironment, operationType: 'LOGIN' | 'REGISTRATION', punterHash: string): Promise<void> {
  const requestId = crypto.randomUUID()
  await withAttempts(async () => {
    const fingerprint = await visitorId()
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/punter/recognition/link`, {
      isMobileDevice: /Mobi|Android|iPhone|iPad/i.test(navigator.userAgent),
      // sites are served on their own host names only (no mirror domains in this install)
      isMirror: false,
      algorithm: 'fingerprintjs',
      fingerprint,
      operationType,
      punterHash,
      requestId,
    })
    if (!result.ok) throw new Error(result.code)
  }, sleep)
}

const linked = new Set<string>()

/**
 * Links the fingerprint to the session this tab holds now, once per session: `LOGIN` after a
 * login, `REGISTRATION` when sign-up's last step logged the new punter in.
 */
export function linkSession(env: ActionEnvironment, operationType: 'LOGIN' | 'REGISTRATION'): void {
  const hash = env.stores.session.getState().sessionHash
  if (!hash || linked.has(hash)) return
  linked.add(hash)
  void link(env, operationType, hash).catch((error: unknown) => console.warn('[parlay:recognition] link failed', (error as Error).message))
}
