/**
 * Every action a document may call, as data: name, description and params (JSON Schema). The one
 * source of the actions (issue 17): the handlers (engine/actions/*, the form actions) implement
 * these by name and take their param types from them; the lint core, the server's lint gate, the
 * admin and the emitted editor schemas (`npm run schemas:emit`) read this folder. It imports
 * nothing else but plain constant lists (the choices a handler shares, kernel/core/action-choices.ts),
 * so none of them loads the browser action runtime. A unit test fails when a
 * definition has no handler or a handler no definition (tests/unit/engine/action-definitions.test.ts).
 * One file per handler module, so each lazy chunk carries only its own actions' definitions.
 */
import { definitions as auth } from './auth'
import { definitions as bets } from './bets'
import { definitions as consent } from './consent'
import { definitions as credentials } from './credentials'
import { definitions as engagement } from './engagement'
import { definitions as form } from './form'
import { definitions as formUpload } from './form-upload'
import { definitions as gamesDemo } from './games-demo'
import { definitions as identity } from './identity'
import { definitions as join } from './join'
import { definitions as joinIdentity } from './join-identity'
import { definitions as joinSettings } from './join-settings'
import { definitions as locale } from './locale'
import { definitions as messages } from './messages'
import { definitions as money } from './money'
import { definitions as nav } from './nav'
import { definitions as notify } from './notify'
import { definitions as popup } from './popup'
import { definitions as regulation } from './regulation'
import { definitions as settings } from './settings'

export type { ActionDefinitionData, ActionDefinitions, ParamSchema } from './types'

export const actionDefinitions = {
  ...auth,
  ...bets,
  ...consent,
  ...credentials,
  ...engagement,
  ...form,
  ...formUpload,
  ...gamesDemo,
  ...identity,
  ...join,
  ...joinIdentity,
  ...joinSettings,
  ...locale,
  ...messages,
  ...money,
  ...nav,
  ...notify,
  ...popup,
  ...regulation,
  ...settings,
}

export type ActionName = keyof typeof actionDefinitions
