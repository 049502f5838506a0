/**
 * A version's review thread (issue 29 item 7): every step and comment, oldest first, kept across
 * reject → edit → resubmit (the server reads it from the audit log: server/admin/review-thread.ts),
 * and a box to add a comment (the author answering a rejection, a reviewer's question).
 */
import { useCallback, useEffect, useState } from 'react'
import { call } from './api'
import { refusalText } from './refusals'

interface Said {
  seq: number
  at: number
  actor: string
  action: string
  said: string
  comment?: string
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')

export function ReviewThread({ version, canComment = false, refreshKey }: { version: number; canComment?: boolean; refreshKey: unknown }) {
  const [thread, setThread] = useState<Said[]>([])
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const load = useCallback(async () => {
    const answer = await call<Said[]>('GET', `/admin/api/versions/${version}/thread`)
    if (answer.ok) setThread(answer.payload)
  }, [version])
  useEffect(() => void load(), [load, refreshKey])
  const add = async () => {
    const answer = await call('POST', `/admin/api/versions/${version}/comments`, { text })
    setProblem(answer.ok ? undefined : refusalText(answer))
    if (answer.ok) setText('')
    await load()
  }
  return (
    <section className="thread" aria-labelledby={`thread-${version}`}>
      <h3 id={`thread-${version}`}>Review thread</h3>
      <ol data-testid="review-thread">
        {thread.map((t) => (
          <li key={t.seq} data-action={t.action}>
            <span className="muted">{when(t.at)}</span> <strong>{t.actor}</strong> {t.said}
            {t.comment ? <blockquote data-testid="thread-comment-text">{t.comment}</blockquote> : null}
          </li>
        ))}
      </ol>
      {canComment ? (
        <form onSubmit={(e) => (e.preventDefault(), void add())}>
          <label htmlFor={`thread-text-${version}`}>Add to the thread</label>
          <textarea id={`thread-text-${version}`} value={text} maxLength={2000} data-testid="thread-text" onChange={(e) => setText(e.target.value)} />
          <button type="submit" disabled={!text.trim()} data-testid="thread-add">Add comment</button>
          {problem ? <p className="error" role="alert">{problem}</p> : null}
        </form>
      ) : null}
    </section>
  )
}
