import { lazy, Suspense } from 'react'
import type { NodeOf } from '../../documents/types'
import { useRuntime } from '../runtime'
import { FormPlaceholder } from './FormPlaceholder'

/** Forms (rjsf + validators) live in their own lazy chunk: screens without a form never load it. */
const LazyFormNode = lazy(() => import('../form/FormNode'))

export function FormNode({ node }: { node: NodeOf<'form'> }) {
  const runtime = useRuntime()
  const placeholder = <FormPlaceholder flowId={node.flow} className="form-loading loading" label={runtime.t('shell.loading')} />
  // the server sends the placeholder the browser's first render shows while the chunk loads
  if (runtime.server) return placeholder
  return (
    <Suspense fallback={placeholder}>
      <LazyFormNode node={node} />
    </Suspense>
  )
}
