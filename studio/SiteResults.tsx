/**
 * For any document, what each site is served (issue 29, item 4; docs/overlays.md): a tab per site
 * with the file that serves it there — the site's overlay, a whole copy, the shared document or
 * none —, what the site's version changes against the shared document in plain words (the
 * semantic differ), the overlay as stored, and the resolved document, read-only. A site served the
 * shared document as it is can get its own overlay (a draft that changes nothing yet).
 */
import { useEffect, useState } from 'react'
import { call, errorText, type SiteRow } from './api'
import { jurisdictionCopyFile, jurisdictionOverlayText } from './copies'

type How = 'overlay' | 'copy' | 'shared' | 'none'

interface SiteResult {
  site: string
  name: string
  jurisdiction: string
  file: string | null
  how: How
  base: string | null
  resolved: Record<string, unknown> | null
  overlay: Record<string, unknown> | null
  changes: { message: string; location: string; impact: string; severity: string }[]
}

interface Results {
  file: string
  kind: string
  id: string
  shared: string | null
  sites: SiteResult[]
}

const HOW_WORDS: Record<How, string> = { overlay: 'overlay', copy: 'whole copy', shared: 'shared', none: 'not served' }

function howSentence(r: SiteResult): string {
  if (r.how === 'overlay') return `${r.name} is served its overlay ${r.file}: ${r.base} with the changes below. Later changes of ${r.base} reach ${r.name}.`
  if (r.how === 'copy') return `${r.name} is served its own whole copy ${r.file}${r.base ? `: later changes of ${r.base} do not reach it` : ''}.`
  if (r.how === 'shared') return `${r.name} is served the shared document ${r.file} as it is.`
  return `${r.name} is not served this document.`
}

interface Props {
  file: string
  onOpen: (file: string) => void
  sites: SiteRow[]
  canCreate: boolean
}

/** "Create Italy's overlay": a draft overlay that changes nothing yet, opened in the editor. */
function CreateOverlay({ results, result, onOpen }: { results: Results; result: SiteResult; onOpen: (file: string) => void }) {
  const [problem, setProblem] = useState<string | undefined>()
  const overlayFile = jurisdictionCopyFile(results.file, result.jurisdiction)
  if (!overlayFile) return null
  const create = async () => {
    const draft = await call<{ id: number }>('POST', '/admin/api/drafts', { file: overlayFile, content: jurisdictionOverlayText({ file: results.file, kind: results.kind, id: results.id }, overlayFile) })
    if (!draft.ok) return setProblem(errorText(draft))
    onOpen(overlayFile)
  }
  return (
    <p>
      <button type="button" data-testid="overlay-create" onClick={() => void create()}>Create {result.name}'s overlay (draft)</button>
      {problem ? <span className="error" role="alert"> {problem}</span> : null}
    </p>
  )
}

function SiteResultPanel({ results, result, onOpen, canCreate }: { results: Results; result: SiteResult; onOpen: (file: string) => void; canCreate: boolean }) {
  const creatable = canCreate && !results.file.startsWith('jurisdictions/') && (result.how === 'shared' || (result.how === 'none' && results.file.startsWith('bases/')))
  return (
    <div role="tabpanel" data-testid="site-result" data-site={result.site} data-how={result.how}>
      <p data-testid="site-how">
        {howSentence(result)}{' '}
        {result.file && result.file !== results.file ? <button type="button" className="link" onClick={() => onOpen(result.file!)}>open</button> : null}
      </p>
      {result.how === 'overlay' || result.how === 'copy' ? (
        <ul className="diff" data-testid="site-changes">
          {result.changes.length === 0 ? <li className="muted">No change against {result.base}.</li> : null}
          {result.changes.map((c, i) => (
            <li key={i} className={`finding severity-${c.severity}`}>
              {c.message} <code>{c.location}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {creatable ? <CreateOverlay results={results} result={result} onOpen={onOpen} /> : null}
      {result.overlay ? (
        <details>
          <summary>The overlay as stored: only what {result.name} changes</summary>
          <pre data-testid="site-overlay">{JSON.stringify(result.overlay, null, 2)}</pre>
        </details>
      ) : null}
      {result.resolved ? (
        <details open>
          <summary>What {result.name} is served (resolved, read-only)</summary>
          <pre className="resolved" data-testid="site-resolved">{JSON.stringify(result.resolved, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  )
}

export function SiteResults({ file, onOpen, canCreate }: Props) {
  const [results, setResults] = useState<Results | undefined>()
  const [current, setCurrent] = useState<string | undefined>()
  useEffect(() => {
    let live = true
    void call<Results>('GET', `/admin/api/studio/overlay?file=${encodeURIComponent(file)}`).then((a) => {
      if (!live || !a.ok) return
      setResults(a.payload)
      // the site whose document this is, else the first with a version of its own
      const own = a.payload.sites.find((s) => s.file === file && s.how !== 'shared') ?? a.payload.sites.find((s) => s.how === 'overlay' || s.how === 'copy') ?? a.payload.sites[0]
      setCurrent(own?.site)
    })
    return () => {
      live = false
    }
  }, [file])
  if (!results) return <p className="muted">Loading each site’s result…</p>
  const result = results.sites.find((s) => s.site === current) ?? results.sites[0]
  return (
    <div data-testid="site-results">
      <div role="tablist" aria-label="Sites" className="site-tabs">
        {results.sites.map((s) => (
          <button key={s.site} type="button" role="tab" aria-selected={s.site === result?.site} data-testid="site-tab" data-site={s.site} data-how={s.how} onClick={() => setCurrent(s.site)}>
            {s.name} <span className="muted">({HOW_WORDS[s.how]})</span>
          </button>
        ))}
      </div>
      {result ? <SiteResultPanel results={results} result={result} onOpen={onOpen} canCreate={canCreate} /> : null}
    </div>
  )
}
