import type { NodeOf } from '../../../kernel/documents/types'
import { useRuntime, useEvaluate, useScopeExtras } from '../runtime'
import { safeImageSource } from './ImageNode'

/** A promotional or informational block; its actions run from one call-to-action button. */
export function BannerNode({ node }: { node: NodeOf<'banner'> }) {
  const runtime = useRuntime()
  const scope = useScopeExtras()
  const { text } = useEvaluate()
  const image = safeImageSource(node.image)
  return (
    <aside className="banner" data-tone={node.tone ?? 'promo'} data-testid={node.testId}>
      {image && <img className="banner__image" src={image} alt="" loading="lazy" decoding="async" />}
      <h2 className="banner__title">{text(node.title)}</h2>
      {node.body && <p className="banner__body">{text(node.body)}</p>}
      {node.actions && node.actions.length > 0 && (
        <div className="banner__actions">
          <button type="button" className="button" onClick={() => void runtime.run(node.actions, scope)}>
            {runtime.t('banner.cta')}
          </button>
        </div>
      )}
    </aside>
  )
}
