import { useState } from 'react'
import type { NodeOf } from '../../../kernel/documents/types'
import { useEvaluate, useRuntime, useScopeExtras } from '../runtime'

/** Runs its action chain; disabled while the chain runs so a double tap never runs it twice. */
export function ButtonNode({ node }: { node: NodeOf<'button'> }) {
  const runtime = useRuntime()
  const scope = useScopeExtras()
  const { text, when } = useEvaluate()
  const [busy, setBusy] = useState(false)
  const enabled = node.enabled === undefined || when(node.enabled)
  return (
    <button
      type="button"
      className="button"
      data-variant={node.variant ?? 'primary'}
      data-testid={node.testId}
      disabled={!enabled || busy}
      aria-busy={busy || undefined}
      onClick={async () => {
        setBusy(true)
        try {
          await runtime.run(node.actions, scope)
        } finally {
          setBusy(false)
        }
      }}
    >
      {text(node.label)}
    </button>
  )
}
