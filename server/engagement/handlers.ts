/**
 * The engagement module's request handlers (quiz, loyalty, localize), each a named function of the
 * deps it needs, so createEngagementRouter stays a list of routes (issue 32: no function over 80 lines).
 */
import type { Request, RequestHandler, Response } from 'express'
import type { ServerDeps } from '../deps'
import type { DocumentKind } from '../../kernel/documents/kinds'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { translationsFor } from '../documents/router'
import { documentsOf } from '../documents/preview-documents'
import type { DocumentsView } from '../documents/service'
import type { Punter } from '../punters/repository'
import { answerResult, answersOf, isActive, quizInfo, recordAnswer, takesAnswers, treeIdOf, type QuizDocument } from './quiz'
import { acceptLoyaltyRules, campaignItem, loyaltyAccountOf, runsAt, type LoyaltyCampaignDocument } from './loyalty'

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

const punterOf = (res: Response) => res.locals.punter as Punter
const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store')
const quizzes = (deps: ServerDeps, req: Request, documents?: DocumentsView) => documentsFor<QuizDocument>(deps, req, 'quiz', documents)

/** Texts of the request's locale, the site's default locale's when missing. */
function sayer(deps: ServerDeps, req: Request, documents: DocumentsView = deps.documents) {
  const context = siteContext(req, deps)
  const texts = translationsFor({ documents }, context, context.locale)?.resources ?? {}
  const fallback = translationsFor({ documents }, context, context.site.defaultLocale)?.resources ?? {}
  return (key: string) => texts[key] ?? fallback[key] ?? key
}

/** What a page shows of the quizzes: an admin's preview page reads the preview's (its draft of a quiz). */
export function activeQuizzes(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const read = await documentsOf(req, deps)
    if (!read.ok) return sendError(res, 403, 'PREVIEW_REFUSED')
    const now = deps.now()
    const answers = await answersOf(deps.data.db, punterOf(res).id)
    const say = sayer(deps, req, read.documents)
    noStore(res)
    res.setHeader('Vary', 'Host, Accept-Language')
    sendOk(res, quizzes(deps, req, read.documents).filter((q) => isActive(q, now)).map((q) => quizInfo(q, now, answers.get(q.id), say)))
  }
}

export function quizAccount(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const read = await documentsOf(req, deps)
    if (!read.ok) return sendError(res, 403, 'PREVIEW_REFUSED')
    const now = deps.now()
    const answers = await answersOf(deps.data.db, punterOf(res).id)
    noStore(res)
    sendOk(res, { availableTickets: quizzes(deps, req, read.documents).filter((q) => takesAnswers(q, now) && !answers.has(q.id)).length })
  }
}

export function answerQuiz(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const punter = punterOf(res)
    const body = req.body as { quizId: string; answerId: string }
    const quiz = quizzes(deps, req).find((q) => q.id === body.quizId)
    if (!quiz) return sendError(res, 404, 'QUIZ_NOT_FOUND')
    if (!quiz.answers.some((a) => a.id === body.answerId)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'answerId', code: 'enum' })
    // spec §6: the quiz needs the punter's personal data (a first name, as the heartbeat's details); the denial says which page asks for it
    if (!punter.firstName.trim()) return sendError(res, 403, 'QUIZ_PERSONAL_DATA_REQUIRED', { path: quiz.personalDataPath ?? '/account/id-confirmation' })
    const now = deps.now()
    if (!takesAnswers(quiz, now)) return sendError(res, 409, 'QUIZ_NOT_OPEN', { status: quizInfo(quiz, now, undefined).status })
    const { recorded, correct } = await recordAnswer(deps.data.db, punter.id, quiz, body.answerId, now)
    if (!recorded) return sendError(res, 409, 'QUIZ_ALREADY_ANSWERED')
    deps.log.info('quiz.answered', { punterId: punter.id, quizId: quiz.id, correct })
    noStore(res)
    // taken (spec §5: the answer call succeeds with `successful`); right or wrong only once the event is settled
    sendOk(res, { quizId: quiz.id, answerId: body.answerId, successful: true, result: answerResult(quiz, { correct }, now) })
  }
}

export function eventTreeIds(): RequestHandler {
  return (req, res) => {
    const ids = String(req.query['event-ids']).split(',')
    sendOk(res, [...new Set(ids)].map((eventId) => ({ eventId, treeId: treeIdOf(eventId)! })))
  }
}

/** True when the request's site runs loyalty campaigns; else answers 404 and returns false. */
function loyaltySite(deps: ServerDeps, req: Request, res: Response): boolean {
  if (siteContext(req, deps).site.loyaltyCampaign === true) return true
  sendError(res, 404, 'LOYALTY_CAMPAIGN_NOT_AVAILABLE')
  return false
}

const runningCampaigns = (deps: ServerDeps, req: Request) =>
  documentsFor<LoyaltyCampaignDocument>(deps, req, 'loyalty-campaign').filter((c) => runsAt(c, deps.now()))

export function activeCampaigns(deps: ServerDeps): RequestHandler {
  return (req, res) => {
    if (!loyaltySite(deps, req, res)) return
    noStore(res)
    sendOk(res, runningCampaigns(deps, req).map(campaignItem))
  }
}

export function loyaltyPrizes(deps: ServerDeps): RequestHandler {
  return (req, res) => {
    if (!loyaltySite(deps, req, res)) return
    noStore(res)
    const say = sayer(deps, req)
    sendOk(res, runningCampaigns(deps, req).flatMap((c) => (c.prizes ?? []).map((p) => ({ ...p, label: say(p.title), campaignId: c.id }))))
  }
}

export function loyaltyAccount(deps: ServerDeps): RequestHandler {
  return async (_req, res) => {
    const account = await loyaltyAccountOf(deps.data, punterOf(res).id)
    noStore(res)
    sendOk(res, account)
  }
}

export function acceptRules(deps: ServerDeps): RequestHandler {
  return async (_req, res) => {
    const account = await acceptLoyaltyRules(deps.data, punterOf(res), deps.now())
    deps.log.info('loyalty.rules.accepted', { punterId: punterOf(res).id })
    noStore(res)
    sendOk(res, account)
  }
}

export function localizeResources(deps: ServerDeps): RequestHandler {
  return (req, res) => {
    const context = siteContext(req, deps)
    const locale = askedLocale(req, context.site, context.locale)
    const texts = translationsFor(deps, context, locale)?.resources ?? {}
    const fallback = translationsFor(deps, context, context.site.defaultLocale)?.resources ?? {}
    const keys = (req.body as { keys: string[] }).keys
    res.setHeader('Vary', 'Host, Accept-Language')
    sendOk(res, { locale, resources: Object.fromEntries(keys.map((k) => [k, texts[k] ?? fallback[k] ?? k])) })
  }
}
