/**
 * The operator studio (issue 19): find a document (search across every document), edit it as JSON
 * or as a form (the same text), see lint findings and a live phone preview while typing, see what
 * each jurisdiction's copy changes, and save it as a draft for review. It is the one operator app
 * (issue 29 item 7): reviews (submit → review by another person with a kept thread → publish),
 * releases, waivers, rollbacks, messages, the outbox and the audit log are its other views (VIEWS
 * below); support works in /admin/services. The studio only calls the admin API, with the admin
 * session, roles, CSRF token and audit log.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { Audit } from './Audit'
import { Messages } from './Messages'
import { Outbox } from './Outbox'
import { Reviews } from './Reviews'
import { call, debounce, setCsrf, type DocumentRow, type Me, type SiteRow } from './api'
import { DocumentEditor } from './DocumentEditor'
import { Releases, usePendingCount } from './Releases'
import { StaffScopes } from './StaffScopes'
import { NewDocument } from './NewDocument'

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
