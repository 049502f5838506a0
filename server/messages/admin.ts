/**
 * Operators' messages to punters (issue 15 item 5), under the admin API (session cookie + CSRF,
 * mounted inside the admin router after its authentication):
 *
 *   GET  /admin/api/messages                   the latest messages with their status
 *   POST /admin/api/messages                   write one: to a punter (sent at once), a segment or everyone
 *   POST /admin/api/messages/{id}/approve      a mass send goes out only when a SECOND admin approves
 *   POST /admin/api/messages/{id}/reject       with an optional comment
 *
 * Four-eyes for mass sends lives here, not in the page: the author cannot approve their own
 * message (403 SELF_APPROVAL). Every write lands in the hash-chained audit log in the same
 * transaction as the change.
 */
import { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { sendError, sendOk, HTTP_ERRORS } from '../http/envelope'
import { validateBody, noBody } from '../http/validate'
import { PUNTER_STATES } from '../punters/repository'
import { audit } from '../store/audit'
import { announceMessage } from './index'
import { punterIdByAccountNumber, punterLocaleSetting } from '../punters/lookups'
import { deliver, findMessage, insertMessage, listMessages, needsApproval, reject, type Audience, type MessageKind, type MessageSource, type StoredMessage } from './store'

const LOCALES = ['en', 'ru', 'be', 'es', 'pt', 'da', 'it'] as const

export const ADMIN_MESSAGE_SCHEMA = {
  type: 'object',
  required: ['audience', 'kind', 'texts'],
  additionalProperties: false,
  properties: {
    audience: {
      type: 'object',
      required: ['type'],
      additionalProperties: false,
      properties: {
        type: { enum: ['punter', 'segment', 'everyone'] },
        accountNumber: { type: 'string', pattern: '^[0-9]{6,12}$', description: 'type punter: the punter\'s account number.' },
        jurisdiction: { type: 'string', pattern: '^[a-z]{2,20}$', description: 'type segment: punters of this jurisdiction.' },
        state: { enum: [...PUNTER_STATES], description: 'type segment: punters in this state.' },
        tier: { type: 'string', pattern: '^[A-Za-z]{1,20}$', description: 'type segment: punters of this loyalty tier (Common when none).' },
      },
    },
    source: { enum: ['web', 'club'], description: 'web (default) or club; a message to everyone is global.' },
    kind: { enum: ['INBOX', 'EXTERNAL'], description: 'INBOX: kept in the inbox; EXTERNAL: shown once on the page as a notification.' },
    texts: {
      type: 'object',
      minProperties: 1,
      propertyNames: { enum: [...LOCALES] },
      additionalProperties: { type: 'string', minLength: 1, maxLength: 1000 },
      description: 'The text per locale; a punter reads their locale, else English, else the first.',
    },
    iconUrl: { type: 'string', pattern: '^(https://[A-Za-z0-9./_-]{1,200}|/[A-Za-z0-9./_-]{1,200})$' },
  },
} as const

export const ADMIN_REJECT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { comment: { type: 'string', maxLength: 500 } },
} as const

interface AdminMessageBody {
  audience: { type: 'punter' | 'segment' | 'everyone'; accountNumber?: string; jurisdiction?: string; state?: string; tier?: string }
  source?: 'web' | 'club'
  kind: MessageKind
  texts: Record<string, string>
  iconUrl?: string
}

type AdminOf = (req: Request) => { email: string; role: string }

export function messageSummary(message: StoredMessage) {
  return { ...message, createdAt: new Date(message.createdAt).toISOString(), deliveredAt: message.deliveredAt === null ? null : new Date(message.deliveredAt).toISOString() }
}

/** The audience as stored, or the error that refuses it. */
async function audienceOf(deps: ServerDeps, body: AdminMessageBody): Promise<{ ok: true; audience: Audience } | { ok: false; status: number; code: string; payload: object }> {
  const a = body.audience
  if (a.type === 'everyone') return { ok: true, audience: { type: 'everyone' } }
  if (a.type === 'segment') {
    if (!a.jurisdiction && !a.state && !a.tier) return { ok: false, status: 400, code: HTTP_ERRORS.validation, payload: { field: 'audience', code: 'segment needs a jurisdiction, a state or a tier' } }
    return { ok: true, audience: { type: 'segment', ...(a.jurisdiction ? { jurisdiction: a.jurisdiction } : {}), ...(a.state ? { state: a.state } : {}), ...(a.tier ? { tier: a.tier } : {}) } }
  }
  if (!a.accountNumber) return { ok: false, status: 400, code: HTTP_ERRORS.validation, payload: { field: 'audience.accountNumber', code: 'required' } }
  const punterId = await punterIdByAccountNumber(deps.data, a.accountNumber)
  if (punterId === undefined) return { ok: false, status: 404, code: 'PUNTER_NOT_FOUND', payload: { accountNumber: a.accountNumber } }
  return { ok: true, audience: { type: 'punter', punterId, accountNumber: a.accountNumber } }
}

