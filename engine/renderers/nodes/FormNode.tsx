import { lazy, Suspense } from 'react'
import type { NodeOf } from '../../documents/types'
import { useRuntime } from '../runtime'
import { FormPlaceholder } from './FormPlaceholder'

/** Forms (rjsf + validators) live in their own lazy chunk: screens without a form never load it. */
const LazyFormNode = lazy(() => import('../form/FormNode'))

export function FormNode({ node }: { node: NodeOf<'form'> }) {
  const runtime = useRuntime()
  return (
    <Suspense fallback={<FormPlaceholder flowId={node.flow} className="form-loading loading" label={runtime.t('shell.loading')} />}>
      <LazyFormNode node={node} />
    </Suspense>
  )
}
