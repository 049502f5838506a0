/**
 * The operator studio (issue 19): find a document (search across every document), edit it as JSON
 * or as a form (the same text), see lint findings and a live phone preview while typing, see what
 * each jurisdiction's copy changes, and save it as a draft for review. It is the one operator app
 * (issue 29 item 7): reviews (submit → review by another person with a kept thread → publish),
 * releases, waivers, rollbacks, messages, the outbox and the audit log are its other views (VIEWS
 * below); support works in /admin/services. The studio only calls the admin API, with the admin
 * session, roles, CSRF token and audit log.
 */
import { DraftConflict, type Conflict } from './DraftConflict'
import type { JSONSchema7 } from 'json-schema'
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { Audit } from './Audit'
import { History } from './History'
import { Messages } from './Messages'
import { Outbox } from './Outbox'
import { Reviews } from './Reviews'
import { call, debounce, errorText, setCsrf, type DocumentRow, type LintFinding, type Me, type SiteRow } from './api'
import { CodeEditor } from './CodeEditor'
import { FORM_KINDS, FormView } from './FormView'
import { Insights } from './Insights'
import { editableText, overlayBaseFor, textToSave, type OverlayBase } from './overlay-editing'
import { Preview } from './Preview'
import { Releases, usePendingCount } from './Releases'
import { StaffScopes } from './StaffScopes'
import { NewDocument } from './NewDocument'
import { DeleteDocument } from './DeleteDocument'

type View = 'form' | 'code'

function kindOf(text: string): string | undefined {
  try {
    const kind = (JSON.parse(text) as { kind?: unknown }).kind
    return typeof kind === 'string' ? kind : undefined
  } catch {
    return undefined
  }
}

function DocumentList({ selected, onOpen, top }: { selected?: string; onOpen: (file: string) => void; top?: ReactNode }) {
  const [all, setAll] = useState<DocumentRow[]>([])
  const [query, setQuery] = useState('')
  const [hits, setHits] = useState<DocumentRow[] | undefined>()
  useEffect(() => {
    void call<DocumentRow[]>('GET', '/admin/api/documents').then((a) => a.ok && setAll(a.payload.sort((x, y) => x.label.localeCompare(y.label))))
  }, [])
  const search = useMemo(
    () =>
      debounce(async (q: string) => {
        if (!q) return setHits(undefined)
        const answer = await call<DocumentRow[]>('GET', `/admin/api/studio/search?q=${encodeURIComponent(q)}`)
        if (answer.ok) setHits(answer.payload)
      }, 250),
    [],
  )
  const rows = hits ?? all
  return (
    <nav className="documents" aria-label="Documents">
      {top}
      <input
        type="search"
        value={query}
        placeholder="Search every document"
        aria-label="Search every document"
        data-testid="studio-search"
        onChange={(e) => {
          setQuery(e.target.value)
          search(e.target.value.trim())
        }}
      />
      <ul>
        {rows.map((row) => (
          <li key={row.file}>
            <button type="button" className={row.file === selected ? 'link current' : 'link'} data-file={row.file} onClick={() => onOpen(row.file)}>
              {row.label}
            </button>
            <code>{row.file}</code>
            {row.match ? <span className="muted match">{row.match}</span> : null}
          </li>
        ))}
      </ul>
    </nav>
  )
}

interface Draft {
  id: number
  state: string
  /** The draft revision this editor has: its next save names it (a stale one is refused). */
  revision: number
}

/** The latest draft of a file this admin wrote, with its text. */
async function openDraftOf(file: string, me: Me): Promise<(Draft & { content: string }) | undefined> {
  const list = await call<{ id: number; author: string; state: string }[]>('GET', `/admin/api/versions?file=${encodeURIComponent(file)}&state=draft`)
  const latest = list.ok ? list.payload.filter((v) => v.author.toLowerCase() === me.email.toLowerCase()).sort((a, b) => b.id - a.id)[0] : undefined
  if (!latest) return undefined
  const version = await call<{ id: number; state: string; content: string; revision: number }>('GET', `/admin/api/versions/${latest.id}`)
  return version.ok ? version.payload : undefined
}

