/**
 * Every action the page can run, in lists read top to bottom: the built-in actions (nav, popup,
 * notify, locale) in the first load, and the domain actions (auth, join: phone parsing, captcha …)
 * that arrive in a lazy chunk on first use. Nothing registers itself by being imported: the browser
 * runtime (engine/renderers/shell/browser-runtime.ts) registers these lists into the page's
 * registry; a test registers what it runs into its own.
 */
import { authActions } from './auth'
import { betActions } from './bets'
import { builtInActions } from './catalogue'
import { credentialActions } from './credentials'
import { engagementActions } from './engagement'
import { gameDemoActions } from './games-demo'
import { identityActions } from './identity'
import { joinActions } from './join'
import { messageActions } from './messages'
import { moneyActions } from './money'
import { actionRegistry, registerActions, type ActionRegistry, type AnyAction } from './registry'
import { regulationActions } from './regulation'
import { settingsActions } from './settings'

/** The domain actions, one list: the order is the order they are registered (a later one with the same name wins). */
export const domainActions: readonly AnyAction[] = [
  ...authActions, // auth.login, auth.logout, account.saveSettings, captcha.solve …
  ...joinActions, // sign-up: join.*, promo.check, identity.*, deposit.redirect
  ...settingsActions, // settings.detect
  ...moneyActions, // deposit.start, deposit.confirm, account.load, limits.save, promo.redeem, withdrawals
  ...identityActions, // identity page, auto-verification, nickname
  ...credentialActions, // password.*, credentials.load, account.confirmEmail, auth.loginByToken
  ...regulationActions, // responsible gambling: regulation.*, realityCheck.*
  ...betActions, // bet slip, cash-out, game actions: betslip.*, bets.cashOut, game.*
  ...gameDemoActions, // a guest's demo rounds: game.demoPlay, game.demoReset
  ...engagementActions, // quiz.load, quiz.answer, loyalty.loadCampaign, loyalty.acceptRules
  ...messageActions, // messages.loadPage, messages.markRead, messages.showActive
]

/** Registers the built-in and the domain actions (into the page's registry unless told another). */
export function registerAllActions(registry: ActionRegistry = actionRegistry): ActionRegistry {
  registerActions(builtInActions, registry)
  return registerActions(domainActions, registry)
}

export * from './registry'
export { actionCatalogue, builtInActions, type ActionCatalogueEntry } from './catalogue'
export { navGo, navBack } from './nav'
export { popupOpen, popupClose } from './popup'
export { notify } from './notify'
export { localeSet, LANGUAGE_PAGE, AFTER_LANGUAGE_PAGE } from './locale'
