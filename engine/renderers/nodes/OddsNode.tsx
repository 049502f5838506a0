/**
 * A price in the punter's odds type (spec §3 "Odds types"), through the one formatting module
 * kernel/core/odds.ts, so a price reads the same here as anywhere else on the site. An
 * accumulator's combined price (`combined`) prints its exact fraction.
 */
import { formatOdds, isOddsType } from '../../../kernel/core/odds'
import type { NodeOf } from '../../../kernel/documents/types'
import { useEvaluate } from '../runtime'

export function OddsNode({ node }: { node: NodeOf<'odds'> }) {
  const { value, text, ctx } = useEvaluate()
  const price = Number(value(node.price))
  const format = isOddsType(ctx.settings.oddsType) ? ctx.settings.oddsType : 'decimal'
  const combined = node.combined !== undefined && value(node.combined) === true
  return (
    <span className="odds" data-testid={node.testId} data-format={format}>
      {node.label && <span className="odds__label">{text(node.label)}</span>}
      <data className="odds__price" value={Number.isFinite(price) ? String(price) : ''}>
        {formatOdds(price, format, ctx.site.locale, combined)}
      </data>
    </span>
  )
}
