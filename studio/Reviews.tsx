/**
 * Reviews of single documents (issue 29 item 7, what /admin's Reviews page did): the queue by
 * state, and one version — its semantic diff grouped by impact, where it goes live, the lint
 * gate's findings, the review thread kept across reject and resubmit, both versions rendered side
 * by side on each site and language it reaches, and the next step for whoever may take it
 * (author: edit, submit, withdraw; compliance: approve, reject; either: publish). The server
 * enforces every rule and audits it; a refusal is said in words (./refusals.ts).
 */
import { useCallback, useEffect, useState } from 'react'
import { call, type LintFinding, type Me } from './api'
import { useFocusOnOpen } from './a11y'
import { CodeEditor } from './CodeEditor'
import { refusalText } from './refusals'
import { ReachLine, ReviewPreviews, type FileReach } from './ReviewPreviews'
import { ReviewThread } from './ReviewThread'

const STATES = ['in_review', 'approved', 'draft', 'rejected'] as const
const IMPACTS: [string, string][] = [
  ['age-gate', 'age gate'],
  ['consent-legal', 'consent and legal'],
  ['self-exclusion-limits', 'self-exclusion and limits'],
  ['responsible-gambling', 'responsible gambling and reality check'],
  ['identity-kyc', 'identity and KYC'],
  ['money-bonus', 'money and bonus'],
  ['validation', 'input validation'],
  ['copy', 'copy'],
  ['cosmetic', 'cosmetic'],
]

