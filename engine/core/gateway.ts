/**
 * The gateway client: one `call` for every account/gateway request, with the spec §7 headers and
 * timeout and the spec §8 error extraction, returning a Result instead of throwing.
 */
import { HEADERS, type Result, type SiteBootstrap } from '../../kernel/core/contracts'
import type { EngineStores } from './stores'
import { errorMessageKey } from '../../kernel/core/error-keys'

export { errorMessageKey }

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/** Request timeout (spec §9). */
export const REQUEST_TIMEOUT_MS = 30_000

export interface GatewayOptions {
  fetch: FetchLike
  /** The page's stores: the site headers and the session credentials. */
  stores?: EngineStores
  /** Without stores (before the first render): the site and locale for the headers; no credentials. */
  site?: () => { bootstrap: SiteBootstrap | null; locale: string }
  now?: () => number
  /** Source header value (spec §1: the platform). Default 'web'. */
  platform?: string
  /** Prefix for relative paths, e.g. '' (same origin). */
  baseUrl?: string
  timeoutMs?: number
  /**
   * Called once per unauthorised answer (HTTP 401 or INVALID_SESSION_HASH) with the code and the
   * credentials the request carried. Answering 'retry' re-sends the request once with the current
   * credentials (the session was refreshed meanwhile, here or in another tab).
   */
  onUnauthorized?: (code: string, sent: SentCredentials, path: string) => void | 'retry' | Promise<void | 'retry'>
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
  /** An admin preview page's token: sent as the preview header, so the APIs built from documents
   * (promotions, the quiz, messages) answer from the preview's documents. */
  preview?: () => string | null
}

/** The session credentials one request carried (to tell a stale token from a dead session). */
export interface SentCredentials {
  accessToken: string | null
  sessionHash: string | null
}

/** How one call differs from a JSON request (plain-text logout, analytics batches, error envelopes). */
export interface CallOptions {
  /** The body is already encoded (a string or bytes) and goes as is with this content type. */
  contentType?: string
  /** The request outlives the page (flushes on pagehide, error reports). */
  keepalive?: boolean
  /** false: an unauthorised answer is only returned, never handed to onUnauthorized (the logout itself). */
  retryUnauthorized?: boolean
}

export interface Gateway {
  /**
   * Calls the gateway; never throws. `{ ok: true, value: payload }` or `{ ok: false, code }`; a
   * failure that got an HTTP answer carries its status as `httpStatus`.
   */
  call<T = unknown>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Result<T>>
}

const CODE_FIELDS = ['errorType', 'errorCode', 'code', 'error', 'reason'] as const

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The first non-empty string (or number) among errorType, errorCode, code, error, reason. */
function codeFrom(body: unknown): string | undefined {
  if (!isObject(body)) return undefined
  for (const field of CODE_FIELDS) {
    const value = body[field]
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') return String(value)
  }
  return undefined
}

/** Gateway codes that mean the session is gone (spec §8). */
const UNAUTHORIZED_CODES = new Set(['UNAUTHORIZED', 'INVALID_SESSION_HASH'])

/** Normalises a raw code: unauthorised variants → 'UNAUTHORIZED', password-not-passed →
 * PLAYER_NOT_VERIFIED_PASSWORD (spec §8). */
export function normaliseErrorCode(code: string): string {
  if (UNAUTHORIZED_CODES.has(code)) return 'UNAUTHORIZED'
  if (/^PASSWORD_NOT_PASSED$|^PASSWORD_?NOT_?PASSED/i.test(code)) return 'PLAYER_NOT_VERIFIED_PASSWORD'
  return code
}

/** 401 codes kept as they are: a refused refresh has its own outcome (spec §8 "Refresh:
 * INVALID_REFRESH_TOKEN logs out", reason refresh-token-expired), not the access-token one. */
const CODES_KEPT_ON_401 = new Set(['INVALID_REFRESH_TOKEN'])

