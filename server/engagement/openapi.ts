/** Notes for the quiz and loyalty part of the OpenAPI document: summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const op = (tag: string, summary: string, responses: Record<string, object> = {}): Operation => ({ tags: [tag], summary, security: openapi.session, responses: { ...unauthorised, ...responses } })
const noLoyalty = { 404: openapi.error('The site does not run loyalty campaigns (jurisdiction document loyalty.campaign)', ['LOYALTY_CAMPAIGN_NOT_AVAILABLE']) }

export const engagementOpenApi: Record<string, PathItem> = {
  [m('bonus/quiz/punter/active')]: { get: op('quiz', 'The active quizzes: status by the clock (a PUBLISHED quiz past its end counts as IN_PLAY), awards and the top award, the punter\'s answer') },
  [m('bonus/quiz/punter/answer')]: {
    post: op('quiz', 'Answers a quiz once; successful is true only for the right answer', {
      200: openapi.ok('The answer taken', { type: 'object', properties: { quizId: { type: 'string' }, answerId: { type: 'string' }, successful: { type: 'boolean' } } }),
      400: openapi.error('Bad input or an answer the quiz does not have', BAD_INPUT),
      403: openapi.error('The quiz needs the punter\'s personal data (payload: path of the page that asks for it)', ['QUIZ_PERSONAL_DATA_REQUIRED']),
      404: openapi.error('No such quiz on this site', ['QUIZ_NOT_FOUND']),
      409: openapi.error('The quiz does not take answers now (payload: status), or the punter answered it', ['QUIZ_NOT_OPEN', 'QUIZ_ALREADY_ANSWERED']),
    }),
  },
  [m('bonus/quiz/punter/quiz-account')]: { get: op('quiz', 'availableTickets: the open quizzes the punter has not answered') },
  [m('events/get-tree-ids')]: { get: { tags: ['quiz'], summary: 'The tree id of each event (the number in its id)', responses: { 400: openapi.error('Bad event ids', BAD_INPUT) } } },
  [m('loyalty/active-campaigns')]: { get: op('loyalty', 'The running loyalty campaigns: id, landingUrl, mainPrizeKey, mainPrizeCardKey, commonTitleKey', noLoyalty) },
  [m('loyalty/prizes')]: { get: op('loyalty', 'The running campaigns\' prizes (title key, points)', noLoyalty) },
  [m('loyalty/account')]: { get: op('loyalty', 'The punter\'s loyalty account: balance, tier, bonusAvailable, needRequestRulesAcceptance') },
  [m('loyalty/rules/accept')]: { post: op('loyalty', 'The punter accepts the loyalty rules (needRequestRulesAcceptance becomes false)') },
  [`${GATEWAY.uniweb}/localize/resources`]: { post: { tags: ['loyalty'], summary: 'Texts of the keys in the Accept-Language locale (the site\'s locale when it lacks the asked one)', responses: { 400: openapi.error('Bad keys', BAD_INPUT) } } },
}
