/**
 * Releases and the reviewer's view (issue 19 items 5 and 6). An operator groups drafts into a
 * release, submits it and schedules it for a time in a zone; compliance sees what waits for them
 * (the count in the studio's header), reads each document's semantic diff and lint findings,
 * comments on a diff line, renders the whole release beside the published site at phone size on
 * every site and language it goes live in (./ReviewPreviews.tsx), and approves or rejects with a reason. Publishing and scheduling are one
 * click each; a rollback is four-eyes or an emergency (./ReleaseRollback.tsx); the server (server/admin/releases.ts) enforces every rule and audits it.
 */
import { useCallback, useEffect, useState } from 'react'
import { call, errorText, type LintFinding, type Me, type SiteRow } from './api'
import { ReachLine, ReviewPreviews, type FileReach } from './ReviewPreviews'
import { Waivers } from './Waivers'
import { Rollbacks } from './Rollbacks'
import { ReleaseRollback } from './ReleaseRollback'

interface Item {
  id: number
  file: string
  label: string
  state: string
}
interface Finding {
  message: string
  location: string
  severity: string
  impact: string
  /** The message in the words of each locale the document reaches (server/admin/review.ts). */
  said?: { locale: string; message: string }[]
}
interface ReleaseRow {
  id: number
  title: string
  state: string
  origin: string
  author: string
  reviewedBy: string | null
  reviewComment: string | null
  schedule: { at: number; local: string; zone: string } | null
  rolledBackBy: number | null
  rollbackOf: number | null
  items: Item[]
}
interface Comment {
  id: number
  versionId: number
  location: string
  author: string
  body: string
}
interface ReleaseDetail extends Omit<ReleaseRow, 'items'> {
  items: (Item & { lint: LintFinding[]; reach: FileReach; diff: { findings: Finding[] } })[]
  comments: Comment[]
}

export const ZONES = ['Europe/Madrid', 'Europe/Copenhagen', 'Europe/Minsk', 'Europe/Moscow', 'Europe/Lisbon', 'Europe/Rome', 'America/Curacao', 'UTC']

/** What waits for this admin's review: the studio header's badge. */
export function usePendingCount(): [number, () => void] {
  const [count, setCount] = useState(0)
  const refresh = useCallback(() => {
    void call<{ count: number }>('GET', '/admin/api/reviews/pending').then((a) => a.ok && setCount(a.payload.count))
  }, [])
  useEffect(() => {
    refresh()
    const timer = setInterval(refresh, 30_000)
    return () => clearInterval(timer)
  }, [refresh])
  return [count, refresh]
}

