/** Development only: the problems the engine skipped (unknown nodes, actions, bad expressions). */
import { useEffect, useState } from 'react'
import { clearProblems, listProblems, subscribeProblems, type Problem } from '../../core/report'
import { useRuntime } from '../runtime'

export function DevWarnings() {
  const runtime = useRuntime()
  const [problems, setProblems] = useState<readonly Problem[]>(() => listProblems())
  const [open, setOpen] = useState(false)
  useEffect(() => {
    // problems reported by effects that ran before this one (a screen in the first commit reports
    // its unknown nodes from effects that run earlier) are read once subscribed
    setProblems(listProblems())
    return subscribeProblems(() => setProblems(listProblems()))
  }, [])
  // the server's list is the whole process's, not this page's
  if (!runtime.development || runtime.server || problems.length === 0) return null
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
