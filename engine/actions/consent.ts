/**
 * Cookie-consent actions (spec §2 footer "manage cookies", §3 consent cookie): documents reopen
 * the banner or record a choice without knowing how the choice is stored.
 */
import { CONSENT_CHOICES } from '../../kernel/core/action-choices'
import { consentStore } from '../core/consent'
import { defineAction } from './registry'
import { definitions } from '../../kernel/actions/consent'

export const consentManage = defineAction(definitions, {
  name: 'consent.manage',
  async handler(_params, env) {
    consentStore(env.stores).getState().manage()
    return { ok: true, value: null }
  },
})

export const consentChoose = defineAction(definitions, {
  name: 'consent.choose',
  async handler({ choice }, env) {
    consentStore(env.stores).getState().choose(choice)
    return { ok: true, value: choice }
  },
})

export const consentActions = [consentManage, consentChoose]