function NewRelease({ me, onCreated }: { me: Me; onCreated: (id: number) => void }) {
  const [drafts, setDrafts] = useState<Item[]>([])
  const [chosen, setChosen] = useState<number[]>([])
  const [title, setTitle] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  useEffect(() => {
    void call<(Item & { author: string })[]>('GET', '/admin/api/versions?state=draft').then(
      (a) => a.ok && setDrafts(a.payload.filter((v) => v.author.toLowerCase() === me.email.toLowerCase())),
    )
  }, [me])
  const create = async () => {
    const answer = await call<{ id: number }>('POST', '/admin/api/releases', { title, versions: chosen })
    if (!answer.ok) return setProblem(errorText(answer))
    onCreated(answer.payload.id)
  }
  return (
    <form className="new-release" onSubmit={(e) => (e.preventDefault(), void create())}>
      <h2>New release</h2>
      <label>
        Title <input value={title} data-testid="release-title" onChange={(e) => setTitle(e.target.value)} />
      </label>
      <fieldset>
        <legend>Your drafts, published together</legend>
        {drafts.length === 0 ? <p className="muted">No drafts: save a document as a draft first.</p> : null}
        {drafts.map((d) => (
          <label key={d.id} className="check">
            <input
              type="checkbox"
              data-testid={`release-draft-${d.file}`}
              checked={chosen.includes(d.id)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, d.id] : chosen.filter((x) => x !== d.id))}
            />{' '}
            {d.label} <code>{d.file}</code> #{d.id}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="primary" data-testid="release-create" disabled={chosen.length === 0 || title.trim().length < 3}>Create release</button>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
    </form>
  )
}

/**
 * Editing a release before it goes live (its author): the title, and which drafts are in it. The
 * server sends a release in review or approved back to review on any edit; this says so first.
 */
function EditRelease({ release, me, onSaved }: { release: ReleaseDetail; me: Me; onSaved: (text: string, ok: boolean) => void }) {
  const [title, setTitle] = useState(release.title)
  const [keep, setKeep] = useState<number[]>(release.items.map((i) => i.id))
  const [add, setAdd] = useState<number[]>([])
  const [free, setFree] = useState<Item[]>([])
  useEffect(() => {
    void call<(Item & { author: string })[]>('GET', '/admin/api/versions?state=draft').then(
      (a) => a.ok && setFree(a.payload.filter((v) => v.author.toLowerCase() === me.email.toLowerCase() && !release.items.some((i) => i.id === v.id))),
    )
  }, [me, release])
  const remove = release.items.map((i) => i.id).filter((id) => !keep.includes(id))
  const changed = title.trim() !== release.title || remove.length > 0 || add.length > 0
  const reviewed = release.state === 'in_review' || release.state === 'approved'
  const save = async () => {
    const body = { ...(title.trim() !== release.title ? { title: title.trim() } : {}), ...(add.length ? { add } : {}), ...(remove.length ? { remove } : {}) }
    const answer = await call<{ state: string }>('PATCH', `/admin/api/releases/${release.id}`, body)
    if (answer.ok) setAdd([])
    onSaved(answer.ok ? (reviewed ? `Saved: the release is back in review (${answer.payload.state.replace('_', ' ')}).` : 'Saved.') : errorText(answer), answer.ok)
  }
  const toggle = (list: number[], id: number, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id))
  return (
    <details className="edit-release" data-testid="release-edit">
      <summary>Edit this release</summary>
      <form className="new-release" onSubmit={(e) => (e.preventDefault(), void save())}>
        <label>
          Title <input value={title} data-testid="release-edit-title" onChange={(e) => setTitle(e.target.value)} />
        </label>
        <fieldset>
          <legend>Drafts in this release</legend>
          {release.items.map((d) => (
            <label key={d.id} className="check">
              <input type="checkbox" checked={keep.includes(d.id)} data-testid={`release-keep-${d.file}`} onChange={(e) => setKeep(toggle(keep, d.id, e.target.checked))} /> {d.label} <code>{d.file}</code> #{d.id}
            </label>
          ))}
          {free.map((d) => (
            <label key={d.id} className="check">
              <input type="checkbox" checked={add.includes(d.id)} data-testid={`release-add-${d.file}`} onChange={(e) => setAdd(toggle(add, d.id, e.target.checked))} /> add {d.label} <code>{d.file}</code> #{d.id}
            </label>
          ))}
        </fieldset>
        {reviewed ? <p className="muted" id={`edit-note-${release.id}`}>Saving sends this release back to review: {release.state === 'approved' ? 'its approval is cleared and ' : ''}a second person approves it again.</p> : null}
        <button type="submit" className="primary" data-testid="release-edit-save" aria-describedby={reviewed ? `edit-note-${release.id}` : undefined} disabled={!changed || keep.length + add.length === 0 || title.trim().length < 3}>
          Save changes
        </button>
      </form>
    </details>
  )
}

