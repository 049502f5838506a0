import type { Sigma } from './client'
import { TEST_GROUP_PREFIX } from './constants'

/**
 * The document context's view of the experiment client: `flags.<name>` and
 * `experiments.<name>.{group,index,inTest,params}` for CEL expressions such as
 * `flags.quiz && experiments.registrationMotivation.group == 'b'`.
 *
 * Every experiment of the config appears, also when the visitor is not in it (group '', index -1),
 * so an expression never fails on a missing key. A flag that does not evaluate (missing or without
 * exactly one default rule) is left out. Without a config both maps are empty.
 */
export interface ExperimentContextEntry {
  group: string
  index: number
  /** The visitor is in the test group: the first string param's value starts with 'b'. */
  inTest: boolean
  params: Record<string, unknown>
}

export interface ExperimentContext {
  flags: Record<string, unknown>
  experiments: Record<string, ExperimentContextEntry>
}

type SigmaView = Pick<Sigma, 'config' | 'flagNames' | 'experimentNames' | 'evaluateFlag' | 'getExperiment' | 'attributes'>

export function experimentContext(sdk: SigmaView): ExperimentContext {
  const context: ExperimentContext = { flags: {}, experiments: {} }
  if (!sdk.config) return context
  const attributes = sdk.attributes()
  for (const name of sdk.flagNames()) {
    const result = sdk.evaluateFlag(name, attributes)
    if (result.ok) context.flags[name] = result.value
  }
  for (const name of sdk.experimentNames()) {
    const view = sdk.getExperiment(name)
    const firstText = Object.values(view.params).find((v): v is string => typeof v === 'string')
    context.experiments[name] = {
      group: view.group ?? '',
      index: view.index,
      inTest: view.inExperiment && firstText !== undefined && firstText.startsWith(TEST_GROUP_PREFIX),
      params: view.params,
    }
  }
  return context
}
