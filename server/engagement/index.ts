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
import { Router } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { validateBody, validateQuery, noBody } from '../http/validate'
import type { ServerModule } from '../module'
import { requirePunter } from '../signup/punters'
import { acceptRules, activeCampaigns, activeQuizzes, answerQuiz, eventTreeIds, localizeResources, loyaltyAccount, loyaltyPrizes, quizAccount } from './handlers'

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

export function createEngagementRouter(deps: ServerDeps): Router {
  const router = Router()
  const gate = Router()
  const auth = requirePunter(deps)
  gate.get('/bonus/quiz/punter/active', auth, validateQuery(NO_QUERY), activeQuizzes(deps))
  gate.get('/bonus/quiz/punter/quiz-account', auth, validateQuery(NO_QUERY), quizAccount(deps))
  gate.post('/bonus/quiz/punter/answer', auth, validateBody(QUIZ_ANSWER_SCHEMA), answerQuiz(deps))
  gate.get('/events/get-tree-ids', validateQuery(TREE_IDS_QUERY), eventTreeIds())
  gate.get('/loyalty/active-campaigns', auth, validateQuery(NO_QUERY), activeCampaigns(deps))
  gate.get('/loyalty/prizes', auth, validateQuery(NO_QUERY), loyaltyPrizes(deps))
  gate.get('/loyalty/account', auth, validateQuery(NO_QUERY), loyaltyAccount(deps))
  gate.post('/loyalty/rules/accept', auth, noBody(), acceptRules(deps))
  router.post(`${GATEWAY.uniweb}/localize/resources`, validateBody(LOCALIZE_SCHEMA), localizeResources(deps))
  router.use(GATEWAY.mobile, gate)
  return router
}

export const engagementModule: ServerModule = {
  name: 'engagement',
  mount(app, deps) {
    app.use(createEngagementRouter(deps))
  },
}