function FindingLine({ finding, item, comments, onComment }: { finding: Finding; item: Item; comments: Comment[]; onComment: (versionId: number, location: string, text: string) => Promise<void> }) {
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const here = comments.filter((c) => c.versionId === item.id && c.location === finding.location)
  return (
    <li className={`finding severity-${finding.severity}`} data-testid="diff-line">
      <span>{finding.message}</span> <code className="muted">{finding.location}</code> <span className="muted">{finding.impact}</span>{' '}
      {finding.said?.length ? (
        <ul className="said" data-testid="said">
          {finding.said.map((w) => (
            <li key={w.locale} lang={w.locale}><code>{w.locale}</code> {w.message}</li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="link" onClick={() => setOpen(!open)}>Comment</button>
      {here.length > 0 ? (
        <ul className="comments" data-testid="line-comments">
          {here.map((c) => (
            <li key={c.id}><strong>{c.author}</strong>: {c.body}</li>
          ))}
        </ul>
      ) : null}
      {open ? (
        <form onSubmit={(e) => (e.preventDefault(), void onComment(item.id, finding.location, text).then(() => (setText(''), setOpen(false))))}>
          <input value={text} aria-label="Comment on this line" data-testid="line-comment-text" onChange={(e) => setText(e.target.value)} />
          <button type="submit" disabled={!text.trim()}>Add</button>
        </form>
      ) : null}
    </li>
  )
}

type Notice = { text: string; kind: 'info' | 'error' }

/** A release's title, state, people, schedule and the last action's notice. */
function ReleaseHeading({ release, notice }: { release: ReleaseDetail; notice: Notice | undefined }) {
  return (
    <>
      <h2>
        Release #{release.id}: {release.title} <span className={`state state-${release.state}`} data-testid="release-state">{release.state.replace('_', ' ')}</span>
      </h2>
      <p className="muted">
        by {release.author}
        {release.reviewedBy ? ` · reviewed by ${release.reviewedBy}${release.reviewComment ? `: “${release.reviewComment}”` : ''}` : ''}
        {release.rollbackOf ? ` · rolls back release #${release.rollbackOf}` : ''}
        {release.rolledBackBy ? ` · rolled back by release #${release.rolledBackBy}` : ''}
      </p>
      <p data-testid="release-schedule">{release.schedule ? `Goes live ${release.schedule.local} ${release.schedule.zone} (${new Date(release.schedule.at).toISOString().replace('.000Z', 'Z')})` : 'Not scheduled: goes live when published.'}</p>
      {notice ? <p className={`notice ${notice.kind}`} role="status" data-testid="release-notice">{notice.text}</p> : null}
    </>
  )
}

/** One document of a release: its reach, its semantic diff (with line comments) and its lint. */
function ReleaseItemSection({ item, comments, onComment }: { item: ReleaseDetail['items'][number]; comments: ReleaseDetail['comments']; onComment: (versionId: number, location: string, text: string) => Promise<void> }) {
  return (
    <section className="release-item" data-testid="release-item" data-file={item.file}>
      <h3>{item.label} <code>{item.file}</code> <span className="muted">#{item.id}</span></h3>
      <ReachLine reach={item.reach} />
      <ul className="diff">
        {item.diff.findings.length === 0 ? <li className="muted">No semantic change.</li> : null}
        {item.diff.findings.map((f, i) => (
          <FindingLine key={i} finding={f} item={item} comments={comments} onComment={onComment} />
        ))}
      </ul>
      {item.lint.length > 0 ? (
        <ul className="findings" data-testid="release-lint">
          {item.lint.map((f, i) => (
            <li key={i} className={`severity-${f.severity}`}>{f.severity}: <code>{f.file ? `${f.file}:` : ''}{f.pointer || '/'}</code> {f.message}</li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

function ReleaseView({ id, me, onChanged, onWaivers }: { id: number; me: Me; onChanged: () => void; onWaivers: () => void }) {
  const [release, setRelease] = useState<ReleaseDetail | undefined>()
  const [notice, setNotice] = useState<Notice | undefined>()
  const [reason, setReason] = useState('')
  const [when, setWhen] = useState('')
  const [zone, setZone] = useState('Europe/Madrid')
  const [busy, setBusy] = useState(false)
  const load = useCallback(async () => {
    const answer = await call<ReleaseDetail>('GET', `/admin/api/releases/${id}`)
    if (answer.ok) setRelease(answer.payload)
  }, [id])
  useEffect(() => {
    void load()
  }, [load])
  const act = async (path: string, body: unknown, done: string) => {
    setBusy(true)
    const answer = await call<{ id: number }>('POST', `/admin/api/releases/${id}/${path}`, body)
    setBusy(false)
    setNotice(answer.ok ? { text: done, kind: 'info' } : { text: errorText(answer), kind: 'error' })
    await load()
    onChanged()
  }
  const comment = async (versionId: number, location: string, text: string) => {
    const answer = await call('POST', `/admin/api/releases/${id}/comments`, { version: versionId, location, text })
    if (!answer.ok) setNotice({ text: errorText(answer), kind: 'error' })
    await load()
  }
  if (!release) return <p>Loading…</p>
  const mine = release.author.toLowerCase() === me.email.toLowerCase()
  const operator = me.role === 'operator'
  const compliance = me.role === 'compliance'
  const open = ['draft', 'in_review', 'approved'].includes(release.state)
  return (
    <article className="release" data-testid="release" data-state={release.state}>
      <ReleaseHeading release={release} notice={notice} />

      <div className="actions">
        {operator && mine && (release.state === 'draft' || release.state === 'rejected') ? (
          <button type="button" className="primary" disabled={busy} data-testid="release-submit" onClick={() => void act('submit', undefined, 'Submitted for review.')}>Submit for review</button>
        ) : null}
        {open ? (
          <span className="schedule">
            <input type="datetime-local" value={when} aria-label="Go live at" data-testid="release-when" onChange={(e) => setWhen(e.target.value)} />
            <select value={zone} aria-label="Time zone" data-testid="release-zone" onChange={(e) => setZone(e.target.value)}>
              {ZONES.map((z) => (
                <option key={z} value={z}>{z}</option>
              ))}
            </select>
            <button type="button" disabled={busy || !when} data-testid="release-schedule-button" onClick={() => void act('schedule', { at: when.slice(0, 16), zone }, `Scheduled for ${when} ${zone}.`)}>Schedule</button>
          </span>
        ) : null}
        {compliance && !mine && release.state === 'in_review' ? (
          <span className="review">
            <input value={reason} placeholder="Comment (required to reject)" aria-label="Review comment" data-testid="release-review-comment" onChange={(e) => setReason(e.target.value)} />
            <button type="button" className="primary" disabled={busy} data-testid="release-approve" onClick={() => void act('approve', { comment: reason }, 'Approved.')}>Approve</button>
            <button type="button" disabled={busy || reason.trim().length < 3} data-testid="release-reject" onClick={() => void act('reject', { comment: reason }, 'Rejected.')}>Reject</button>
          </span>
        ) : null}
        {release.state === 'approved' ? <button type="button" disabled={busy} data-testid="release-publish" onClick={() => void act('publish', undefined, 'Published.')}>Publish now</button> : null}
        {release.state === 'published' && !release.rolledBackBy ? (
          <ReleaseRollback busy={busy} act={act} />
        ) : null}
        {operator && mine && open ? <button type="button" disabled={busy} onClick={() => void act('withdraw', undefined, 'Withdrawn.')}>Withdraw</button> : null}
      </div>
      {operator && mine && (open || release.state === 'rejected') ? (
        <EditRelease key={release.items.map((i) => i.id).join(',') + release.title + release.state} release={release} me={me} onSaved={(text, ok) => (setNotice({ text, kind: ok ? 'info' : 'error' }), void load(), onChanged())} />
      ) : null}

      {release.items.map((item) => (
        <ReleaseItemSection key={item.id} item={item} comments={release.comments} onComment={comment} />
      ))}
      <p className="muted">
        A regulatory rule's finding can be waived for a jurisdiction:{' '}
        <button type="button" className="link" data-testid="open-waivers" onClick={onWaivers}>Waivers</button> (a second person approves the waiver).
      </p>
      <ReviewPreviews url={`/admin/api/releases/${release.id}/preview`} files={release.items} />
    </article>
  )
}

export function Releases({ me, sites, onChanged }: { me: Me; sites: SiteRow[]; onChanged: () => void }) {
  const [rows, setRows] = useState<ReleaseRow[]>([])
  const [selected, setSelected] = useState<number | 'new' | 'waivers' | 'rollbacks' | undefined>()
  const load = useCallback(() => {
    void call<ReleaseRow[]>('GET', '/admin/api/releases').then((a) => a.ok && setRows(a.payload))
  }, [])
  useEffect(load, [load])
  const changed = () => (load(), onChanged())
  return (
    <div className="releases-panes">
      <nav className="documents" aria-label="Releases">
        {me.role === 'operator' ? <button type="button" className="primary" data-testid="release-new" onClick={() => setSelected('new')}>New release</button> : null}{' '}
        <button type="button" aria-pressed={selected === 'waivers'} data-testid="waivers-open" onClick={() => setSelected('waivers')}>Waivers</button>{' '}
        <button type="button" aria-pressed={selected === 'rollbacks'} data-testid="rollbacks-open" onClick={() => setSelected('rollbacks')}>Rollbacks</button>
        <ul>
          {rows.map((r) => (
            <li key={r.id}>
              <button type="button" className={r.id === selected ? 'link current' : 'link'} data-testid="release-row" data-state={r.state} onClick={() => setSelected(r.id)}>
                #{r.id} {r.title}
              </button>
              <span className="muted"> {r.state.replace('_', ' ')}{r.schedule && r.state !== 'published' ? ` · ${r.schedule.local} ${r.schedule.zone}` : ''}</span>
            </li>
          ))}
        </ul>
      </nav>
      <section className="editor">
        {selected === 'new' ? <NewRelease me={me} onCreated={(id) => (setSelected(id), changed())} /> : null}
        {typeof selected === 'number' ? <ReleaseView key={selected} id={selected} me={me} onChanged={changed} onWaivers={() => setSelected('waivers')} /> : null}
        {selected === 'waivers' ? <Waivers me={me} sites={sites} onChanged={onChanged} /> : null}
        {selected === 'rollbacks' ? <Rollbacks me={me} onChanged={onChanged} /> : null}
        {selected === undefined ? <p className="muted">Pick a release on the left{me.role === 'operator' ? ', or start a new one' : ''}.</p> : null}
      </section>
    </div>
  )
}
