/**
 * The calls about the logged-in punter under the mobile gate (spec §7 "Session and user"): the
 * heartbeat, settings, the legal agreement, the nickname switch, first deposit date, VIP and
 * identity, each a named handler run behind the session check, so createAuthRouter stays a list
 * of routes.
 */
import type { RequestHandler } from 'express'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { nicknameEnabledFor } from '../identity/nickname'
import { bonusAccountsView } from '../punters/bonuses'
import { emitPunterEvent } from '../punters/events'
import { saveServerSettings, setLegalAgreement, userData } from '../punters/repository'
import { jurisdictionFor, restrictionsView } from '../regulation/restrictions'

/** GET /heartbeat: the punter, bonus accounts, restrictions and the inbox counts (read with the session). */
export function heartbeat(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    const { punter, inboxStatistics } = req.punterSession!
    const bonusAccounts = await bonusAccountsView(deps.data, punter.id, deps.now())
    sendOk(res, { ...userData(punter, siteContext(req, deps).locale, bonusAccounts), restrictions: restrictionsView(punter, jurisdictionFor(deps, req), deps.now()), realityCheckAccepted: punter.profile.realityCheck !== undefined, inboxStatistics })
  }
}

/** PUT /punter/settings: saves the server-side settings and tells the punter's other devices. */
export function saveSettings(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    // a language the punter's site does not offer would never show: refused, not stored
    const locale = (req.body as { locale?: string }).locale
    if (locale !== undefined && !siteContext(req, deps).site.locales.includes(locale)) return sendError(res, 400, 'ValidationError', { field: 'locale', code: 'enum' })
    const saved = await saveServerSettings(deps.data, req.punterSession!.punterId, req.body as Record<string, unknown>, deps.now())
    deps.log.info('punter.settings.saved', { punterId: req.punterSession!.punterId, keys: Object.keys(req.body as object) })
    // the punter's other browsers and devices apply the change at once (spec §3 settingsUpdate)
    emitPunterEvent('settingsUpdate', { punterId: req.punterSession!.punterId, settings: saved, changed: Object.keys(req.body as object) })
    sendOk(res, saved)
  }
}

/** POST /punter/legal-aggreement (the spec's spelling): accepted or declined. */
export function legalAgreement(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const accepted = (req.body as { accepted: boolean }).accepted
    await setLegalAgreement(deps.data, req.punterSession!.punterId, accepted ? 'accepted' : 'declined', deps.now())
    deps.log.info('punter.legal-agreement', { punterId: req.punterSession!.punterId, accepted })
    sendOk(res, { legalAgreementAccepted: accepted })
  }
}

/** GET /nickname/enabled: one source, the jurisdiction document's nickname block (server/identity/nickname.ts). */
export function nicknameEnabled(deps: ServerDeps): RequestHandler {
  return (req, res) => {
    sendOk(res, nicknameEnabledFor(deps, req, req.punterSession!.punter))
  }
}

/** GET /account/first-deposit-date */
export const firstDepositDate: RequestHandler = (req, res) => {
  sendOk(res, req.punterSession!.punter.firstDepositDate)
}

/** GET /punter/vip/is-punter-vip */
export const isPunterVip: RequestHandler = (req, res) => {
  sendOk(res, req.punterSession!.punter.vip)
}

/** GET /punter/identity: the identity state and what it means for the screens. */
export const punterIdentity: RequestHandler = (req, res) => {
  const punter = req.punterSession!.punter
  sendOk(res, {
    punterIdentityState: punter.identityState,
    identified: ['simple_success', 'bind'].includes(punter.identityState),
    identityCheckedManual: punter.profile.identityCheckedManual ?? false,
    needUploadDocuments: punter.profile.needUploadDocuments ?? false,
  })
}
