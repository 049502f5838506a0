/**
 * `POST /api/demo/contact` (the `demo-contact` flow's submit; issue 34 item 3): the message is
 * stored and the punter gets its reference. Unauthenticated ingest, so bounded like the others
 * (server/services/ingest-gate.ts): the site's and client's ingest quotas, plus the contact form's
 * own (INGEST.CONTACT: messages per address per window), counted before the body is judged so a
 * flood of bad bodies is throttled too. The flow document's rules (the same the browser checks,
 * every field's errors at once), then this call's own strict schema (no field beyond the form's,
 * each bounded), which holds whatever an edit of the flow document loosens. The punter is the session's,
 * never one the body names (such a field is refused as unknown).
 *
 * `GET /admin/api/contact-messages` (the admin router mounts it): the newest messages for support
 * and compliance, every read audited before the answer.
 */
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { busOf } from '../bus'
import { sessionOfRequest } from '../auth/session-check'
import { remoteConfigFor } from '../documents/router'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { bindPunterSite, siteContext } from '../http/site'
import { validateBody, validateQuery, type FieldError } from '../http/validate'
import { HEADERS } from '../../kernel/core/contracts'
import { createIngestGate, refuseOverQuota } from '../services/ingest-gate'
import { ingestPolicyOf } from '../services/ingest-policy'
import { CONTACT_TOPICS, listContactMessages, storeContactMessage, type ContactTopic } from './store'

/** The form's two steps merged; the bounds are the flow document's (schemas/flows/demo-contact.json). */
export const CONTACT_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'topic', 'message', 'consent'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 80 },
    email: { type: 'string', minLength: 3, maxLength: 254 },
    topic: { enum: CONTACT_TOPICS },
    message: { type: 'string', minLength: 10, maxLength: 2000 },
    consent: { const: true },
  },
} as const

/** A body this size holds the longest form (2000 characters of 4 UTF-8 bytes, escaped) with room. */
export const CONTACT_MAX_BYTES = 16_384

/** The flow's rules on the server (the validators module's), and the demo's taken address. */
export interface FlowCheck {
  (req: Request): FieldError[] | 'NO_FLOW'
}

export function createContactRouter(deps: ServerDeps, checkFlow: FlowCheck): Router {
  const router = Router()
  const gate = createIngestGate(deps)
  const bus = busOf(deps)

  const throttle = async (req: Request, res: Response, next: NextFunction) => {
    const bytes = Number(req.header('content-length') ?? 0)
    if (bytes > CONTACT_MAX_BYTES) return sendError(res, 413, HTTP_ERRORS.payloadTooLarge, { maxBytes: CONTACT_MAX_BYTES })
    if (!req.is('application/json')) return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType)
    const admitted = await gate.admit(req, 'contact', bytes)
    if (!admitted.ok) return refuseOverQuota(res, admitted)
    const { contact } = ingestPolicyOf(remoteConfigFor(deps, req))
    try {
      const { total, resetInMs } = await bus.add(`contact:n:${req.ip ?? '?'}`, 1, contact.windowMs)
      if (total > contact.requests) return refuseOverQuota(res, { ok: false, quota: 'client', retryAfterSeconds: Math.ceil(resetInMs / 1000) })
    } catch {
      // the bus is away: the ingest gate's rule (admitted) — the body bounds still hold
    }
    next()
  }

  // the flow's rules first: every field's errors at once, as the form places them
  const flowRules: RequestHandler = (req, res, next) => {
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) return sendError(res, 400, HTTP_ERRORS.validation, [{ field: '', code: 'type' }])
    const errors = checkFlow(req)
    if (errors === 'NO_FLOW') return sendError(res, 404, HTTP_ERRORS.notFound)
    if (errors.length > 0) return sendError(res, 400, HTTP_ERRORS.validation, errors)
    next()
  }

  const store: RequestHandler = async (req, res) => {
    const found = req.header(HEADERS.sessionHash) ? await sessionOfRequest(deps, req) : undefined
    if (found) bindPunterSite(req, deps, found.punter.jurisdiction)
    const { jurisdiction, locale } = siteContext(req, deps)
    const body = req.body as { name: string; email: string; topic: ContactTopic; message: string }
    const stored = await storeContactMessage(
      deps.data.db,
      { punterId: found ? Number(found.punter.id) : null, jurisdiction, locale, name: body.name.trim(), email: body.email.trim(), topic: body.topic, message: body.message },
      deps.now(),
    )
    deps.log.info('contact.message.stored', { topic: body.topic, reference: stored.reference })
    sendOk(res, { reference: stored.reference })
  }

  router.post('/api/demo/contact', throttle, flowRules, validateBody(CONTACT_BODY, (res, problem) => sendError(res, 400, HTTP_ERRORS.validation, [problem])), store)
  return router
}

export const CONTACT_LIST_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'string', pattern: '^([1-9][0-9]{0,2}|1000)$', description: 'How many, newest first (default 200, at most 1000).' } },
} as const

/** The admin read: `audit` is awaited before the answer (a read that cannot be audited is not returned). */
export function adminContactRoute(deps: Pick<ServerDeps, 'data'>, audit: (req: Request, details: { messages: string[] }) => Promise<void>): RequestHandler[] {
  return [
    validateQuery(CONTACT_LIST_QUERY),
    async (req: Request, res: Response) => {
      const limit = typeof req.query.limit === 'string' ? Number(req.query.limit) : 200
      const messages = await listContactMessages(deps.data.db, limit)
      await audit(req, { messages: messages.map((m) => m.reference) })
      sendOk(res, { messages })
    },
  ]
}
