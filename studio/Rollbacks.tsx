/**
 * Rollbacks waiting for a second person, in the studio's reviews (issue 29 item 7): a rollback
 * one person asked for goes live only when another approves it here; an emergency or automatic
 * rollback, already live, is acknowledged here by someone other than who did it. The server
 * (server/admin/rollbacks.ts) enforces who may do what and audits each step.
 */
import { useCallback, useEffect, useState } from 'react'
import { call, errorText, type Me } from './api'

interface Item {
  id: number
  kind: 'request' | 'emergency' | 'automatic'
  subject: string
  toVersion: number | null
  reason: string
  requestedBy: string
  requestedAt: number
  state: string
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')
const KIND_WORDS = { request: 'asked', emergency: 'emergency, live', automatic: 'automatic, live' } as const

function Decision({ item, me, act }: { item: Item; me: Me; act: (item: Item, path: string, word: string, body?: unknown) => void }) {
  const [comment, setComment] = useState('')
  if (item.requestedBy.toLowerCase() === me.email.toLowerCase()) return <span className="muted">waits for a second person</span>
  if (item.kind === 'request')
    return <button type="button" data-testid="rollback-approve" onClick={() => act(item, 'approve', 'approved: it is live')}>Approve rollback</button>
  return (
    <form onSubmit={(e) => (e.preventDefault(), act(item, 'review', 'acknowledged', { comment: comment.trim() }))}>
      <input value={comment} placeholder="comment (optional)" aria-label={`Comment on rollback ${item.id}`} onChange={(e) => setComment(e.target.value)} />{' '}
      <button type="submit" data-testid="rollback-acknowledge">Acknowledge</button>
    </form>
  )
}

export function Rollbacks({ me, onChanged }: { me: Me; onChanged: () => void }) {
  const [items, setItems] = useState<Item[]>([])
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const load = useCallback(async () => {
    const answer = await call<Item[]>('GET', '/admin/api/rollbacks?pending=true')
    if (answer.ok) setItems(answer.payload)
  }, [])
  useEffect(() => void load(), [load])
  const act = async (item: Item, path: string, word: string, body?: unknown) => {
    const answer = await call<unknown>('POST', `/admin/api/rollbacks/${item.id}/${path}`, body)
    setNotice({ text: answer.ok ? `Rollback #${item.id} ${word}.` : errorText(answer), ok: answer.ok })
    void load()
    onChanged()
  }
  return (
    <section className="waivers" aria-labelledby="rollbacks-title" data-testid="rollbacks">
      <h2 id="rollbacks-title">Rollbacks waiting for a second person</h2>
      <p className="muted">A rollback one person asks for goes live when another approves it. An emergency or automatic rollback is live already: someone else acknowledges it.</p>
      {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role="status" data-testid="rollback-notice">{notice.text}</p> : null}
      <div className="table-scroll" role="region" aria-labelledby="rollbacks-title" tabIndex={0}>
        <table>
          <caption className="muted">{items.length === 0 ? 'Nothing waits.' : `${items.length} waiting, newest first`}</caption>
          <thead>
            <tr><th scope="col">#</th><th scope="col">Kind</th><th scope="col">Document</th><th scope="col">To version</th><th scope="col">Reason</th><th scope="col">By</th><th scope="col">When (UTC)</th><th scope="col"><span className="visually-hidden">Decision</span></th></tr>
          </thead>
          <tbody>
            {items.map((r) => (
              <tr key={r.id} data-testid="rollback-row" data-kind={r.kind} data-state={r.state}>
                <td>{r.id}</td>
                <td>{KIND_WORDS[r.kind]}</td>
                <td><code>{r.subject}</code></td>
                <td>{r.toVersion ?? '—'}</td>
                <td>{r.reason || '—'}</td>
                <td>{r.requestedBy}</td>
                <td>{when(r.requestedAt)}</td>
                <td><Decision item={r} me={me} act={(x, path, word, body) => void act(x, path, word, body)} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
