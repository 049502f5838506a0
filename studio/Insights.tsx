/**
 * What a document means beside the others: for a document with jurisdiction copies, what each
 * copy changes against the shared one (the semantic differ of tools/schema-lint/diff, in the
 * product's language); and "where used" for a popup or a translation key.
 */
import { useEffect, useState } from 'react'
import { call } from './api'

interface OverlayCopy {
  file: string
  jurisdiction: string
  summary: { error: number; warning: number; note: number }
  findings: { message: string; location: string; impact: string; severity: string }[]
}

interface Props {
  file: string
  onOpen: (file: string) => void
}

function Overlays({ file, onOpen }: Props) {
  const [data, setData] = useState<{ baseline: string | null; copies: OverlayCopy[] } | undefined>()
  useEffect(() => {
    let live = true
    void call<{ baseline: string | null; copies: OverlayCopy[] }>('GET', `/admin/api/studio/overlay?file=${encodeURIComponent(file)}`).then((a) => live && a.ok && setData(a.payload))
    return () => {
      live = false
    }
  }, [file])
  if (!data || data.copies.length === 0) return <p className="muted">No jurisdiction has its own copy of this document.</p>
  return (
    <div data-testid="studio-overlays">
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

function WhereUsed({ file, onOpen }: Props) {
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
