import { currencyCode, formatMoney } from '../../../kernel/core/format'
import type { NodeOf } from '../../../kernel/documents/types'
import { useCurrencyDisplays, useEvaluate } from '../runtime'

/** A money amount per spec §5: 2 decimals, non-numeric as 0, grouping from 10000. */
export function MoneyNode({ node }: { node: NodeOf<'money'> }) {
  const { value, text, ctx } = useEvaluate()
  const currency = value(node.currency)
  const formatted = formatMoney(value(node.amount), ctx.site.locale, currencyCode(currency), useCurrencyDisplays())
  return (
    <p className="money" data-testid={node.testId}>
      {node.label && <span className="money__label">{text(node.label)}</span>}
      <data value={String(value(node.amount) ?? 0)} data-personal>{formatted}</data>
    </p>
  )
}
