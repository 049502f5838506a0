import { useId } from 'react'
import type { NodeOf } from '../../documents/types'
import { RenderNodes } from '../RenderNode'
import { useEvaluate } from '../runtime'

/** A titled region: a <section> labelled by its heading, so screen readers list it. */
export function SectionNode({ node }: { node: NodeOf<'section'> }) {
  const { text } = useEvaluate()
  const headingId = useId()
  const title = node.title ? text(node.title) : ''
  return (
    <section className="node-section" aria-labelledby={title ? headingId : undefined} data-testid={node.testId}>
      {title && (
        <h2 id={headingId} className="node-section__title">
          {title}
        </h2>
      )}
      <RenderNodes nodes={node.children} />
    </section>
  )
}
