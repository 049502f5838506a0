/**
 * Cookie-consent actions (spec §2 footer "manage cookies", §3 consent cookie): documents reopen
 * the banner or record a choice without knowing how the choice is stored.
 */
import { CONSENT_CHOICES, consentStore } from '../core/consent'
import { defineAction } from './registry'

export const consentManage = defineAction({
  name: 'consent.manage',
  description: 'Opens the cookie-consent banner again so the punter can change the choice.',
  params: { type: 'object', properties: {}, additionalProperties: false },
  async handler(_params, env) {
    consentStore(env.stores).getState().manage()
    return { ok: true, value: null }
  },
})

export const consentChoose = defineAction({
  name: 'consent.choose',
  description: 'Records the cookie-consent choice (all, or necessary only) in the consent cookie.',
  params: { type: 'object', required: ['choice'], properties: { choice: { enum: CONSENT_CHOICES } }, additionalProperties: false },
  async handler({ choice }, env) {
    consentStore(env.stores).getState().choose(choice)
    return { ok: true, value: choice }
  },
})

export const consentActions = [consentManage, consentChoose]
