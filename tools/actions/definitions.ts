/**
 * The action definitions (name, description, params JSON Schema) read from the live registry and
 * written as data to engine/actions/definitions.json, so the lint core, the server's lint gate and
 * the editor schemas know every action without loading the browser action runtime (its stores,
 * gateway and handlers). Run by `npm run schemas:emit`; `schemas:check` fails when it is stale.
 */
import type { ParamSchema } from '../../engine/actions/registry'

export interface ActionDefinitionData {
  description: string
  params: ParamSchema
}

interface Registered {
  name: string
  description: string
  params: ParamSchema
}

/** name → {description, params} of every registered action, the form actions included, sorted by name. */
export async function collectActionDefinitions(): Promise<Record<string, ActionDefinitionData>> {
  const { actionRegistry } = await import('../../engine/actions/index')
  const { formActions } = await import('../../engine/renderers/form/actions')
  const all: Registered[] = [...actionRegistry.values(), ...(formActions as Registered[])]
  const byName = new Map<string, ActionDefinitionData>()
  for (const action of all) if (!byName.has(action.name)) byName.set(action.name, { description: action.description, params: action.params })
  return Object.fromEntries([...byName].sort(([a], [b]) => a.localeCompare(b)))
}
