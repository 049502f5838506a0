/**
 * The third-party services of spec §1 in the browser (issue 18), in one lazy chunk started after
 * the first screen has rendered (never in the first load): product analytics to our own ingest
 * (only after the punter accepted all cookies, off when AMPLITUDE_KEY is empty), error reports,
 * and the fingerprint link at login and sign-up (FINGERPRINT_CONFIG.enabled).
 */
import type { ActionEnvironment } from '../actions/registry'
import { createAnalytics, type AnalyticsClient } from '../core/analytics'
import type { ConsentState } from '../core/consent'
import { ANALYTICS_CONFIG_PATH } from '../../kernel/core/analytics-config'
import { analyticsSectionOf } from '../../kernel/core/locale-path'
import { listProblems, subscribeProblems, type Problem } from '../core/report'
import { subscribeTelemetry, type TelemetryEvent } from '../core/telemetry'
import type { EngineStores } from '../core/stores'
import type { StoreApi } from 'zustand/vanilla'
import { lastScreenRendered } from '../renderers/shell/rendered-signal'
import { ENVELOPE_CONTENT_TYPE, ERRORS_PATH, errorEnvelope, type ErrorKind } from './error-envelope'
import { createSignUpStages, type SignUpSignal } from './signup-stages'
import type { EarlyRecord } from './stub'

export const ANALYTICS_PATH = '/analytics/api/2/httpapi'
const SCREEN_RENDERED_EVENT = 'parlay:screen-rendered'
const DEVICE_KEY = 'parlay.analytics.device'
const MAX_ERROR_REPORTS = 20
const PRE_CONSENT_CAP = 512

type Config = Record<string, unknown>
type Tracked = { type: string; properties: Record<string, unknown> }

function deviceId(): string {
  try {
    const known = window.localStorage.getItem(DEVICE_KEY)
    if (known && /^[A-Za-z0-9_-]{8,64}$/.test(known)) return known
    const created = crypto.randomUUID()
    window.localStorage.setItem(DEVICE_KEY, created)
    return created
  } catch {
    return crypto.randomUUID()
  }
}

function punterIdOf(env: ActionEnvironment): string | undefined {
  const id = env.stores.user.getState().data?.user?.id
  return id === undefined ? undefined : String(id)
}

/** The user context of spec §3 for analytics (nothing personal: no name, e-mail or phone). */
export function userContext(stores: EngineStores): Record<string, unknown> {
  const data = stores.user.getState().data
  if (!data) return { loggedIn: false }
  const account = (data.user?.account ?? {}) as Record<string, unknown>
  const loyalty = (data.loyaltyAccountInfo ?? {}) as Record<string, unknown>
  const settings = stores.settings.getState().server
  return {
    loggedIn: true,
    punterTypeId: account.punterTypeId ?? null,
    state: data.punterInfo?.state ?? null,
    cCAccountId: account.id ?? data.user?.id ?? null,
    loyaltyTier: loyalty.tier ?? null,
    loyaltyPoints: loyalty.balance ?? null,
    currency: account.currency ?? data.balanceInfo?.currency ?? null,
    oddsType: settings.oddsType,
    registrationCountry: data.punterInfo?.details?.address?.countryCode ?? data.punterInfo?.details?.address?.countryId ?? null,
    betPlacingMode: settings.betPlacingMode,
  }
}

/** What the analytics sees of a telemetry event (null: nothing). */
export function analyticsEventsOf(event: TelemetryEvent): Tracked[] {
  switch (event.type) {
    case 'popup':
      return [{ type: 'popup open', properties: { popup: event.id } }]
    case 'action': {
      const outcome = { name: event.name, result: event.ok ? 'ok' : 'failed', ...(event.code ? { code: event.code } : {}) }
      return [{ type: 'action chain', properties: outcome }]
    }
    case 'login':
      return [{ type: 'login', properties: { method: event.loginByAuthType ?? 'other' } }]
    case 'logout':
      return [{ type: 'logout', properties: { reason: event.reason ?? 'USER' } }]
    default:
      return []
  }
}

