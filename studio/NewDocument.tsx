/**
 * "New document" (issue 29 item 7): the operator picks a kind (promotion, quiz, popup, screen),
 * types an id and chooses shared or one jurisdiction; the server (server/admin/authoring.ts) makes
 * a draft of that kind's starter in the kind's folder, refusing a taken id or a jurisdiction out of
 * the account's scope. The draft opens in the editor (its form) and is submitted for review here;
 * the server's publish gate compiles it with the rest of the set before anyone reviews it.
 */
import { useEffect, useState } from 'react'
import { call, errorText, type SiteRow } from './api'

const ID = /^[a-z0-9][a-z0-9-]{1,59}$/

interface Created {
  id: number
  file: string
  state: string
}

export function NewDocument({ sites, onOpen }: { sites: SiteRow[]; onOpen: (file: string) => void }) {
  const [kinds, setKinds] = useState<{ kind: string; folder: string }[]>([])
  const [kind, setKind] = useState('')
  const [id, setId] = useState('')
  const [jurisdiction, setJurisdiction] = useState('')
  const [created, setCreated] = useState<Created | undefined>()
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  useEffect(() => {
    void call<{ kind: string; folder: string }[]>('GET', '/admin/api/studio/starters').then((a) => a.ok && (setKinds(a.payload), setKind(a.payload[0]?.kind ?? '')))
  }, [])
  const jurisdictions = [...new Set(sites.map((s) => s.jurisdiction))].sort()
  const folder = kinds.find((k) => k.kind === kind)?.folder ?? ''
  const file = `${jurisdiction ? `jurisdictions/${jurisdiction}/` : ''}${folder}/${id || '…'}.json`
  const create = async () => {
    const answer = await call<Created>('POST', '/admin/api/studio/new', { kind, id, jurisdiction: jurisdiction || null })
    setNotice({ text: answer.ok ? `Draft #${answer.payload.id} created: ${answer.payload.file}.` : errorText(answer), ok: answer.ok })
    if (!answer.ok) return
    setCreated(answer.payload)
    onOpen(answer.payload.file)
  }
  const submit = async () => {
    const answer = await call<Created>('POST', `/admin/api/versions/${created!.id}/submit`)
    setNotice({ text: answer.ok ? `Draft #${created!.id} submitted: it waits for a second person's review.` : errorText(answer), ok: answer.ok })
    if (answer.ok) setCreated({ ...created!, state: answer.payload.state })
  }
  return (
    <details className="new-document" data-testid="new-document">
      <summary>New document</summary>
      <form onSubmit={(e) => (e.preventDefault(), void create())}>
        <label>
          Kind{' '}
          <select value={kind} data-testid="new-document-kind" onChange={(e) => setKind(e.target.value)}>
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>{k.kind}</option>
            ))}
          </select>
        </label>
        <label>
          Id{' '}
          <input value={id} data-testid="new-document-id" placeholder="summer-cashback" aria-invalid={!!id && !ID.test(id)} onChange={(e) => setId(e.target.value.trim())} />
        </label>
        <label>
          Where{' '}
          <select value={jurisdiction} data-testid="new-document-jurisdiction" onChange={(e) => setJurisdiction(e.target.value)}>
            <option value="">every site (shared)</option>
            {jurisdictions.map((j) => (
              <option key={j} value={j}>{j} only</option>
            ))}
          </select>
        </label>
        <code data-testid="new-document-file">{file}</code>
        {id && !ID.test(id) ? <p className="error">An id is 2–60 lower-case letters, digits and dashes.</p> : null}
        <button type="submit" className="primary" disabled={!kind || !ID.test(id)} data-testid="new-document-create">Create draft</button>
      </form>
      {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role="status" data-testid="new-document-notice">{notice.text}</p> : null}
      {created?.state === 'draft' ? (
        <button type="button" data-testid="new-document-submit" onClick={() => void submit()}>Submit draft #{created.id} for review</button>
      ) : null}
    </details>
  )
}
