import { allocationPoint, groupPoint, layerPoint } from './hash'
import type { Experiment, ExperimentGroup, LayerBound, Platform, SplitBy } from './types'

/**
 * Group assignment (spec §5), pure. The client adds storage (sticky map, forced list) around it.
 *
 * Order: forced group index (client force) → group forced_user_list → sticky assignment →
 * layer → allocation → group weights. An experiment-level forced_user_list skips layer and
 * allocation but still picks the group by weight.
 */

export interface Assignment {
  inExperiment: boolean
  /** Group index, -1 when not in the experiment. */
  index: number
  group: string | null
  /** Why: lets tests and the debug panel state the rule that decided. */
  reason:
    | 'forced'
    | 'forcedUser'
    | 'sticky'
    | 'notInLayer'
    | 'notAllocated'
    | 'assigned'
    | 'noGroups'
    | 'noUnit'
    | 'platform'
}

export const NOT_IN_EXPERIMENT = (reason: Assignment['reason']): Assignment => ({
  inExperiment: false,
  index: -1,
  group: null,
  reason,
})

/** Allocation is a percentage; the unit is in iff its point (0-99) < allocation: range [0, allocation). */
export function isAllocated(id: string, salt: string, allocation: number): boolean {
  return allocationPoint(id, salt) < allocation
}

/** Weights per group: the given ones, or an equal split when none is given. Negative counts as 0. */
export function groupWeights(groups: readonly ExperimentGroup[]): number[] {
  const anyWeight = groups.some((g) => typeof g.weight === 'number')
  return groups.map((g) => (anyWeight ? Math.max(0, g.weight ?? 0) : 1))
}

/**
 * Index of the group whose cumulative range [start, end) holds the point, weights rescaled to 100.
 * Returns -1 only when every weight is 0.
 */
export function chooseGroup(point: number, weights: readonly number[]): number {
  const total = weights.reduce((sum, w) => sum + w, 0)
  if (total <= 0) return -1
  let cumulative = 0
  for (let i = 0; i < weights.length; i++) {
    cumulative += (weights[i] / total) * 100
    if (weights[i] > 0 && point < cumulative) return i
  }
  // Rounding can leave the very top of the scale uncovered; it belongs to the last weighted group.
  for (let i = weights.length - 1; i >= 0; i--) if (weights[i] > 0) return i
  return -1
}

export function normaliseBounds(bounds: LayerBound | LayerBound[] | undefined): LayerBound[] {
  if (!bounds) return []
  return Array.isArray(bounds) ? bounds : [bounds]
}

/** With a layer, the layer point (hash / 10, in [0, 100)) must fall in some bound [lower, upper). */
export function isInLayer(id: string, layerId: string, bounds: LayerBound | LayerBound[] | undefined): boolean {
  const point = layerPoint(id, layerId)
  return normaliseBounds(bounds).some((b) => point >= b.lower_bound && point < b.upper_bound)
}

export function experimentPlatforms(experiment: Experiment): Platform[] {
  if (experiment.platforms && experiment.platforms.length > 0) return experiment.platforms
  if (experiment.platform) return [experiment.platform]
  return ['all']
}

export function appliesToPlatform(experiment: Experiment, platform: Platform): boolean {
  const platforms = experimentPlatforms(experiment)
  return platforms.includes('all') || platforms.includes(platform)
}

export function splitKey(experiment: Experiment): SplitBy {
  return experiment.split_by ?? 'userId'
}

export interface AssignInput {
  experiment: Experiment
  /** The split_by id of the visitor (already falling back to the private id). */
  unitId: string | undefined
  forcedGroupIndex?: number
  stickyIndex?: number
}

export function assignGroup({ experiment, unitId, forcedGroupIndex, stickyIndex }: AssignInput): Assignment {
  const groups = experiment.groups ?? []
  if (groups.length === 0) return NOT_IN_EXPERIMENT('noGroups')
  const at = (index: number, reason: Assignment['reason']): Assignment => ({
    inExperiment: true,
    index,
    group: groups[index].name,
    reason,
  })
  const valid = (index: number | undefined): index is number =>
    index !== undefined && Number.isInteger(index) && index >= 0 && index < groups.length
  if (valid(forcedGroupIndex)) return at(forcedGroupIndex, 'forced')
  if (unitId === undefined) return NOT_IN_EXPERIMENT('noUnit')
  const forcedGroup = groups.findIndex((g) => g.forced_user_list?.includes(unitId))
  if (forcedGroup >= 0) return at(forcedGroup, 'forcedUser')
  if (valid(stickyIndex)) return at(stickyIndex, 'sticky')
  const forcedIntoExperiment = experiment.forced_user_list?.includes(unitId) ?? false
  if (!forcedIntoExperiment) {
    if (experiment.layer_id !== undefined && experiment.layer_id !== '') {
      if (!isInLayer(unitId, experiment.layer_id, experiment.layer_bounds)) return NOT_IN_EXPERIMENT('notInLayer')
    }
    if (!isAllocated(unitId, experiment.salt, experiment.allocation)) return NOT_IN_EXPERIMENT('notAllocated')
  }
  const index = chooseGroup(groupPoint(unitId, experiment.salt), groupWeights(groups))
  if (index < 0) return NOT_IN_EXPERIMENT('noGroups')
  return at(index, forcedIntoExperiment ? 'forcedUser' : 'assigned')
}
