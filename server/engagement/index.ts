/**
 * Server module `engagement`: the quiz and loyalty (issue 15 items 2 and 3).
 *
 *   GET  {mobile}/bonus/quiz/punter/active         the active quizzes (spec §4 status by the clock, top award, the punter's answer)
 *   POST {mobile}/bonus/quiz/punter/answer {quizId, answerId}   one answer per quiz; `successful` when taken, its result pending until the event is settled
 *   GET  {mobile}/bonus/quiz/punter/quiz-account   availableTickets: open quizzes the punter has not answered
 *   GET  {mobile}/events/get-tree-ids?event-ids=e1,e2   [{eventId, treeId}]
 *   GET  {mobile}/loyalty/active-campaigns         the running campaigns' source items (sites whose jurisdiction loads them)
 *   GET  {mobile}/loyalty/account                  balance, tier, bonusAvailable, needRequestRulesAcceptance
 *   POST {mobile}/loyalty/rules/accept             the punter accepts the loyalty rules
 *   GET  {mobile}/loyalty/prizes                   the running campaigns' prizes
 *   POST {uniweb}/localize/resources {keys}        texts of the keys in the Accept-Language locale
 */
import { Router, type Request, type Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import type { DocumentKind } from '../../kernel/documents/kinds'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody, validateQuery, noBody } from '../http/validate'
import { siteContext } from '../http/site'
import { translationsFor } from '../documents/router'
import { documentsOf } from '../documents/preview-documents'
import type { DocumentsView } from '../documents/service'
import type { ServerModule } from '../module'
import type { Punter } from '../punters/repository'
import { requirePunter } from '../signup/punters'
import { answerResult, answersOf, isActive, quizInfo, recordAnswer, takesAnswers, treeIdOf, type QuizDocument } from './quiz'
import { acceptLoyaltyRules, campaignItem, loyaltyAccountOf, runsAt, type LoyaltyCampaignDocument } from './loyalty'

const answerId = { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } as const
export const QUIZ_ANSWER_SCHEMA = {
  type: 'object',
  required: ['quizId', 'answerId'],
  additionalProperties: false,
  properties: { quizId: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,79}$' }, answerId },
} as const

export const TREE_IDS_QUERY = {
  type: 'object',
  required: ['event-ids'],
  additionalProperties: false,
  properties: { 'event-ids': { type: 'string', pattern: '^e[0-9]{1,12}(,e[0-9]{1,12}){0,49}$', description: 'Comma-separated event ids (at most 50).' } },
} as const