/**
 * Delivers, writes its audit entry, then tells the open pages. The messages and the audit chain
 * are two stores (possibly two databases while the stores move, issue 16): the delivery, which
 * happens once whoever races it, comes first; the audit entry is appended only by the one
 * delivery that happened, right after it.
 */
async function deliverAndAnnounce(deps: ServerDeps, message: StoredMessage, approver: string | null, actor: string): Promise<boolean> {
  const punters = await deliver(deps.data, message.id, approver, deps.now())
  if (punters === undefined) return false
  await audit(deps.data, deps.now(), actor, 'message.delivered', `message:${message.id}`, { recipients: punters.length, audience: message.audience, approver })
  for (const punterId of punters) await announceMessage(deps, punterId, message.id, (await punterLocaleSetting(deps.data, punterId)) || 'en')
  return true
}

export function createAdminMessagesRouter(deps: ServerDeps, adminOf: AdminOf): Router {
  const router = Router()
  const idOf = (req: Request) => (/^[1-9][0-9]{0,9}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined)

  router.get('/admin/api/messages', async (_req, res) => sendOk(res, (await listMessages(deps.data.db)).map(messageSummary)))

  router.post('/admin/api/messages', validateBody(ADMIN_MESSAGE_SCHEMA), async (req, res: Response) => {
    const body = req.body as AdminMessageBody
    const audience = await audienceOf(deps, body)
    if (!audience.ok) return sendError(res, audience.status, audience.code, audience.payload)
    const author = adminOf(req).email
    const source: MessageSource = audience.audience.type === 'everyone' ? 'global' : (body.source ?? 'web')
    // two stores (issue 16): the message is written first, then its audit entry (which names its id)
    const message = await insertMessage(deps.data.db, { source, kind: body.kind, texts: body.texts, iconUrl: body.iconUrl ?? null, audience: audience.audience, author }, deps.now())
    await audit(deps.data, deps.now(), author, 'message.written', `message:${message.id}`, { audience: message.audience, source, kind: message.kind, texts: message.texts, needsApproval: needsApproval(message.audience) })
    if (needsApproval(message.audience)) return sendOk(res, messageSummary(message), 202)
    await deliverAndAnnounce(deps, message, null, author)
    sendOk(res, messageSummary((await findMessage(deps.data.db, message.id))!), 201)
  })

  router.post('/admin/api/messages/:id/approve', noBody(), async (req, res) => {
    const id = idOf(req)
    const message = id === undefined ? undefined : await findMessage(deps.data.db, id)
    if (!message) return sendError(res, 404, HTTP_ERRORS.notFound)
    const approver = adminOf(req).email
    if (message.status !== 'PENDING_APPROVAL') return sendError(res, 409, 'INVALID_STATE', { status: message.status })
    if (message.author === approver) {
      await audit(deps.data, deps.now(), approver, 'message.self-approval-refused', `message:${message.id}`, {})
      return sendError(res, 403, 'SELF_APPROVAL')
    }
    const delivered = await deliverAndAnnounce(deps, message, approver, approver)
    const after = (await findMessage(deps.data.db, message.id))!
    if (!delivered) return sendError(res, 409, 'INVALID_STATE', { status: after.status }) // another admin decided first
    sendOk(res, messageSummary(after))
  })

  const optionalBody = (req: Request, _res: Response, next: () => void) => {
    if (req.body === undefined) req.body = {}
    next()
  }

  router.post('/admin/api/messages/:id/reject', optionalBody, validateBody(ADMIN_REJECT_SCHEMA), async (req, res) => {
    const id = idOf(req)
    const message = id === undefined ? undefined : await findMessage(deps.data.db, id)
    if (!message) return sendError(res, 404, HTTP_ERRORS.notFound)
    const approver = adminOf(req).email
    const comment = (req.body as { comment?: string }).comment ?? null
    // two stores (issue 16): the rejection happens once, then the one that happened is audited
    const rejected = await reject(deps.data.db, message.id, approver, comment)
    if (rejected) await audit(deps.data, deps.now(), approver, 'message.rejected', `message:${message.id}`, { comment })
    if (!rejected) return sendError(res, 409, 'INVALID_STATE', { status: message.status })
    sendOk(res, messageSummary((await findMessage(deps.data.db, message.id))!))
  })

  return router
}
