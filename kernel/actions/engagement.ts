/** The definitions of the actions engine/actions/engagement.ts implements (data; the one source is ./index.ts). */
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'loyalty.acceptRules': {
    description: 'The punter accepts the loyalty rules (needRequestRulesAcceptance goes false); data.loyaltyAccount follows.',
    params: NO_PARAMS,
  },
  'loyalty.loadCampaign': {
    description: 'Loads the active loyalty campaign, then the texts of its keys (main prize, common title, card text) for the current locale, into data.loyaltyCampaign {id, text, prize, cardText, url}; id is null when none runs.',
    params: NO_PARAMS,
  },
  'quiz.answer': {
    description: 'Answers a quiz. Succeeds only when the answer says successful (taken); whether it was right is known once the quiz\'s event is settled (the quiz\'s answered.result: pending, right, wrong, void). The personal-data denial opens the page that asks for the data.',
    params: {
      type: 'object',
      required: ['quizId', 'answerId'],
      properties: { quizId: { type: 'string' }, answerId: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'quiz.load': {
    description: 'Loads the active quizzes (data.quizzes) and the quiz account with availableTickets (data.quizAccount).',
    params: NO_PARAMS,
  },
} as const satisfies ActionDefinitions
