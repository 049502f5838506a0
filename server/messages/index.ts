/**
 * Server module `messages` (spec §3 "Messages", §7 "Messages and regulation", issue 15 item 1):
 *
 *   GET {mobile}/punter/message/inbox-statistics                 totalMessagesCount, unreadMessagesCount
 *   GET {mobile}/punter/message/inbox-page?pageNumber&pageSize   one page (from 0; size 20 by default)
 *   GET {mobile}/punter/message/active?messageType=WEB|club      unread EXTERNAL messages of that source
 *   GET {mobile}/punter/message/active-global                    unread EXTERNAL global messages
 *   PUT {mobile}/punter/message/mark-read/{source} {ids}         read on the server, every device
 *
 * Operators write messages in /admin (admin.ts) and see them as a demo punter would while writing
 * (./preview.ts); a delivered message reaches open pages as a
 * `punterMessage` event on the punter socket, and the heartbeat carries the inbox statistics.
 */
import { Router, type Request, type Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { sendError, sendOk, HTTP_ERRORS } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateBody, validateQuery } from '../http/validate'
import type { ServerModule } from '../module'
import { emitPunterEvent } from '../punters/events'
import type { Punter } from '../punters/repository'
import { requirePunter } from '../signup/punters'
import { seedDemoMessages } from './demo'
import { previewedMessage } from './preview'
import { activeMessages, inboxPage, inboxStatistics, markRead, MESSAGE_SOURCES, messageFor, type MessageSource } from './store'

/** Spec §9: the inbox page size. */
export const INBOX_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 50

export const INBOX_PAGE_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    pageNumber: { type: 'string', pattern: '^(0|[1-9][0-9]{0,5})$', description: 'The page, counted from 0 (default 0).' },
    pageSize: { type: 'string', pattern: '^([1-9]|[1-4][0-9]|50)$', description: 'Messages per page, 1–50 (default 20).' },
  },
} as const

export const ACTIVE_QUERY = {
  type: 'object',
  required: ['messageType'],
  additionalProperties: false,
  properties: { messageType: { enum: ['WEB', 'club'], description: 'WEB: the site\'s own messages (source web); club: the VIP club\'s.' } },
} as const

export const MARK_READ_SCHEMA = {
  type: 'object',
  required: ['ids'],
  additionalProperties: false,
  properties: { ids: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'integer', minimum: 1, maximum: 2_147_483_647 }, description: 'punterMessageId of each message read.' } },
} as const

const punterOf = (res: Response) => res.locals.punter as Punter

/** Tells the punter's open pages about a delivered message (the socket's punterMessage event). */
export async function announceMessage(deps: Pick<ServerDeps, 'data'>, punterId: number, messageId: number, locale: string): Promise<void> {
  const message = await messageFor(deps.data.db, punterId, messageId, locale)
  if (message) emitPunterEvent('punterMessage', { punterId, message, ...(await inboxStatistics(deps.data.db, punterId)) })
}

export function createMessagesRouter(deps: ServerDeps): Router {
  const router = Router()
  const auth = requirePunter(deps)
  const db = deps.data.db
  router.use('/punter/message', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store')
    next()
  })

  // An admin's preview page of a message being written shows it first (./preview.ts); nothing is stored.
  const previewOf = async (req: Request, res: Response, kind: 'INBOX' | 'EXTERNAL', sources: MessageSource[]) => {
    const message = await previewedMessage(req, deps)
    if (message === 'refused') return void sendError(res, 403, 'PREVIEW_REFUSED')
    return { shown: message && message.kind === kind && sources.includes(message.source) ? [message] : [] }
  }
  const counted = <T extends { totalMessagesCount: number; unreadMessagesCount: number }>(stats: T, extra: number): T => ({ ...stats, totalMessagesCount: stats.totalMessagesCount + extra, unreadMessagesCount: stats.unreadMessagesCount + extra })

  router.get('/punter/message/inbox-statistics', auth, async (req, res) => {
    const preview = await previewOf(req, res, 'INBOX', [...MESSAGE_SOURCES])
    if (preview) sendOk(res, counted(await inboxStatistics(db, punterOf(res).id), preview.shown.length))
  })

  router.get('/punter/message/inbox-page', auth, validateQuery(INBOX_PAGE_QUERY), async (req, res) => {
    const pageNumber = typeof req.query.pageNumber === 'string' ? Number(req.query.pageNumber) : 0
    const pageSize = typeof req.query.pageSize === 'string' ? Number(req.query.pageSize) : INBOX_PAGE_SIZE
    const preview = await previewOf(req, res, 'INBOX', [...MESSAGE_SOURCES])
    if (!preview) return
    const page = await inboxPage(db, punterOf(res).id, pageNumber, pageSize, siteContext(req, deps).locale)
    sendOk(res, preview.shown.length === 0 ? page : { ...counted(page, 1), content: pageNumber === 0 ? [...preview.shown, ...page.content] : page.content })
  })

  router.get('/punter/message/active', auth, validateQuery(ACTIVE_QUERY), async (req, res) => {
    const source: MessageSource = req.query.messageType === 'club' ? 'club' : 'web'
    const preview = await previewOf(req, res, 'EXTERNAL', [source])
    if (preview) sendOk(res, [...preview.shown, ...(await activeMessages(db, punterOf(res).id, [source], siteContext(req, deps).locale))])
  })

  router.get('/punter/message/active-global', auth, async (req, res) => {
    const preview = await previewOf(req, res, 'EXTERNAL', ['global'])
    if (preview) sendOk(res, [...preview.shown, ...(await activeMessages(db, punterOf(res).id, ['global'], siteContext(req, deps).locale))])
  })

  router.put('/punter/message/mark-read/:source', auth, validateBody(MARK_READ_SCHEMA), async (req, res) => {
    const source = String(req.params.source)
    if (!(MESSAGE_SOURCES as readonly string[]).includes(source)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'source', code: 'enum', allowed: MESSAGE_SOURCES })
    const punter = punterOf(res)
    const marked = await markRead(db, punter.id, source as MessageSource, (req.body as { ids: number[] }).ids, deps.now())
    if (marked > 0) deps.log.info('messages.read', { punterId: punter.id, source, marked })
    sendOk(res, { marked, ...(await inboxStatistics(db, punter.id)) })
  })

  return router
}

export const messagesModule: ServerModule = {
  name: 'messages',
  async mount(app, deps) {
    if (process.env.PARLAY_SEED_DEMO !== '0') {
      const added = await seedDemoMessages(deps, deps.now())
      if (added > 0) deps.log.info('messages.demo.seeded', { added })
    }
    app.use(GATEWAY.mobile, createMessagesRouter(deps))
  },
}
