/**
 * The built-in actions and their catalogue (name → description + params JSON Schema) for
 * schema-lint and editors. Importing this file has no side effects.
 */
import { localeActions } from './locale'
import { navActions } from './nav'
import { notifyActions } from './notify'
import { popupActions } from './popup'
import type { AnyAction, ParamSchema } from './registry'

/** Every built-in action, one domain file each. */
export const builtInActions: readonly AnyAction[] = [...navActions, ...popupActions, ...notifyActions, ...localeActions]

export interface ActionCatalogueEntry {
  description: string
  params: ParamSchema
}

/** name → { description, params } of every built-in action. */
export const actionCatalogue: Record<string, ActionCatalogueEntry> = Object.fromEntries(
  builtInActions.map((action) => [action.name, { description: action.description, params: action.params }]),
)
