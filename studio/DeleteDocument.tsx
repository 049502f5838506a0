/**
 * Deleting a document from the studio (issue 29 item 7): a deletion draft (server/admin/authoring.ts)
 * that is submitted for review at once; the document stays served until a second person approves
 * and it is published, like any change. Asked twice (a confirm step), never on one click.
 */
import { useState } from 'react'
import { call, errorText } from './api'

export function DeleteDocument({ file }: { file: string }) {
  const [confirming, setConfirming] = useState(false)
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const remove = async () => {
    setConfirming(false)
    const draft = await call<{ id: number }>('POST', '/admin/api/deletions', { file })
    if (!draft.ok) return setNotice({ text: errorText(draft), ok: false })
    const submitted = await call<{ id: number }>('POST', `/admin/api/versions/${draft.payload.id}/submit`)
    setNotice(submitted.ok ? { text: `Deletion #${draft.payload.id} submitted: the document stays live until a second person approves and it is published.`, ok: true } : { text: errorText(submitted), ok: false })
  }
  return (
    <span className="delete-document">
      {confirming ? (
        <>
          <button type="button" className="danger" data-testid="studio-delete-confirm" onClick={() => void remove()}>Yes, ask to delete {file}</button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>Keep it</button>
        </>
      ) : (
        <button type="button" data-testid="studio-delete" onClick={() => setConfirming(true)}>Delete…</button>
      )}
      {notice ? <span className={notice.ok ? 'notice info' : 'notice error'} role="status" data-testid="studio-delete-notice">{notice.text}</span> : null}
    </span>
  )
}