function DocumentEditor({ file, me, sites, onOpen }: { file: string; me: Me; sites: SiteRow[]; onOpen: (file: string) => void }) {
  const [published, setPublished] = useState<{ label: string; content: string; id: number } | undefined>()
  const [text, setText] = useState('')
  const [view, setView] = useState<View>('form')
  const [schema, setSchema] = useState<JSONSchema7 | undefined>()
  const [findings, setFindings] = useState<LintFinding[]>([])
  const [draft, setDraft] = useState<Draft | undefined>()
  const [conflict, setConflict] = useState<Conflict | undefined>()
  const [notice, setNotice] = useState<{ text: string; kind: 'info' | 'error' } | undefined>()
  // a jurisdiction's overlay: edited as the whole document its site is served, saved as the patch
  const [base, setBase] = useState<OverlayBase | undefined>()
  const kind = kindOf(text) ?? kindOf(published?.content ?? '')
  const formKind = !!kind && (FORM_KINDS as readonly string[]).includes(kind)
  const readOnly = me.role !== 'operator'

  useEffect(() => {
    void call<{ published: { label: string; content: string; id: number } }>('GET', `/admin/api/document?file=${encodeURIComponent(file)}`).then(async (a) => {
      if (a.ok) {
        const overlayBase = await overlayBaseFor(a.payload.published.content)
        const shown = editableText(file, a.payload.published.content, overlayBase)
        setBase(overlayBase)
        setPublished({ ...a.payload.published, content: shown })
        return setText(shown)
      }
      // A new document (a jurisdiction's overlay just created): never published, edited as its draft.
      const mine = await openDraftOf(file, me)
      if (!mine) return setNotice({ text: errorText(a), kind: 'error' })
      const overlayBase = await overlayBaseFor(mine.content)
      setBase(overlayBase)
      setPublished({ label: file, content: '', id: 0 })
      setDraft({ id: mine.id, state: mine.state, revision: mine.revision })
      setText(editableText(file, mine.content, overlayBase))
    })
  }, [file, me])
  useEffect(() => {
    if (!kind) return
    void call<JSONSchema7>('GET', `/admin/api/studio/schema/${encodeURIComponent(kind)}`).then((a) => a.ok && setSchema(a.payload))
  }, [kind])
  useEffect(() => {
    if (kind && !formKind) setView('code')
  }, [kind, formKind])

  const lint = useMemo(
    () =>
      debounce(async (content: string) => {
        const answer = await call<LintFinding[]>('POST', '/admin/api/studio/lint', { file, content })
        if (answer.ok) setFindings(answer.payload.filter((f) => f.file === file || !f.file))
      }, 500),
    [file],
  )
  useEffect(() => {
    if (text) lint(text)
    return () => lint.cancel()
  }, [lint, text])

  const save = async (onRevision = draft?.revision) => {
    const saving = textToSave(file, text, base)
    if (!saving.ok) return setNotice({ text: saving.problem, kind: 'error' })
    const answer = draft
      ? await call<Draft>('PUT', `/admin/api/versions/${draft.id}`, { content: saving.content, revision: onRevision })
      : await call<Draft>('POST', '/admin/api/drafts', { file, content: saving.content })
    if (!answer.ok && answer.errorCode === 'DRAFT_CONFLICT' && draft) {
      setNotice(undefined)
      return setConflict({ draft: draft.id, ...(answer.payload as unknown as Omit<Conflict, 'draft'>) })
    }
    if (!answer.ok) return setNotice({ text: errorText(answer), kind: 'error' })
    setConflict(undefined)
    setDraft(answer.payload)
    setNotice({ text: `Saved as draft #${answer.payload.id}. Submit it for review from its page under Reviews.`, kind: 'info' })
  }

  if (!published) return <section className="editor">{notice ? <p className="error">{notice.text}</p> : <p>Loading…</p>}</section>
  const errors = findings.filter((f) => f.severity === 'error').length
  return (
    <>
      <section className="editor" aria-label="Editor">
        <header className="editor-head">
          <h1>{published.label}</h1>
          <code>{file}</code> <span className="muted">{published.id ? `published version ${published.id}` : 'new document, not published yet'}</span>
          {base ? (
            <p className="muted" data-testid="studio-overlay-note">
              An overlay on <button type="button" className="link" onClick={() => onOpen(base.file)}>{base.file}</button>: you edit the whole document as this site is served it; saving
              stores only what differs, so later changes of {base.file} keep reaching this site.
            </p>
          ) : null}
        </header>
        <div className="toolbar">
          <div role="tablist" aria-label="View">
            <button type="button" role="tab" aria-selected={view === 'form'} disabled={!formKind} data-testid="studio-view-form" onClick={() => setView('form')}>Form</button>
            <button type="button" role="tab" aria-selected={view === 'code'} data-testid="studio-view-code" onClick={() => setView('code')}>JSON</button>
          </div>
          <span className={errors ? 'lint-summary error' : 'lint-summary'} data-testid="studio-lint" data-errors={errors}>
            {findings.length === 0 ? 'Lint: no findings' : `Lint: ${errors} error(s), ${findings.length - errors} other`}
          </span>
          {!readOnly && published.id ? <DeleteDocument file={file} /> : null}
          <button type="button" className="primary" data-testid="studio-save" disabled={readOnly || text === published.content} onClick={() => void save()}>
            {draft ? 'Save draft' : 'Save as draft'}
          </button>
        </div>
        {conflict ? (
          <DraftConflict
            conflict={conflict}
            onLoadTheirs={() => {
              setText(editableText(file, conflict.content, base))
              setDraft(draft && { ...draft, revision: conflict.revision })
              setConflict(undefined)
            }}
            onKeepMine={() => void save(conflict.revision)}
          />
        ) : null}
        {notice ? <p className={`notice ${notice.kind}`} role="status" data-testid="studio-notice">{notice.text}{draft ? <> <a href={`?view=reviews&version=${draft.id}`} data-testid="studio-open-draft">Open draft #{draft.id}</a></> : null}</p> : null}
        {view === 'form' && formKind ? (
          <FormView kind={kind!} schema={schema as Record<string, unknown> | undefined} text={text} readOnly={readOnly} onChange={setText} />
        ) : (
          <CodeEditor text={text} schema={schema} findings={findings.filter((f) => !f.file || f.file === file)} readOnly={readOnly} onChange={setText} />
        )}
        {findings.length > 0 ? (
          <ul className="findings" data-testid="studio-findings">
            {findings.map((f, i) => (
              <li key={i} className={`severity-${f.severity}`}>
                {f.severity}: <code>{f.file && f.file !== file ? `${f.file}:` : ''}{f.pointer || '/'}</code> {f.rule ? <span className="muted">[{f.rule}]</span> : null} {f.message}
              </li>
            ))}
          </ul>
        ) : null}
        <Insights file={file} onOpen={onOpen} sites={sites} canCreate={!readOnly} />
        <History file={file} />
      </section>
      <Preview key={file} file={file} text={text} sites={sites} />
    </>
  )
}

interface ViewProps {
  me: Me
  sites: SiteRow[]
  params: URLSearchParams
  go: (view: string, extra?: Record<string, string>) => void
  refreshPending: () => void
}

/**
 * The studio's views, in nav order: one entry each (id in the address as ?view=, label, the view).
 * Documents is the default and stays mounted (its editor keeps unsaved text while another view is
 * open). A view opens with focus on its heading (./a11y.ts).
 */
const VIEWS: { id: string; label: string; badge?: boolean; only?: Me['role']; view?: (p: ViewProps) => ReactNode }[] = [
  { id: 'documents', label: 'Documents' },
  { id: 'reviews', label: 'Reviews', view: (p) => <Reviews me={p.me} version={Number(p.params.get('version')) || undefined} onOpen={(id) => p.go('reviews', id ? { version: String(id) } : {})} onChanged={p.refreshPending} /> },
  { id: 'releases', label: 'Releases, waivers, rollbacks', badge: true, view: (p) => <Releases me={p.me} sites={p.sites} onChanged={p.refreshPending} /> },
  { id: 'messages', label: 'Messages', view: (p) => <Messages me={p.me} sites={p.sites} /> },
  { id: 'outbox', label: 'Outbox', view: () => <Outbox /> },
  { id: 'audit', label: 'Audit log', view: () => <Audit /> },
  { id: 'staff', label: 'Staff', only: 'compliance', view: () => <StaffScopes /> },
]

/** The signed audit checkpoint every staff page shows under its header (issue 30 item 5). */
function CheckpointLine() {
  const [checkpoint, setCheckpoint] = useState<{ entries: number; head: string; signedAt: string } | undefined>()
  useEffect(() => void call<{ checkpoint: { entries: number; head: string; signedAt: string } }>('GET', '/admin/api/account').then((a) => a.ok && setCheckpoint(a.payload.checkpoint)), [])
  if (!checkpoint) return null
  return (
    <p className="checkpoint muted" data-testid="audit-checkpoint" data-entries={checkpoint.entries}>
      Audit log checkpoint: {checkpoint.entries} entries, head {checkpoint.head.slice(0, 16)}…, signed {String(checkpoint.signedAt).replace('T', ' ').slice(0, 19)} UTC ·{' '}
      <a href="/admin/api/audit/checkpoint" download data-testid="audit-checkpoint-download">Download</a>
    </p>
  )
}

export function Studio() {
  const [me, setMe] = useState<Me | undefined>()
  const [sites, setSites] = useState<SiteRow[]>([])
  const [params, setParams] = useState(() => new URLSearchParams(location.search))
  const [pending, refreshPending] = usePendingCount()
  useEffect(() => {
    void call<{ user: Me; csrf: string }>('GET', '/admin/api/session').then((a) => {
      if (!a.ok) return
      setCsrf(a.payload.csrf)
      setMe(a.payload.user)
    })
    void call<SiteRow[]>('GET', '/admin/api/studio/sites').then((a) => a.ok && setSites(a.payload))
    const back = () => setParams(new URLSearchParams(location.search))
    window.addEventListener('popstate', back)
    return () => window.removeEventListener('popstate', back)
  }, [])
  const go = (view: string, extra: Record<string, string> = {}) => {
    const next = new URLSearchParams(view === 'documents' ? extra : { view, ...extra })
    history.pushState(null, '', `?${next}`)
    setParams(next)
  }
  const file = params.get('file') ?? undefined
  const tab = VIEWS.find((v) => v.id === params.get('view')) ?? VIEWS[0]!
  if (!me) return <p>Loading…</p>
  return (
    <div className="studio">
      <header className="bar">
        <strong>Parlay studio</strong> <span data-testid="studio-who" data-role={me.role}>{me.name} ({me.role})</span>
        <nav className="tabs" aria-label="Studio">
          {VIEWS.filter((v) => !v.only || v.only === me.role).map((v) => (
            <button key={v.id} type="button" aria-current={tab.id === v.id ? 'page' : undefined} aria-pressed={tab.id === v.id} data-testid={`studio-tab-${v.id}`} onClick={() => go(v.id, v.id === 'documents' && file ? { file } : {})}>
              {v.label}
              {v.badge ? <> <span className={pending > 0 ? 'badge' : 'badge none'} data-testid="studio-pending-count" data-count={pending} aria-label={`${pending} waiting for your review`}>{pending}</span></> : null}
            </button>
          ))}
          <a href="/admin/services" data-testid="studio-services-link">Services (support)</a>
          <a href="/admin/account" data-testid="admin-account-link">Account</a>
        </nav>
        <button type="button" data-testid="studio-sign-out" onClick={() => void call('POST', '/admin/api/logout').then(() => location.assign('/admin'))}>Sign out</button>
      </header>
      <CheckpointLine />
      {tab.view ? <main key={tab.id + params.toString()}>{tab.view({ me, sites, params, go, refreshPending })}</main> : null}
      <main className="panes" hidden={tab.id !== 'documents'}>
        <DocumentList selected={file} onOpen={(next) => go('documents', { file: next })} top={me.role === 'operator' ? <NewDocument sites={sites} onOpen={(next) => go('documents', { file: next })} /> : null} />
        {file && sites.length > 0 ? <DocumentEditor key={file} file={file} me={me} sites={sites} onOpen={(next) => go('documents', { file: next })} /> : <p className="muted empty">Pick a document on the left.</p>}
      </main>
    </div>
  )
}
