/**
 * The action registry with the built-in actions registered (importing this registers them into
 * `actionRegistry`). Other domains (auth, join, account…) add theirs with `registerActions`.
 */
import { builtInActions } from './catalogue'
import { actionRegistry, registerActions } from './registry'
import './auth' // account actions (auth.login, auth.logout …) register themselves
import './join' // sign-up actions (join.*, promo.check, identity.*, deposit.redirect) register themselves
import './settings' // settings.detect registers itself
import './money' // money actions (deposit.start, deposit.confirm, account.load, limits.save, promo.redeem) register themselves
import './identity' // identity page, auto-verification and nickname actions register themselves
import './credentials' // credential actions (password.*, credentials.load, account.confirmEmail, auth.loginByToken)
import './regulation' // responsible gambling (regulation.*, realityCheck.*) register themselves
import './bets' // bet slip, cash-out and game actions (betslip.*, bets.cashOut, game.*) register themselves
import './games-demo' // a guest's demo rounds with play money (game.demoPlay, game.demoReset) register themselves
import './engagement' // quiz and loyalty actions (quiz.load, quiz.answer, loyalty.loadCampaign, loyalty.acceptRules) register themselves
import './messages' // inbox actions (messages.loadPage, messages.markRead, messages.showActive) register themselves

registerActions(builtInActions, actionRegistry)

export * from './registry'
export { actionCatalogue, builtInActions, type ActionCatalogueEntry } from './catalogue'
export { navGo, navBack } from './nav'
export { popupOpen, popupClose } from './popup'
export { notify } from './notify'
export { localeSet, LANGUAGE_PAGE, AFTER_LANGUAGE_PAGE } from './locale'
