/**
 * The built-in actions and their catalogue (name → description + params JSON Schema) for
 * editors. Importing this file has no side effects and stays light: the shell imports
 * `builtInActions` from here into the lobby bundle. Domain actions (auth, join …) register
 * themselves via `./index`; schema-lint reads the live registry for the full list.
 */
import { consentActions } from './consent'
import { localeActions } from './locale'
import { navActions } from './nav'
import { notifyActions } from './notify'
import { popupActions } from './popup'
import type { AnyAction, ParamSchema } from './registry'

/** Every built-in action, one domain file each. */
export const builtInActions: readonly AnyAction[] = [...navActions, ...popupActions, ...notifyActions, ...localeActions, ...consentActions]

export interface ActionCatalogueEntry {
  description: string
  params: ParamSchema
}

/** name → { description, params } of every built-in action. */
export const actionCatalogue: Record<string, ActionCatalogueEntry> = Object.fromEntries(
  builtInActions.map((action) => [action.name, { description: action.description, params: action.params }]),
)
