/**
 * Quiz and loyalty actions (issue 15 items 2 and 3). Documents compose them; the rules (statuses,
 * the right answer, which sites run loyalty campaigns) live on the server and in documents.
 *
 *   quiz.load                      the active quizzes and the quiz account into data.quizzes, data.quizAccount
 *   quiz.answer {quizId, answerId} succeeds only when the answer says `successful`; the personal-data
 *                                  denial goes to the page that asks for the data
 *   loyalty.loadCampaign           the active campaign, then its texts for the current locale, into data.loyaltyCampaign
 *   loyalty.acceptRules            the punter accepts the loyalty rules; data.loyaltyAccount follows
 */
import type { Result } from '../../kernel/core/contracts'
import { errorMessageKey } from '../core/gateway'
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { navGo } from './nav'
import { type ActionEnvironment, implementAction } from './registry'
import { definitions } from '../../kernel/actions/engagement'

const MOBILE_GATE = '/mobile-gate/api/v1'
const QUIZ = `${MOBILE_GATE}/bonus/quiz/punter`
/** The denial that sends the punter to give personal data first (spec §6). */
export const PERSONAL_DATA_DENIAL = 'QUIZ_PERSONAL_DATA_REQUIRED'

const action = implementAction

function notice(env: ActionEnvironment, id: string, status: 'success' | 'error' | 'info') {
  env.stores.ui.getState().notify({ id, status, duration: NOTIFICATION_DURATION_MS, values: {} })
}

function failed<T>(env: ActionEnvironment, result: Result<T>): Result<T> {
  if (!result.ok) notice(env, errorMessageKey(result.code, (k) => env.i18n.has(k)), 'error')
  return result
}

async function loadQuizzes(env: ActionEnvironment): Promise<Result<unknown>> {
  const [quizzes, account] = await Promise.all([env.gateway.call('GET', `${QUIZ}/active`), env.gateway.call('GET', `${QUIZ}/quiz-account`)])
  const data = env.stores.screenData.getState()
  if (quizzes.ok) data.setData('quizzes', quizzes.value)
  if (account.ok) data.setData('quizAccount', account.value)
  return quizzes.ok ? account : quizzes
}

export const quizLoad = action<Record<string, never>>(definitions, {
  name: 'quiz.load',
  handler: (_params, env) => loadQuizzes(env),
})

/** A path of the site from the denial's payload, never another origin. */
const sitePath = (details: unknown): string | undefined => {
  const path = details && typeof details === 'object' ? (details as { path?: unknown }).path : undefined
  return typeof path === 'string' && /^\/[^/\\\s][^\s]*$/.test(path) ? path : undefined
}

export const quizAnswer = action<{ quizId: string; answerId: string }>(definitions, {
  name: 'quiz.answer',
  async handler({ quizId, answerId }, env) {
    const result = await env.gateway.call<{ successful?: unknown }>('POST', `${QUIZ}/answer`, { quizId, answerId })
    if (!result.ok) {
      const path = result.code === PERSONAL_DATA_DENIAL ? sitePath(result.details) : undefined
      if (path) {
        notice(env, errorMessageKey(result.code, (k) => env.i18n.has(k)), 'info')
        await navGo.handler({ to: path }, env)
        return result
      }
      return failed(env, result)
    }
    await loadQuizzes(env)
    // taken: right or wrong is told once the quiz's event is settled (issue 31), never now
    if (result.value?.successful === true) {
      notice(env, 'quiz.answer.taken', 'success')
      return result
    }
    return failed(env, { ok: false, code: 'QUIZ_ANSWER_REFUSED' })
  },
})

interface CampaignItem {
  id: string
  landingUrl: string
  mainPrizeKey: string
  mainPrizeCardKey: string
  commonTitleKey: string
}

export const loyaltyLoadCampaign = action<Record<string, never>>(definitions, {
  name: 'loyalty.loadCampaign',
  async handler(_params, env) {
    const campaigns = await env.gateway.call<CampaignItem[]>('GET', `${MOBILE_GATE}/loyalty/active-campaigns`)
    if (!campaigns.ok) return campaigns
    const campaign = Array.isArray(campaigns.value) ? campaigns.value[0] : undefined
    const data = env.stores.screenData.getState()
    if (!campaign) {
      data.setData('loyaltyCampaign', { id: null, text: '', prize: '', cardText: '', url: '' })
      return campaigns
    }
    const keys = [campaign.mainPrizeKey, campaign.commonTitleKey, campaign.mainPrizeCardKey]
    const texts = await env.gateway.call<{ resources: Record<string, string> }>('POST', '/uniweb-gate/localize/resources', { keys: [...new Set(keys)] })
    const text = (key: string) => (texts.ok ? texts.value.resources?.[key] : undefined) ?? ''
    data.setData('loyaltyCampaign', { id: campaign.id, text: text(campaign.commonTitleKey), prize: text(campaign.mainPrizeKey), cardText: text(campaign.mainPrizeCardKey), url: campaign.landingUrl })
    return texts
  },
})

export const loyaltyAcceptRules = action<Record<string, never>>(definitions, {
  name: 'loyalty.acceptRules',
  async handler(_params, env) {
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/loyalty/rules/accept`)
    if (!result.ok) return failed(env, result)
    env.stores.screenData.getState().setData('loyaltyAccount', result.value)
    notice(env, 'loyalty.rules.accepted', 'success')
    return result
  },
})

export const engagementActions = [quizLoad, quizAnswer, loyaltyLoadCampaign, loyaltyAcceptRules]