function startAnalytics(env: ActionEnvironment, config: Config, consent: StoreApi<ConsentState>, sessionId: number): (tracked: Tracked) => void {
  const apiKey = typeof config.AMPLITUDE_KEY === 'string' ? config.AMPLITUDE_KEY : ''
  if (apiKey === '') return () => {}
  let client: AnalyticsClient | null = null
  let waiting: Tracked[] = []
  let refused = false
  let remote: Promise<unknown> | undefined
  const section = () => analyticsSectionOf(window.location.pathname)
  const send = (t: Tracked) => client!.track(t.type, { ...t.properties, section: section(), path: window.location.pathname })
  const open = () => {
    client = createAnalytics({
      apiKey,
      deviceId: deviceId(),
      sessionId,
      now: () => Date.now(),
      schedule: (task, ms) => {
        const handle = window.setTimeout(task, ms)
        return () => window.clearTimeout(handle)
      },
      disabledEvents: Array.isArray(config.AMPLITUDE_DISABLED_EVENTS) ? (config.AMPLITUDE_DISABLED_EVENTS as string[]) : [],
      userId: () => punterIdOf(env),
      userProperties: () => userContext(env.stores),
      // once per session: a consent given again reuses the first answer (spec §7 remote-config GET)
      fetchConfig: (query) => (remote ??= env.gateway.call('GET', `${ANALYTICS_CONFIG_PATH}?${query}`, undefined, { retryUnauthorized: false }).then((r) => (r.ok ? r.value : null))),
      transport: async (body) => {
        const sent = await env.gateway.call('POST', ANALYTICS_PATH, body, { contentType: 'application/json', keepalive: body.length < 60_000, retryUnauthorized: false })
        return sent.ok ? 200 : (sent.httpStatus ?? null)
      },
    })
    for (const t of waiting.splice(0)) send(t)
    // the request must start inside the handler: a leaving page gets no later turn (issue 18)
    window.addEventListener('pagehide', () => client?.leave())
  }
  const follow = () => {
    const choice = consent.getState().choice
    if (choice === 'all' && !client) open()
    if (choice !== null && choice !== 'all') {
      refused = true
      waiting = []
      client?.stop()
      client = null
    } else refused = false
  }
  follow()
  consent.subscribe(follow)
  return (t) => {
    if (client) send(t)
    else if (!refused) waiting = [...waiting.slice(-(PRE_CONSENT_CAP - 1)), t]
  }
}

/** Session replay: on when remote config says so (AMPLITUDE_REPLAY with a key) and only while all cookies are accepted. */
export function replayWanted(config: Config, choice: ConsentState['choice']): boolean {
  return config.AMPLITUDE_REPLAY === true && typeof config.AMPLITUDE_KEY === 'string' && config.AMPLITUDE_KEY !== '' && choice === 'all'
}

function followReplay(env: ActionEnvironment, config: Config, consent: StoreApi<ConsentState>, sessionId: number): void {
  let stop: Promise<(() => void) | null> | null = null
  const follow = () => {
    const wanted = replayWanted(config, consent.getState().choice)
    if (wanted && !stop) {
      const session = { deviceId: deviceId(), sessionId, userId: () => punterIdOf(env), gateway: env.gateway }
      stop = import('./replay')
        .then(({ startReplay }) => startReplay(session))
        .catch((error: unknown) => {
          console.warn('[parlay:replay] could not start', (error as Error).message)
          return null
        })
    }
    if (!wanted && stop) {
      void stop.then((s) => s?.())
      stop = null
    }
  }
  follow()
  consent.subscribe(follow)
}

/** Error reporting is on unless the site's remote config turns it off (ERROR_REPORTING_ENABLED: false). */
export const errorReportingOn = (config: Config) => config.ERROR_REPORTING_ENABLED !== false

function startErrorReports(env: ActionEnvironment, release: string): (kind: ErrorKind, type: string, message: string, stack?: string) => void {
  let sent = 0
  const seen = new Set<string>()
  return (kind, type, message, stack) => {
    const key = `${kind}:${message}`
    if (sent >= MAX_ERROR_REPORTS || seen.has(key)) return
    seen.add(key)
    sent++
    const body = errorEnvelope({ kind, type, message, stack, release, url: window.location.href, now: Date.now() })
    void env.gateway.call('POST', ERRORS_PATH, body, { contentType: ENVELOPE_CONTENT_TYPE, keepalive: true, retryUnauthorized: false })
  }
}