interface Row { id: number; file: string; label: string; author: string; updatedAt: number }
interface Finding { message: string; location: string; severity: string; impact: string; said?: { locale: string; message: string }[] }
interface Version extends Row {
  state: string
  reviewedBy: string | null
  baseVersion: number | null
  revision: number
  content: string
  lint: LintFinding[]
  reach: FileReach
  diff: { summary: { error: number; warning: number; note: number }; findings: Finding[] }
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

function Queue({ onOpen }: { onOpen: (id: number) => void }) {
  const [lists, setLists] = useState<Record<string, Row[]>>({})
  const heading = useFocusOnOpen<HTMLHeadingElement>()
  useEffect(() => {
    void Promise.all(STATES.map(async (s) => [s, (await call<Row[]>('GET', `/admin/api/versions?state=${s}`)).payload ?? []] as const)).then((all) => setLists(Object.fromEntries(all)))
  }, [])
  return (
    <section className="editor" aria-labelledby="reviews-title">
      <h1 id="reviews-title" tabIndex={-1} ref={heading}>Reviews</h1>
      {STATES.map((state) => (
        <section key={state} aria-labelledby={`reviews-${state}-title`}>
          <h2 id={`reviews-${state}-title`}>{state.replace('_', ' ')} ({lists[state]?.length ?? 0})</h2>
          <ul data-testid={`reviews-${state}`}>
            {(lists[state] ?? []).map((v) => (
              <li key={v.id}>
                <button type="button" className="link" data-testid="review-row" data-version={v.id} onClick={() => onOpen(v.id)}>#{v.id} {v.label}</button>{' '}
                <span className="muted">by {v.author}, {new Date(v.updatedAt).toISOString().slice(0, 16).replace('T', ' ')}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  )
}

function Findings({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return <p className="muted">No semantic changes.</p>
  return (
    <div data-testid="diff">
      {IMPACTS.filter(([impact]) => findings.some((f) => f.impact === impact)).map(([impact, words]) => (
        <section key={impact} className={`diff-group diff-${impact}`}>
          <h4>{words} ({findings.filter((f) => f.impact === impact).length})</h4>
          <ul className="diff">
            {findings.filter((f) => f.impact === impact).map((f, i) => (
              <li key={i} className={`finding severity-${f.severity}`}>
                <span>{f.severity}</span> {f.message} <code className="muted">{f.location}</code>
                {f.said?.length ? <ul className="said" data-testid="said">{f.said.map((w) => <li key={w.locale} lang={w.locale}><code>{w.locale}</code> {w.message}</li>)}</ul> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}

function VersionView({ id, me, onChanged }: { id: number; me: Me; onChanged: () => void }) {
  const [v, setV] = useState<Version | undefined>()
  const [text, setText] = useState('')
  const [comment, setComment] = useState('')
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  const [busy, setBusy] = useState(false)
  const heading = useFocusOnOpen<HTMLHeadingElement>(v?.id)
  const load = useCallback(async () => {
    const answer = await call<Version>('GET', `/admin/api/versions/${id}`)
    if (!answer.ok) return setNotice({ text: refusalText(answer), ok: false })
    setV(answer.payload)
    setText(answer.payload.content)
  }, [id])
  useEffect(() => void load(), [load])
  if (!v) return <section className="editor">{notice ? <p className="error" role="alert">{notice.text}</p> : <p>Loading…</p>}</section>
  const mine = same(v.author, me.email)
  const act = async (label: string, method: 'POST' | 'PUT', path: string, body?: unknown) => {
    setBusy(true)
    const answer = await call(method, `/admin/api/versions/${id}${path}`, body)
    setBusy(false)
    setNotice(answer.ok ? { text: `${label}: done.`, ok: true } : { text: refusalText(answer), ok: false })
    if (answer.ok && path === '/approve') setComment('')
    await load()
    onChanged()
  }
  const editable = mine && me.role === 'operator' && (v.state === 'draft' || v.state === 'rejected')
  const reviewer = me.role === 'compliance' && !mine && v.state === 'in_review'
  const button = (label: string, testid: string, run: () => void, disabled = false) => (
    <button type="button" disabled={busy || disabled} data-testid={testid} onClick={run}>{label}</button>
  )
  return (
    <article className="editor release" aria-labelledby="version-title">
      <h1 id="version-title" tabIndex={-1} ref={heading}>{v.label}: version {v.id}</h1>
      <p data-testid="version-state" data-state={v.state}>
        State <strong>{v.state.replace('_', ' ')}</strong>; author {v.author}{v.reviewedBy ? `; reviewed by ${v.reviewedBy}` : ''}. <code>{v.file}</code>, based on published version {v.baseVersion ?? 'none'}.
      </p>
      {notice ? <p className={notice.ok ? 'notice info' : 'notice error'} role={notice.ok ? 'status' : 'alert'} data-testid="version-notice">{notice.text}</p> : null}
      <div className="actions">
        {editable ? button('Save changes', 'update-draft', () => void act('Saved', 'PUT', '', { content: text, revision: v.revision }), text === v.content) : null}
        {mine && v.state === 'draft' ? button('Submit for review', 'submit-draft', () => void act('Submitted', 'POST', '/submit')) : null}
        {reviewer ? (
          <>
            <label htmlFor="review-comment">Review comment (required to reject)</label>
            <textarea id="review-comment" value={comment} maxLength={2000} data-testid="review-comment" onChange={(e) => setComment(e.target.value)} />
            {button('Approve', 'approve', () => void act('Approved', 'POST', '/approve', { comment }))}
            {button('Reject', 'reject', () => void act('Rejected', 'POST', '/reject', { comment }), comment.trim().length < 3)}
          </>
        ) : null}
        {v.state === 'approved' ? button('Publish', 'publish', () => void act('Published', 'POST', '/publish')) : null}
        {mine && ['draft', 'in_review', 'approved', 'rejected'].includes(v.state) ? button('Withdraw', 'withdraw', () => void act('Withdrawn', 'POST', '/withdraw')) : null}
      </div>
      <h2>Changes ({v.diff.summary.error} error, {v.diff.summary.warning} warning, {v.diff.summary.note} note)</h2>
      <ReachLine reach={v.reach} />
      <Findings findings={v.diff.findings} />
      <h2>Lint gate</h2>
      {v.lint.length ? (
        <ul className="findings" data-testid="lint">{v.lint.map((f, i) => <li key={i} className={`severity-${f.severity}`}>{f.severity}: <code>{f.file}:{f.pointer || '/'}</code> {f.message}</li>)}</ul>
      ) : <p className="muted">{v.state === 'draft' ? 'The gate runs when the draft is submitted.' : 'Lint: no findings.'}</p>}
      <ReviewThread version={v.id} canComment refreshKey={v.state + v.revision} />
      <ReviewPreviews url={`/admin/api/versions/${v.id}/preview`} files={[{ file: v.file, label: v.label, reach: v.reach }]} />
      <h2>Document</h2>
      <CodeEditor text={text} schema={undefined} findings={[]} readOnly={!editable} onChange={setText} />
    </article>
  )
}

/** The Reviews view: the queue, or one version (`version` in the address, so a link opens it). */
export function Reviews({ me, version, onOpen, onChanged }: { me: Me; version?: number; onOpen: (id: number | undefined) => void; onChanged: () => void }) {
  return (
    <div className="releases-panes">
      <nav className="documents" aria-label="Reviews">
        <button type="button" className="link" data-testid="reviews-queue" onClick={() => onOpen(undefined)}>All reviews</button>
      </nav>
      {version ? <VersionView key={version} id={version} me={me} onChanged={onChanged} /> : <Queue onOpen={onOpen} />}
    </div>
  )
}
