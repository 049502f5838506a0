/**
 * The responsible-gambling calls (spec §7): self-exclusion, the punter's active restrictions,
 * regulation alerts and Spain's session reminder under the mobile gate; the reality check under
 * the casino and live casino gates. Every body is validated; every refusal is a 4xx in the envelope.
 */
import { Router, type Request, type Response } from 'express'
import { punterSiteIfLoggedIn, sessionOfRequest } from '../auth/session-check'
import type { ServerDeps } from '../deps'
import { bindPunterSite } from '../http/site'
import { sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { jurisdictionFor, restrictionsView } from './restrictions'
import { selfExclude, selfExclusionPolicy, type SelfExclusionRequest } from './self-exclusion'
import { requirePunter } from './session'
import { checkReality, clearReality, realityCheckSettings, realityCheckTimeouts, saveRealityCheckTimeout } from './reality-check'
import { confirmRegulationAlert, confirmSession, notificationInfo, sessionNotification, sessionReminderInterval } from './alerts'

export const SELF_EXCLUDE_TEMPORARY_SCHEMA = {
  type: 'object',
  required: ['period'],
  additionalProperties: false,
  properties: { period: { type: 'string', pattern: '^P\\d{1,3}[DMY]$', description: 'ISO 8601 period the jurisdiction offers (P6M, P1Y …)' } },
} as const

export const SELF_EXCLUDE_TIMEOUT_SCHEMA = {
  type: 'object',
  required: ['daysCount'],
  additionalProperties: false,
  properties: { daysCount: { type: 'integer', minimum: 1, maximum: 3650, description: 'One of the day counts the jurisdiction offers' } },
} as const

export const SELF_EXCLUDE_PERMANENT_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const

export const REALITY_CHECK_SETTINGS_SCHEMA = {
  type: 'object',
  required: ['timeout'],
  additionalProperties: false,
  properties: { timeout: { type: 'integer', minimum: 1, maximum: 1440, description: 'Minutes between reminders: one the jurisdiction offers' } },
} as const

export const EMPTY_BODY_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const

type Policy = { regulatory?: Record<string, unknown> }

export function createRegulationRouter(deps: ServerDeps): Router {
  const router = Router()
  const session = requirePunter(deps)

  const policyOf = (req: Request) => jurisdictionFor(deps, req) as Policy | undefined
  const exclude = (request: (body: Record<string, unknown>) => SelfExclusionRequest) => async (req: Request, res: Response) => {
    const policy = selfExclusionPolicy(jurisdictionFor(deps, req) as { regulatory?: Record<string, unknown> })
    const outcome = await selfExclude(deps, req.punterSession!.punterId, request(req.body as Record<string, unknown>), policy)
    if (!outcome.ok) return sendError(res, outcome.httpStatus, outcome.code, outcome.payload)
    sendOk(res, { selfExcludeSettings: outcome.settings, loggedOut: true })
  }

  router.post('/self-exclude/temporary', session, validateBody(SELF_EXCLUDE_TEMPORARY_SCHEMA), exclude((b) => ({ kind: 'temporary', period: String(b.period) })))
  router.post('/self-exclude/permanent', session, validateBody(SELF_EXCLUDE_PERMANENT_SCHEMA), exclude(() => ({ kind: 'permanent' })))
  router.post('/self-exclude/timeout', session, validateBody(SELF_EXCLUDE_TIMEOUT_SCHEMA), exclude((b) => ({ kind: 'timeout', daysCount: Number(b.daysCount) })))

  /** Public policy: what this site offers (a logged-in punter's own site), shaped for the responsible-gambling screen's lists. */
  router.get('/self-exclude/options', punterSiteIfLoggedIn(deps), (req, res) => {
    const policy = selfExclusionPolicy(policyOf(req))
    const periods = (unit: string) => policy.periods.filter((p) => p.endsWith(unit)).map((period) => ({ period, count: Number(period.slice(1, -1)) }))
    sendOk(res, {
      ...policy,
      temporary: { days: periods('D'), months: periods('M'), years: periods('Y') },
      timeouts: policy.timeoutDays.map((daysCount) => ({ daysCount })),
      realityCheck: realityCheckTimeouts(policyOf(req)).map((timeout) => ({ timeout })),
    })
  })

  router.get('/regulation/punter/restrictions', session, (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { restrictions: restrictionsView(req.punterSession!.punter, jurisdictionFor(deps, req), deps.now()) })
  })

  router.get('/regulation/punter/alerts/notification/info', session, (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { notificationInfo: notificationInfo(req.punterSession!.punter) })
  })

  router.post('/regulation/punter/alerts/notification/confirm', session, validateBody(EMPTY_BODY_SCHEMA), async (req, res) => {
    const info = await confirmRegulationAlert(deps.data, req.punterSession!.punter, deps.now())
    deps.log.info('regulation.alert.confirmed', { punterId: req.punterSession!.punterId, status: info.status })
    sendOk(res, { notificationInfo: info })
  })

  /** Without a live session the answer is NO_ACTIVE_SESSION (not 401): there is nothing to remind. */
  router.get('/regulation/punter/session/notification', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    // the reminder interval is the punter's own jurisdiction's (docs/adr/0001)
    const live = await sessionOfRequest(deps, req)
    if (live) bindPunterSite(req, deps, live.punter.jurisdiction)
    sendOk(res, await sessionNotification(deps.data, deps.data.db, live?.session.sessionId, sessionReminderInterval(policyOf(req)), deps.now()))
  })

  router.post('/regulation/punter/session/confirm', session, validateBody(EMPTY_BODY_SCHEMA), async (req, res) => {
    const { sessionId, punterId } = req.punterSession!
    const current = await sessionNotification(deps.data, deps.data.db, sessionId, sessionReminderInterval(policyOf(req)), deps.now())
    // Confirmation is offered only in NEED_TO_CONFIRM_SESSION (spec §4).
    if (current.status !== 'NEED_TO_CONFIRM_SESSION') return sendError(res, 409, 'SESSION_CONFIRMATION_NOT_NEEDED', { status: current.status })
    await confirmSession(deps.data.db, sessionId, deps.now())
    deps.log.info('regulation.session.confirmed', { punterId, minutesPlayed: current.minutesPlayed })
    sendOk(res, await sessionNotification(deps.data, deps.data.db, sessionId, sessionReminderInterval(policyOf(req)), deps.now()))
  })

  return router
}

