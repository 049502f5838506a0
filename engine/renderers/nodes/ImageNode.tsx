import type { NodeOf } from '../../../kernel/documents/types'
import { useEvaluate } from '../runtime'

/** Same-origin or data images only (the CSP allows nothing else); lazy, with reserved space. */
export function safeImageSource(src: unknown): string | null {
  if (typeof src !== 'string') return null
  if (src.startsWith('/') && !src.startsWith('//')) return src
  if (src.startsWith('data:image/')) return src
  return null
}

export function ImageNode({ node }: { node: NodeOf<'image'> }) {
  const { text } = useEvaluate()
  const src = safeImageSource(node.src)
  if (!src) return null
  return (
    <img
      className="node-image"
      src={src}
      alt={text(node.alt)}
      width={node.width}
      height={node.height}
      loading="lazy"
      decoding="async"
      data-testid={node.testId}
    />
  )
}
