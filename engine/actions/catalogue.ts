/**
 * The built-in actions and the catalogue of every action (name → description + params JSON
 * Schema) for schema-lint and editors. The built-in domain files have no side effects; the
 * account and sign-up domains (auth.ts, join.ts) register themselves into `actionRegistry` when
 * imported, which is harmless here (the same definitions, idempotent).
 */
import { authActions } from './auth'
import { joinActions } from './join'
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

/** Every action a document may name: the built-ins plus the account and sign-up domains. */
export const catalogueActions: readonly AnyAction[] = [...builtInActions, ...(authActions as readonly AnyAction[]), ...(joinActions as readonly AnyAction[])]

/** name → { description, params } of every action. */
export const actionCatalogue: Record<string, ActionCatalogueEntry> = Object.fromEntries(
  catalogueActions.map((action) => [action.name, { description: action.description, params: action.params }]),
)
