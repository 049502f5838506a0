import { lazy, Suspense } from 'react'
import type { NodeOf } from '../../documents/types'
import { useRuntime } from '../runtime'

/** Forms (rjsf + validators) live in their own lazy chunk: screens without a form never load it. */
const LazyFormNode = lazy(() => import('../form/FormNode'))

export function FormNode({ node }: { node: NodeOf<'form'> }) {
  const runtime = useRuntime()
  return (
    <Suspense fallback={<div className="form-loading loading" aria-busy="true">{runtime.t('shell.loading')}</div>}>
      <LazyFormNode node={node} />
    </Suspense>
  )
}
