import { useId } from 'react'
import type { NodeOf } from '../../../kernel/documents/types'
import { RenderNodes } from '../RenderNode'
import { useEvaluate } from '../runtime'

/** A titled region: a <section> labelled by its heading, so screen readers list it. Its `id` is
 * the section's anchor: a link to `/page#id` opens the page there (the profile panel's reality
 * check, time-out and self-exclusion). */
export function SectionNode({ node }: { node: NodeOf<'section'> }) {
  const { text } = useEvaluate()
  const headingId = useId()
  const title = node.title ? text(node.title) : ''
  return (
    <section className="node-section" id={node.id} aria-labelledby={title ? headingId : undefined} data-testid={node.testId}>
      {title && (
        <h2 id={headingId} className="node-section__title">
          {title}
        </h2>
      )}
      <RenderNodes nodes={node.children} />
    </section>
  )
}
