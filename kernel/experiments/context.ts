import { paramsFor, type Sigma } from './client'
import { TEST_GROUP_PREFIX } from './constants'
import type { Experiment } from './types'

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
  context.experiments = experimentGroups(sdk)
  return context
}

/** Every experiment's entry for the visitor the client describes (empty without a config). */
export function experimentGroups(sdk: Pick<Sigma, 'config' | 'experimentNames' | 'getExperiment'>): Record<string, ExperimentContextEntry> {
  const experiments: Record<string, ExperimentContextEntry> = {}
  if (!sdk.config) return experiments
  for (const name of sdk.experimentNames()) {
    const view = sdk.getExperiment(name)
    experiments[name] = contextEntry(view.inExperiment, view.index, view.group, view.params)
  }
  return experiments
}

/**
 * An experiment's entry for a group index alone (-1 or out of range: not in it). The server
 * rebuilds the entries of the groups a page's cookie names with this (engine/experiments/
 * groups-cookie.ts), so what it renders is what `experimentGroups` gives for the same index.
 */
export function experimentEntry(experiment: Experiment, index: number): ExperimentContextEntry {
  const group = Number.isInteger(index) && index >= 0 ? experiment.groups?.[index]?.name : undefined
  return group === undefined ? contextEntry(false, -1, null, {}) : contextEntry(true, index, group, paramsFor(experiment, group))
}

function contextEntry(inExperiment: boolean, index: number, group: string | null, params: Record<string, unknown>): ExperimentContextEntry {
  const firstText = Object.values(params).find((v): v is string => typeof v === 'string')
  return {
    group: group ?? '',
    index,
    inTest: inExperiment && firstText !== undefined && firstText.startsWith(TEST_GROUP_PREFIX),
    params,
  }
}
