/**
 * The action definitions for the emitted editor schemas: read from their one source,
 * kernel/actions/ (data, no handlers), sorted by name.
 */
import { actionDefinitions, type ActionDefinitionData } from '../../kernel/actions/index'

export type { ActionDefinitionData }

/** name → {description, params} of every action, sorted by name. */
export function collectActionDefinitions(): Record<string, ActionDefinitionData> {
  return Object.fromEntries(Object.entries(actionDefinitions).sort(([a], [b]) => a.localeCompare(b)))
}
