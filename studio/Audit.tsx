/**
 * The audit log for operators and compliance (issue 29 item 7): filter by who, what, which file or
 * jurisdiction and which days, search words anywhere in an entry, page back through older entries,
 * check the hash chain, and download exactly the filtered entries as CSV (the server writes the
 * file and audits the export: server/admin/audit-routes.ts). The filter lives in the address, so a
 * filtered view can be linked.
 */
import { useCallback, useEffect, useState } from 'react'
import { call } from './api'
import { useFocusOnOpen } from './a11y'
import { refusalText } from './refusals'

interface Entry { seq: number; at: number; actor: string; action: string; subject: string; details: Record<string, unknown>; hash: string }
type Verification = { ok: true; entries: number } | { ok: false; firstBadSeq: number; reason: string }
interface Filter { actor: string; action: string; subject: string; search: string; from: string; to: string }

const EMPTY: Filter = { actor: '', action: '', subject: '', search: '', from: '', to: '' }
const PAGE = 100
const DAY_MS = 86_400_000
const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19)

/** The API's query: text filters as typed; days (UTC) as epoch ms, the "to" day included. */
export function auditQuery(f: Filter, before?: number): string {
  const q = new URLSearchParams()
  for (const key of ['actor', 'action', 'subject', 'search'] as const) if (f[key].trim()) q.set(key, f[key].trim())
  if (f.from) q.set('from', String(Date.parse(`${f.from}T00:00:00Z`)))
  if (f.to) q.set('to', String(Date.parse(`${f.to}T00:00:00Z`) + DAY_MS))
  if (before) q.set('before', String(before))
  return q.toString()
}

const FIELDS: { key: keyof Filter; label: string; type?: string; hint?: string }[] = [
  { key: 'actor', label: 'Who', hint: 'an e-mail or part of it' },
  { key: 'action', label: 'Action', hint: 'e.g. review. or published' },
  { key: 'subject', label: 'File or jurisdiction', hint: 'e.g. spain or flows/signup' },
  { key: 'search', label: 'Words', hint: 'anywhere in the entry' },
  { key: 'from', label: 'From day (UTC)', type: 'date' },
  { key: 'to', label: 'To day (UTC), included', type: 'date' },
]

export function Audit() {
  const [draft, setDraft] = useState<Filter>(() => ({ ...EMPTY, ...Object.fromEntries([...new URLSearchParams(location.search)].filter(([k]) => k in EMPTY)) }))
  const [filter, setFilter] = useState<Filter>(draft)
  const [rows, setRows] = useState<Entry[]>([])
  const [more, setMore] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const [chain, setChain] = useState<Verification | undefined>()
  const heading = useFocusOnOpen<HTMLHeadingElement>()
  const load = useCallback(async (f: Filter, before?: number) => {
    const q = auditQuery(f, before)
    const answer = await call<Entry[]>('GET', `/admin/api/audit?${q ? `${q}&` : ''}limit=${PAGE}`)
    if (!answer.ok) return setProblem(refusalText(answer))
    setProblem(undefined)
    setRows((old) => (before ? [...old, ...answer.payload] : answer.payload))
    setMore(answer.payload.length === PAGE)
  }, [])
  useEffect(() => void load(filter), [load, filter])
  useEffect(() => void call<Verification>('GET', '/admin/api/audit/verify').then((a) => a.ok && setChain(a.payload)), [])
  const apply = () => {
    setFilter(draft)
    const q = new URLSearchParams({ view: 'audit', ...Object.fromEntries(Object.entries(draft).filter(([, v]) => v)) })
    history.replaceState(null, '', `?${q}`)
  }
  const query = auditQuery(filter)
  return (
    <section className="editor audit" aria-labelledby="audit-title">
      <h1 id="audit-title" tabIndex={-1} ref={heading}>Audit log</h1>
      {chain ? (
        <p className={chain.ok ? 'ok' : 'error'} data-testid="audit-verify">{chain.ok ? `Chain intact: ${chain.entries} entries.` : `Chain broken at entry #${chain.firstBadSeq}: ${chain.reason}`}</p>
      ) : null}
      <form className="audit-filter" aria-label="Filter the audit log" onSubmit={(e) => (e.preventDefault(), apply())}>
        {FIELDS.map((f) => (
          <label key={f.key}>
            {f.label}{' '}
            <input type={f.type ?? 'search'} value={draft[f.key]} placeholder={f.hint} maxLength={200} data-testid={`audit-${f.key}`} onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })} />
          </label>
        ))}
        <button type="submit" className="primary" data-testid="audit-apply">Show</button>{' '}
        <button type="button" onClick={() => (setDraft(EMPTY), setFilter(EMPTY), history.replaceState(null, '', '?view=audit'))}>Clear</button>{' '}
        <a href={`/admin/api/audit/export${query ? `?${query}` : ''}`} download data-testid="audit-export">Download these entries as CSV</a>
      </form>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
      <div className="table-scroll" role="region" aria-labelledby="audit-title" tabIndex={0}>
        <table data-testid="audit-table">
          <caption className="muted" role="status">{rows.length === 0 ? 'No entries match.' : `${rows.length} entries${more ? ' so far' : ''}, newest first`}</caption>
          <thead>
            <tr><th scope="col">#</th><th scope="col">Time (UTC)</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Subject</th><th scope="col">Details</th><th scope="col">Hash</th></tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.seq} data-testid="audit-row" data-seq={e.seq}>
                <td>{e.seq}</td><td>{when(e.at)}</td><td>{e.actor}</td><td>{e.action}</td><td><code>{e.subject}</code></td><td><code>{JSON.stringify(e.details)}</code></td><td><code>{e.hash.slice(0, 12)}</code></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more ? <button type="button" data-testid="audit-more" onClick={() => void load(filter, rows.at(-1)?.seq)}>Older entries</button> : null}
    </section>
  )
}