export const LOCALIZE_SCHEMA = {
  type: 'object',
  required: ['keys'],
  additionalProperties: false,
  properties: { keys: { type: 'array', minItems: 1, maxItems: 50, uniqueItems: true, items: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,200}$' } } },
} as const

const NO_QUERY = { type: 'object', additionalProperties: false, properties: {} } as const

/** Every document of a kind as resolved for the request's site (a jurisdiction's copy replaces the shared one). */
function documentsFor<T>(deps: ServerDeps, req: Request, kind: DocumentKind, documents: DocumentsView = deps.documents): T[] {
  const context = siteContext(req, deps)
  const ids = [...new Set(documents.list(kind).map((r) => r.id))].sort()
  return ids.flatMap((id) => {
    const record = documents.resolve(kind, id, context)
    return record ? [record.source as unknown as T] : []
  })
}

/** The locale asked for in Accept-Language when the site has it, else the site's locale. */
function askedLocale(req: Request, site: { locales: string[] }, fallback: string): string {
  const asked = (req.header('accept-language') ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase().split('-')[0]!)
    .find((tag) => site.locales.includes(tag))
  return asked ?? fallback
}

export function createEngagementRouter(deps: ServerDeps): Router {
  const router = Router()
  const gate = Router()
  const { log } = deps
  const auth = requirePunter(deps)
  const punterOf = (res: Response) => res.locals.punter as Punter
  const quizzes = (req: Request, documents?: DocumentsView) => documentsFor<QuizDocument>(deps, req, 'quiz', documents)
  const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store')

  /** Texts of the request's locale, the site's default locale's when missing. */
  const sayer = (req: Request, documents: DocumentsView = deps.documents) => {
    const context = siteContext(req, deps)
    const texts = translationsFor({ documents }, context, context.locale)?.resources ?? {}
    const fallback = translationsFor({ documents }, context, context.site.defaultLocale)?.resources ?? {}
    return (key: string) => texts[key] ?? fallback[key] ?? key
  }

  // What a page shows of the quizzes: an admin's preview page reads the preview's (its draft of a quiz)
  gate.get('/bonus/quiz/punter/active', auth, validateQuery(NO_QUERY), async (req, res) => {
    const read = await documentsOf(req, deps)
    if (!read.ok) return sendError(res, 403, 'PREVIEW_REFUSED')
    const now = deps.now()
    const answers = await answersOf(deps.data.db, punterOf(res).id)
    const say = sayer(req, read.documents)
    noStore(res)
    res.setHeader('Vary', 'Host, Accept-Language')
    sendOk(res, quizzes(req, read.documents).filter((q) => isActive(q, now)).map((q) => quizInfo(q, now, answers.get(q.id), say)))
  })

  gate.get('/bonus/quiz/punter/quiz-account', auth, validateQuery(NO_QUERY), async (req, res) => {
    const read = await documentsOf(req, deps)
    if (!read.ok) return sendError(res, 403, 'PREVIEW_REFUSED')
    const now = deps.now()
    const answers = await answersOf(deps.data.db, punterOf(res).id)
    noStore(res)
    sendOk(res, { availableTickets: quizzes(req, read.documents).filter((q) => takesAnswers(q, now) && !answers.has(q.id)).length })
  })

  gate.post('/bonus/quiz/punter/answer', auth, validateBody(QUIZ_ANSWER_SCHEMA), async (req, res) => {
    const punter = punterOf(res)
    const body = req.body as { quizId: string; answerId: string }
    const quiz = quizzes(req).find((q) => q.id === body.quizId)
    if (!quiz) return sendError(res, 404, 'QUIZ_NOT_FOUND')
    if (!quiz.answers.some((a) => a.id === body.answerId)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'answerId', code: 'enum' })
    // spec §6: the quiz needs the punter's personal data (a first name, as the heartbeat's details); the denial says which page asks for it
    if (!punter.firstName.trim()) return sendError(res, 403, 'QUIZ_PERSONAL_DATA_REQUIRED', { path: quiz.personalDataPath ?? '/account/id-confirmation' })
    const now = deps.now()
    if (!takesAnswers(quiz, now)) return sendError(res, 409, 'QUIZ_NOT_OPEN', { status: quizInfo(quiz, now, undefined).status })
    const { recorded, correct } = await recordAnswer(deps.data.db, punter.id, quiz, body.answerId, now)
    if (!recorded) return sendError(res, 409, 'QUIZ_ALREADY_ANSWERED')
    log.info('quiz.answered', { punterId: punter.id, quizId: quiz.id, correct })
    noStore(res)
    // taken (spec §5: the answer call succeeds with `successful`); right or wrong only once the event is settled
    sendOk(res, { quizId: quiz.id, answerId: body.answerId, successful: true, result: answerResult(quiz, { correct }, now) })
  })

  gate.get('/events/get-tree-ids', validateQuery(TREE_IDS_QUERY), (req, res) => {
    const ids = String(req.query['event-ids']).split(',')
    sendOk(res, [...new Set(ids)].map((eventId) => ({ eventId, treeId: treeIdOf(eventId)! })))
  })

  const loyaltySite = (req: Request, res: Response) => {
    if (siteContext(req, deps).site.loyaltyCampaign === true) return true
    sendError(res, 404, 'LOYALTY_CAMPAIGN_NOT_AVAILABLE')
    return false
  }
  const runningCampaigns = (req: Request) => documentsFor<LoyaltyCampaignDocument>(deps, req, 'loyalty-campaign').filter((c) => runsAt(c, deps.now()))

  gate.get('/loyalty/active-campaigns', auth, validateQuery(NO_QUERY), (req, res) => {
    if (!loyaltySite(req, res)) return
    noStore(res)
    sendOk(res, runningCampaigns(req).map(campaignItem))
  })
  gate.get('/loyalty/prizes', auth, validateQuery(NO_QUERY), (req, res) => {
    if (!loyaltySite(req, res)) return
    noStore(res)
    const say = sayer(req)
    sendOk(res, runningCampaigns(req).flatMap((c) => (c.prizes ?? []).map((p) => ({ ...p, label: say(p.title), campaignId: c.id }))))
  })
  gate.get('/loyalty/account', auth, validateQuery(NO_QUERY), async (req, res) => {
    const account = await loyaltyAccountOf(deps.data, punterOf(res).id)
    noStore(res)
    sendOk(res, account)
  })
  gate.post('/loyalty/rules/accept', auth, noBody(), async (req, res) => {
    const account = await acceptLoyaltyRules(deps.data, punterOf(res), deps.now())
    log.info('loyalty.rules.accepted', { punterId: punterOf(res).id })
    noStore(res)
    sendOk(res, account)
  })

  router.post(`${GATEWAY.uniweb}/localize/resources`, validateBody(LOCALIZE_SCHEMA), (req, res) => {
    const context = siteContext(req, deps)
    const locale = askedLocale(req, context.site, context.locale)
    const texts = translationsFor(deps, context, locale)?.resources ?? {}
    const fallback = translationsFor(deps, context, context.site.defaultLocale)?.resources ?? {}
    const keys = (req.body as { keys: string[] }).keys
    res.setHeader('Vary', 'Host, Accept-Language')
    sendOk(res, { locale, resources: Object.fromEntries(keys.map((k) => [k, texts[k] ?? fallback[k] ?? k])) })
  })

  router.use(GATEWAY.mobile, gate)
  return router
}

export const engagementModule: ServerModule = {
  name: 'engagement',
  mount(app, deps) {
    app.use(createEngagementRouter(deps))
  },
}
