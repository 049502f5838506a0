import { Link } from 'react-router-dom'
import type { NodeOf } from '../../../kernel/documents/types'
import { useEvaluate, useRuntime } from '../runtime'
import { ExternalLink } from './ExternalLink'

/** An in-app link keeps the locale prefix; an https link leaves the site in a window of its own (one per site). */
export function LinkNode({ node }: { node: NodeOf<'link'> }) {
  const runtime = useRuntime()
  const { text, value } = useEvaluate()
  const to = value(node.to)
  if (typeof to !== 'string' || to === '') return null
  const label = text(node.label)
  if (/^https:\/\//.test(to))
    return (
      <ExternalLink className="link" href={to} data-testid={node.testId}>
        {label}
      </ExternalLink>
    )
  if (!to.startsWith('/')) return null
  return (
    <Link className="link" to={runtime.href(to)} data-testid={node.testId}>
      {label}
    </Link>
  )
}
