/**
 * What a document means beside the others: what each site is served and what its overlay changes
 * (SiteResults.tsx); and "where used" for a popup or a translation key.
 */
import { useEffect, useState } from 'react'
import { call, type SiteRow } from './api'
import { SiteResults } from './SiteResults'

interface Props {
  file: string
  onOpen: (file: string) => void
  sites: SiteRow[]
  canCreate: boolean
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
      <h2>Each site’s result</h2>
      <SiteResults {...props} />
      <h2>Where used</h2>
      <WhereUsed {...props} />
    </section>
  )
}
