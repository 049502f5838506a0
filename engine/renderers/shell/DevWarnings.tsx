/** Development only: the problems the engine skipped (unknown nodes, actions, bad expressions). */
import { useEffect, useState } from 'react'
import { clearProblems, listProblems, subscribeProblems, type Problem } from '../../core/report'
import { useRuntime } from '../runtime'

export function DevWarnings() {
  const runtime = useRuntime()
  const [problems, setProblems] = useState<readonly Problem[]>(() => listProblems())
  const [open, setOpen] = useState(false)
  useEffect(() => subscribeProblems(() => setProblems(listProblems())), [])
  if (!runtime.development || problems.length === 0) return null
  return (
    <aside className="dev-warnings" aria-label="Development warnings" data-testid="dev-warnings">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {problems.length} engine warning{problems.length === 1 ? '' : 's'}
      </button>
      {open && (
        <>
          <ul>
            {problems.map((p) => (
              <li key={p.id}>
                [{p.kind}] {p.message}
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={() => {
              clearProblems()
              setProblems([])
            }}
          >
            Clear
          </button>
        </>
      )}
    </aside>
  )
}
