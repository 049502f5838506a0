/**
 * A document's versions (what /admin's document page listed): each version's state, author,
 * reviewer and when it went live, a link to its review, and "put this version live again" — asked
 * of a second person (four-eyes), or an emergency rollback that is live at once, needs a reason
 * and is reviewed by a second person afterwards (server/admin/rollbacks.ts).
 */
import { useCallback, useEffect, useState } from 'react'
import { call } from './api'
import { refusalText } from './refusals'

interface Version { id: number; state: string; origin: string; author: string; reviewedBy: string | null; publishedAt: number | null }

function RollbackAsk({ file, version, onDone }: { file: string; version: number; onDone: (text: string, ok: boolean) => void }) {
  const [reason, setReason] = useState('')
  const ask = async (emergency: boolean) => {
    const answer = await call<{ id: number }>('POST', '/admin/api/rollback', { file, version, reason: reason.trim(), ...(emergency ? { emergency } : {}) })
    if (!answer.ok) return onDone(refusalText(answer), false)
    setReason('')
    onDone(emergency ? `Version ${version} is live again; a second person reviews this emergency rollback.` : `Rollback to version ${version} asked (#${answer.payload.id}): it goes live when a second person approves it under Rollbacks.`, true)
  }
  return (
    <form className="rollback-ask" onSubmit={(e) => (e.preventDefault(), void ask(false))}>
      <label>Why <input value={reason} maxLength={2000} aria-label={`Why put version ${version} live again`} data-testid={`rollback-reason-${version}`} onChange={(e) => setReason(e.target.value)} /></label>{' '}
      <button type="submit" data-testid={`rollback-ask-${version}`}>Ask to put live again</button>{' '}
      <button type="button" disabled={reason.replace(/\s/g, '').length < 10} data-testid={`rollback-emergency-${version}`} onClick={() => void ask(true)}>Emergency: live now</button>
    </form>
  )
}

export function History({ file }: { file: string }) {
  const [rows, setRows] = useState<Version[]>([])
  const [live, setLive] = useState<number | undefined>()
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const load = useCallback(async () => {
    const answer = await call<{ published: { id: number }; history: Version[] }>('GET', `/admin/api/document?file=${encodeURIComponent(file)}`)
    if (answer.ok) (setRows(answer.payload.history), setLive(answer.payload.published.id))
  }, [file])
  useEffect(() => void load(), [load])
  if (rows.length === 0) return null
  const when = (ms: number | null) => (ms ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : '')
  return (
    <section className="history" aria-labelledby="history-title">
      <h2 id="history-title">Versions</h2>
      {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role={notice.ok ? 'status' : 'alert'} data-testid="history-notice">{notice.text}</p> : null}
      <div className="table-scroll" role="region" aria-labelledby="history-title" tabIndex={0}>
        <table data-testid="history">
          <thead><tr><th scope="col">Version</th><th scope="col">State</th><th scope="col">Origin</th><th scope="col">Author</th><th scope="col">Reviewed by</th><th scope="col">Live since</th><th scope="col"><span className="visually-hidden">Rollback</span></th></tr></thead>
          <tbody>
            {rows.map((v) => (
              <tr key={v.id} data-testid="history-row" data-version={v.id} data-state={v.state}>
                <td><a href={`?view=reviews&version=${v.id}`}>#{v.id}</a></td><td>{v.state}</td><td>{v.origin}</td><td>{v.author}</td><td>{v.reviewedBy ?? ''}</td><td>{when(v.publishedAt)}</td>
                <td>{v.publishedAt && v.id !== live ? <RollbackAsk file={file} version={v.id} onDone={(text, ok) => (setNotice({ text, ok }), void load())} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