/**
 * Starts the services. `consent` is the page's consent store (core/consent's consentStore), handed
 * in by the first-load code: importing that module here splits zustand out of the first-load chunk.
 * `early` is what the in-page stub kept before this chunk loaded (screens, uncaught errors).
 */
export function startServices(env: ActionEnvironment, release: string, consent: StoreApi<ConsentState>, early: readonly EarlyRecord[] = []): void {
  const config = (env.stores.site.getState().bootstrap?.remoteConfig ?? {}) as Config
  const sessionId = Date.now()
  const track = startAnalytics(env, config, consent, sessionId)
  followReplay(env, config, consent, sessionId)
  const reportError = errorReportingOn(config) ? startErrorReports(env, release) : () => {}

  const sessionAtStart = env.stores.session.getState().sessionHash
  const sessionIsNew = () => {
    const hash = env.stores.session.getState().sessionHash
    return !!hash && hash !== sessionAtStart
  }
  const signUpStages = createSignUpStages()
  const stages = (signal: SignUpSignal) => signUpStages(signal).forEach(track)
  const screenView = (detail: { screen: string; path?: string }) => {
    track({ type: 'screen view', properties: { screen: detail.screen } })
    if (sessionIsNew()) stages({ type: 'registered' })
    stages({ type: 'screen', path: detail.path ?? window.location.pathname })
  }
  const screen = (event: Event) => screenView((event as CustomEvent<{ screen: string; path: string }>).detail)
  window.addEventListener(SCREEN_RENDERED_EVENT, screen)
  // what happened before this chunk loaded, kept by the in-page stub (engine/services/stub.ts)
  const screensBefore = early.filter((record) => record.type === 'screen')
  const first = lastScreenRendered()
  if (screensBefore.length === 0 && first) track({ type: 'screen view', properties: { screen: first.screen } })
  for (const record of early) {
    if (record.type === 'screen') screenView(record.detail)
    else reportError('exception', record.name, record.message, record.stack)
  }

  window.addEventListener('error', (event) => reportError('exception', (event.error as Error | undefined)?.name ?? 'Error', event.message || 'error', (event.error as Error | undefined)?.stack))
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason as Error | undefined
    reportError('exception', reason?.name ?? 'UnhandledRejection', reason?.message ?? String(event.reason), reason?.stack)
  })
  const actionProblem = (problem: Problem) => {
    if (problem.kind === 'action-error' && !problem.message.endsWith(' message error')) reportError('action-chain', 'ActionChainFailed', problem.message)
  }
  listProblems().forEach(actionProblem)
  subscribeProblems(actionProblem)

  const fingerprint = (config.FINGERPRINT_CONFIG ?? {}) as { enabled?: unknown }
  const link = (operation: 'LOGIN' | 'REGISTRATION') => {
    if (fingerprint.enabled !== true) return
    void import('./recognition').then(({ linkSession }) => linkSession(env, operation)).catch(() => console.warn('[parlay:recognition] could not load'))
  }

  // a state tools and tests can wait on (never a timer): the services listen from now on
  document.documentElement.dataset.parlayServices = 'ready'
  // the first subscriber: it also gets what happened before this chunk loaded (a quick login)
  subscribeTelemetry((event) => {
    if (event.type === 'socket-error') reportError('socket', 'SocketSendError', event.message)
    if (event.type === 'login') link('LOGIN')
    // a session that appeared during sign-up (not one this page started with) is a registration
    const hash = env.stores.session.getState().sessionHash
    if (event.type === 'action' && event.ok && event.name.startsWith('join.') && hash && hash !== sessionAtStart) link('REGISTRATION')
    for (const tracked of analyticsEventsOf(event)) track(tracked)
    // a session that appeared is the sign-up's success, before what the event itself says
    if (sessionIsNew()) stages({ type: 'registered' })
    if (event.type === 'action') stages(event)
  })
}
