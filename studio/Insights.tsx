/**
 * What a document means beside the others: for a document with jurisdiction copies, what each
 * copy changes against the shared one (the semantic differ of tools/schema-lint/diff, in the
 * product's language); and "where used" for a popup or a translation key.
 */
import { useEffect, useState } from 'react'
import { call, errorText, type SiteRow } from './api'
import { jurisdictionCopyFile, jurisdictionCopyText } from './copies'

interface OverlayCopy {
  file: string
  jurisdiction: string
  summary: { error: number; warning: number; note: number }
  findings: { message: string; location: string; impact: string; severity: string }[]
}

interface Props {
  file: string
  onOpen: (file: string) => void
  sites: SiteRow[]
  canCreate: boolean
}

/** "Create a Spain copy of this document": a draft of the jurisdiction copy, opened in the editor. */
function CreateCopy({ file, onOpen, sites, taken }: { file: string; onOpen: (file: string) => void; sites: SiteRow[]; taken: string[] }) {
  const free = sites.filter((s) => !taken.includes(s.jurisdiction))
  const [jurisdiction, setJurisdiction] = useState(free[0]?.jurisdiction ?? '')
  const [problem, setProblem] = useState<string | undefined>()
  if (free.length === 0 || file.startsWith('jurisdictions/')) return null
  const create = async () => {
    const copy = jurisdictionCopyFile(file, jurisdiction)
    const shared = await call<{ published: { content: string } }>('GET', `/admin/api/document?file=${encodeURIComponent(file)}`)
    if (!copy || !shared.ok) return setProblem(errorText(shared))
    const draft = await call<{ id: number }>('POST', '/admin/api/drafts', { file: copy, content: jurisdictionCopyText(shared.payload.published.content, copy) })
    if (!draft.ok) return setProblem(errorText(draft))
    onOpen(copy)
  }
  return (
    <p>
      <label>
        Create a copy for{' '}
        <select value={jurisdiction} data-testid="copy-jurisdiction" onChange={(e) => setJurisdiction(e.target.value)}>
          {free.map((s) => (
            <option key={s.jurisdiction} value={s.jurisdiction}>{s.name}</option>
          ))}
        </select>
      </label>{' '}
      <button type="button" data-testid="copy-create" onClick={() => void create()}>Create copy (draft)</button>
      {problem ? <span className="error" role="alert"> {problem}</span> : null}
    </p>
  )
}

function Overlays({ file, onOpen, sites, canCreate }: Props) {
  const [data, setData] = useState<{ baseline: string | null; copies: OverlayCopy[] } | undefined>()
  useEffect(() => {
    let live = true
    void call<{ baseline: string | null; copies: OverlayCopy[] }>('GET', `/admin/api/studio/overlay?file=${encodeURIComponent(file)}`).then((a) => live && a.ok && setData(a.payload))
    return () => {
      live = false
    }
  }, [file])
  const create = canCreate && data ? <CreateCopy file={file} onOpen={onOpen} sites={sites} taken={data.copies.map((c) => c.jurisdiction)} /> : null
  if (!data || data.copies.length === 0)
    return (
      <>
        <p className="muted">No jurisdiction has its own copy of this document.</p>
        {create}
      </>
    )
  return (
    <div data-testid="studio-overlays">
      {create}
      {data.baseline ? (
        <p>
          Compared with <button type="button" className="link" onClick={() => onOpen(data.baseline!)}>{data.baseline}</button>
          {data.baseline.startsWith('jurisdictions/') ? ' (no shared copy: the default site is the baseline)' : ' (the shared copy)'}
        </p>
      ) : null}
      {data.copies.map((copy) => (
        <details key={copy.file} open={copy.file === file} data-testid="overlay-copy" data-jurisdiction={copy.jurisdiction}>
          <summary>
            {copy.jurisdiction}: {copy.findings.length} change(s){' '}
            <button type="button" className="link" onClick={() => onOpen(copy.file)}>open</button>
          </summary>
          <ul>
            {copy.findings.map((f, i) => (
              <li key={i} className={`severity-${f.severity}`}>
                {f.message} <code>{f.location}</code>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  )
}

function WhereUsed({ file, onOpen }: Pick<Props, 'file' | 'onOpen'>) {
  const popup = /(^|\/)popups\/([a-z0-9-]+)\.json$/.exec(file)?.[2]
  const [key, setKey] = useState('')
  const [asked, setAsked] = useState<{ name: string; users: { file: string; label: string; match: string }[] } | undefined>()
  const ask = async (query: string) => {
    const answer = await call<{ name: string; users: { file: string; label: string; match: string }[] }>('GET', `/admin/api/studio/where-used?${query}`)
    if (answer.ok) setAsked(answer.payload)
  }
  useEffect(() => {
    setAsked(undefined)
    if (popup) void ask(`popup=${encodeURIComponent(popup)}`)
  }, [popup])
  return (
    <div>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (key.trim()) void ask(`key=${encodeURIComponent(key.trim())}`)
        }}
      >
        <label>
          Text key <input value={key} placeholder="signup.field.email" data-testid="where-used-key" onChange={(e) => setKey(e.target.value)} />
        </label>{' '}
        <button type="submit">Where used</button>
      </form>
      {asked ? (
        <div data-testid="where-used">
          <p>
            <code>{asked.name}</code> is used in {asked.users.length} document(s):
          </p>
          <ul>
            {asked.users.map((u) => (
              <li key={u.file}>
                <button type="button" className="link" onClick={() => onOpen(u.file)}>{u.label}</button> <code>{u.file}</code> <span className="muted">{u.match}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}

export function Insights(props: Props) {
  return (
    <section className="insights">
      <h2>Jurisdiction copies</h2>
      <Overlays {...props} />
      <h2>Where used</h2>
      <WhereUsed {...props} />
    </section>
  )
}