/**
 * Spec §8 error extraction from an HTTP status and a parsed body (null when not JSON).
 * Returns undefined when the answer is a success.
 * - HTTP 401 → UNAUTHORIZED (INVALID_REFRESH_TOKEN keeps its code).
 * - Other HTTP errors → the body's code, else INTERNAL_SERVER_ERROR for 500, else the status number.
 * - HTTP OK with `status` other than OK, or an error field → the body's code (ERROR if none).
 */
export function extractErrorCode(httpStatus: number, body: unknown): string | undefined {
  if (httpStatus === 401) {
    const code = codeFrom(body)
    return code && CODES_KEPT_ON_401.has(code) ? code : 'UNAUTHORIZED'
  }
  if (httpStatus < 200 || httpStatus >= 300) {
    const code = codeFrom(body)
    if (code) return normaliseErrorCode(code)
    return httpStatus === 500 ? 'INTERNAL_SERVER_ERROR' : String(httpStatus)
  }
  if (!isObject(body)) return undefined
  const statusNotOk = typeof body.status === 'string' && body.status !== 'OK'
  const errorPayload = body.errorCode !== undefined || body.errorType !== undefined || (body.error !== undefined && body.error !== null && body.error !== false)
  if (!statusNotOk && !errorPayload) return undefined
  return normaliseErrorCode(codeFrom(body) ?? (typeof body.status === 'string' ? body.status : 'ERROR'))
}

/**
 * The text for a refused operation: a deposit, bet or game launch refused because of a restriction
 * (server/regulation/restrictions.ts puts the deciding restriction in the payload) says WHY, with
 * the restriction's own text (`regulation.refused.{restriction}`) or the account status's
 * (`account.status.{status}`); anything else is the code's text.
 */
export function refusalMessageKey(code: string | undefined | null, details: unknown, hasKey: (key: string) => boolean): string {
  const { restriction, status } = details && typeof details === 'object' ? (details as { restriction?: unknown; status?: unknown }) : { restriction: undefined, status: undefined }
  if (typeof restriction === 'string' && /^[A-Z_]{1,40}$/.test(restriction) && hasKey(`regulation.refused.${restriction}`)) return `regulation.refused.${restriction}`
  // refused by the account status itself (server/regulation/status-rules.ts): the status's own text
  if (typeof status === 'string' && /^[A-Z_]{1,40}$/.test(status) && hasKey(`account.status.${status}`)) return `account.status.${status}`
  return errorMessageKey(code, hasKey)
}

type SiteState = { bootstrap: SiteBootstrap | null; locale: string }

/** The headers of a request: source (platform), target (site id), version, preview, session hash
 * when set, bearer token when logged in. */
function requestHeaders(options: GatewayOptions, site: SiteState, contentType: string | undefined, session: SentCredentials): Record<string, string> {
  const { bootstrap, locale } = site
  const out: Record<string, string> = {
    accept: 'application/json',
    // the page's language, not the browser's: a punter without a saved language keeps the
    // page's (texts, money and dates stay in one locale after login)
    ...(locale ? { 'accept-language': locale } : {}),
    [HEADERS.source]: options.platform ?? 'web',
  }
  if (bootstrap) {
    out[HEADERS.target] = bootstrap.site.id
    out[HEADERS.version] = bootstrap.version
  }
  if (contentType) out['content-type'] = contentType
  const preview = options.preview?.()
  if (preview) out[HEADERS.preview] = preview
  if (session.sessionHash) out[HEADERS.sessionHash] = session.sessionHash
  if (session.accessToken) out.authorization = `Bearer ${session.accessToken}`
  return out
}

/** The content type and the encoded body of a request. */
function encode(body: unknown, call: CallOptions): { contentType?: string; body?: BodyInit } {
  if (body === undefined) return {}
  // a FormData body (a file upload) goes as multipart: the browser writes its content type
  if (typeof FormData !== 'undefined' && body instanceof FormData) return { body }
  if (call.contentType) return { contentType: call.contentType, body: typeof body === 'string' || body instanceof ArrayBuffer ? body : String(body) }
  return { contentType: 'application/json', body: JSON.stringify(body) }
}

