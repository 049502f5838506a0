import type { NodeOf } from '../../../kernel/documents/types'
import { carriesData } from '../../../kernel/core/personal-text'
import { useEvaluate } from '../runtime'

const TAG = { title: 'h1', subtitle: 'h2', body: 'p', caption: 'p' } as const

/** An i18n text with interpolation and plurals; the variant picks the element and style. */
export function TextNode({ node }: { node: NodeOf<'text'> }) {
  const { text } = useEvaluate()
  // documents are untrusted: only the four known variants pick a tag
  const variant = node.variant && Object.prototype.hasOwnProperty.call(TAG, node.variant) ? node.variant : 'body'
  const Tag = TAG[variant]
  return (
    <Tag className={`text-${variant}`} data-testid={node.testId} data-personal={carriesData(node.text) || undefined}>
      {text(node.text)}
    </Tag>
  )
}
