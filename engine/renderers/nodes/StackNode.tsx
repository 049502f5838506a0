import type { NodeOf } from '../../../kernel/documents/types'
import { RenderNodes } from '../RenderNode'

export function StackNode({ node }: { node: NodeOf<'stack'> }) {
  return (
    <div className="node-stack" data-direction={node.direction ?? 'column'} data-gap={node.gap ?? 'medium'} data-testid={node.testId}>
      <RenderNodes nodes={node.children} />
    </div>
  )
}