/** The result of an answered request (spec §8): its error code, or the payload. */
function answerOf<T>(status: number, parsed: unknown, call: CallOptions): Answer<T> {
  const code = extractErrorCode(status, parsed)
  if (code) {
    const message = isObject(parsed) && typeof parsed.message === 'string' ? parsed.message : undefined
    const result = { ok: false as const, code, message, details: isObject(parsed) ? parsed.payload : undefined, httpStatus: status }
    return { result, unauthorized: call.retryUnauthorized !== false && (status === 401 || code === 'UNAUTHORIZED') }
  }
  const value = isObject(parsed) && ('payload' in parsed || parsed.status === 'OK') ? parsed.payload : parsed
  return { result: { ok: true, value: value as T }, unauthorized: false }
}

/** Creates the gateway client. Headers: source (platform), target (site id), version, session
 * hash when set, bearer token when logged in. */
export function createGateway(options: GatewayOptions): Gateway {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS
  const schedule = options.setTimeout ?? ((fn: () => void, ms: number) => globalThis.setTimeout(fn, ms))
  const cancel = options.clearTimeout ?? ((handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>))

  const siteState = () => options.site?.() ?? options.stores?.site.getState() ?? { bootstrap: null, locale: '' }

  const headers = (contentType: string | undefined, session: SentCredentials) => requestHeaders(options, siteState(), contentType, session)

  const credentials = (): SentCredentials => {
    if (!options.stores) return { accessToken: null, sessionHash: null }
    const { accessToken, sessionHash } = options.stores.session.getState()
    return { accessToken, sessionHash }
  }

  /** An unauthorised answer to a request that carried credentials: true = send it again. */
  async function shouldRetry(answer: Answer<unknown>, sent: SentCredentials, path: string): Promise<boolean> {
    if (answer.result.ok || !answer.unauthorized) return false
    try {
      return (await options.onUnauthorized?.(answer.result.code, sent, path)) === 'retry'
    } catch {
      return false
    }
  }

  async function send<T>(method: string, path: string, body: unknown, sent: SentCredentials, call: CallOptions): Promise<Answer<T>> {
    const controller = typeof AbortController === 'function' ? new AbortController() : undefined
    let timedOut = false
    const timer = schedule(() => {
      timedOut = true
      controller?.abort()
    }, timeoutMs)
    let response: Response
    const encoded = encode(body, call)
    try {
      response = await options.fetch(`${options.baseUrl ?? ''}${path}`, {
        method: method.toUpperCase(),
        headers: headers(encoded.contentType, sent),
        body: encoded.body,
        signal: controller?.signal,
        credentials: 'same-origin',
        ...(call.keepalive ? { keepalive: true } : {}),
      })
    } catch (error) {
      cancel(timer)
      return { result: { ok: false, code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', message: (error as Error)?.message }, unauthorized: false }
    }
    let parsed: unknown = null
    try {
      const text = await response.text()
      parsed = text ? JSON.parse(text) : null
    } catch {
      parsed = null
      if (timedOut) {
        cancel(timer)
        return { result: { ok: false, code: 'TIMEOUT' }, unauthorized: false }
      }
    }
    cancel(timer)
    return answerOf<T>(response.status, parsed, call)
  }

  return {
    // No await before the fetch: a keepalive call made in a pagehide handler (the replay's last
    // batch, analytics, error reports) has its request started before the handler returns, which
    // is the only way a leaving page's request is sent (tests/unit/services/unload.test.ts).
    async call<T>(method: string, path: string, body?: unknown, call: CallOptions = {}): Promise<Result<T>> {
      const sent = credentials()
      const first = await send<T>(method, path, body, sent, call)
      if (!(await shouldRetry(first, sent, path))) return first.result
      return (await send<T>(method, path, body, credentials(), call)).result
    },
  }
}

interface Answer<T> {
  result: Result<T>
  /** HTTP 401 or an unauthorised gateway code (spec §8). */
  unauthorized: boolean
}