/** The reality-check calls (spec §7): mounted under the casino and the live casino gates. */
export function createRealityCheckRouter(deps: ServerDeps): Router {
  const router = Router()
  const session = requirePunter(deps)
  const timeoutsOf = (req: Request) => realityCheckTimeouts(jurisdictionFor(deps, req) as Policy | undefined)

  router.get('/realitycheck/punter/settings', session, (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, realityCheckSettings(req.punterSession!.punter, timeoutsOf(req)))
  })

  router.post('/realitycheck/punter/settings', session, validateBody(REALITY_CHECK_SETTINGS_SCHEMA), async (req, res) => {
    const timeouts = timeoutsOf(req)
    const timeout = (req.body as { timeout: number }).timeout
    if (!timeouts.includes(timeout)) return sendError(res, 400, 'REALITY_CHECK_TIMEOUT_NOT_OFFERED', { field: 'timeout', allowed: timeouts })
    const punter = req.punterSession!.punter
    await saveRealityCheckTimeout(deps.data, punter, timeout, deps.now())
    deps.log.info('regulation.reality-check.settings', { punterId: punter.id, timeout })
    sendOk(res, { timeout, accepted: true, timeouts })
  })

  router.get('/realitycheck/check', session, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    const { sessionId, punter } = req.punterSession!
    sendOk(res, await checkReality(deps.data.db, sessionId, punter, deps.now()))
  })

  router.post('/realitycheck/clear', session, validateBody(EMPTY_BODY_SCHEMA), async (req, res) => {
    const { sessionId, punterId } = req.punterSession!
    await clearReality(deps.data.db, sessionId, punterId, deps.now())
    sendOk(res, { success: true })
  })

  return router
}
