/**
 * The responsible-gambling calls of the mobile gate (spec §7): self-exclusion and the punter's
 * active restrictions. Every body is validated; every refusal is a 4xx in the envelope.
 */
import { Router } from 'express'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { jurisdictionFor, restrictionsView } from './restrictions'
import { selfExclude, selfExclusionPolicy, type SelfExclusionRequest } from './self-exclusion'
import { requirePunter } from './session'

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

export function createRegulationRouter(deps: ServerDeps): Router {
  const router = Router()
  const session = requirePunter(deps)

  const exclude = (request: (body: Record<string, unknown>) => SelfExclusionRequest) => (req: import('express').Request, res: import('express').Response) => {
    const policy = selfExclusionPolicy(jurisdictionFor(deps, req) as { regulatory?: Record<string, unknown> })
    const outcome = selfExclude(deps, req.punterSession!.punterId, request(req.body as Record<string, unknown>), policy)
    if (!outcome.ok) return sendError(res, outcome.httpStatus, outcome.code, outcome.payload)
    sendOk(res, { selfExcludeSettings: outcome.settings, loggedOut: true })
  }

  router.post('/self-exclude/temporary', session, validateBody(SELF_EXCLUDE_TEMPORARY_SCHEMA), exclude((b) => ({ kind: 'temporary', period: String(b.period) })))
  router.post('/self-exclude/permanent', session, validateBody(SELF_EXCLUDE_PERMANENT_SCHEMA), exclude(() => ({ kind: 'permanent' })))
  router.post('/self-exclude/timeout', session, validateBody(SELF_EXCLUDE_TIMEOUT_SCHEMA), exclude((b) => ({ kind: 'timeout', daysCount: Number(b.daysCount) })))

  router.get('/self-exclude/options', session, (req, res) => {
    const punter = req.punterSession!.punter
    sendOk(res, { ...selfExclusionPolicy(jurisdictionFor(deps, req) as { regulatory?: Record<string, unknown> }), selfExcludeSettings: punter.profile.selfExclude ?? null })
  })

  router.get('/regulation/punter/restrictions', session, (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { restrictions: restrictionsView(req.punterSession!.punter, jurisdictionFor(deps, req), deps.now()) })
  })

  return router
}
