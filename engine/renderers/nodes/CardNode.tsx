import { Link } from 'react-router-dom'
import type { NodeOf } from '../../../kernel/documents/types'
import { useEvaluate, useLeadingRow, useRuntime } from '../runtime'
import { safeImageSource } from './ImageNode'

/** A game or event tile; the whole card is the link when it has a target. A tile in a list's
 * first rows loads its image at once and first (the largest paint), the others lazily. */
export function CardNode({ node }: { node: NodeOf<'card'> }) {
  const runtime = useRuntime()
  const { text, value } = useEvaluate()
  const title = text(node.title as never)
  const subtitle = node.subtitle ? text(node.subtitle as never) : ''
  const image = safeImageSource(value(node.image))
  const to = value(node.to)
  const leading = useLeadingRow()
  const content = (
    <>
      {image && <img className="card__image" src={image} alt="" width={240} height={180} loading={leading ? 'eager' : 'lazy'} fetchPriority={leading ? 'high' : undefined} decoding="async" />}
      {node.badge && <span className="card__badge">{text(node.badge)}</span>}
      <span className="card__body">
        <span className="card__title">{title}</span>
        {subtitle && <span className="card__subtitle">{subtitle}</span>}
      </span>
    </>
  )
  if (typeof to === 'string' && to.startsWith('/') && !to.startsWith('//'))
    return (
      <Link className="card" to={runtime.href(to)} data-testid={node.testId}>
        {content}
      </Link>
    )
  return (
    <article className="card" data-testid={node.testId}>
      {content}
    </article>
  )
}
