/**
 * The live preview: the unsaved text rendered by the real engine in a 360×740 iframe, for a
 * chosen site and locale, refreshed (debounced) while the operator types. Each refresh asks the
 * server for a preview token of the current text (POST /admin/api/studio/preview): the token shows
 * this text only to this admin session, writes nothing, and expires; punters never see it.
 * "Show as" picks a guest or one of the site's demo punters (a VIP, a self-excluded one, a new
 * one…): the page then shows that punter's state through a read-only preview session.
 */
import { useEffect, useMemo, useState } from 'react'
import { pagePathOf } from '../kernel/documents/page-path'
import { call, debounce, errorText, type SiteRow } from './api'

export interface DemoPunter {
  accountNumber: string
  nickname: string | null
  jurisdiction: string
  state: string
  shows: string
}

/** "HighRoller (VIP avatar and icon; no popup.)" — who the punter is and what they show. */
export function punterLabel(p: DemoPunter): string {
  const name = p.nickname ?? `#${p.accountNumber}`
  const shows = p.shows.length > 70 ? `${p.shows.slice(0, 69)}…` : p.shows
  return `${name}${p.state !== 'OPENED' ? ` · ${p.state}` : ''} — ${shows}`
}

/** The demo punters a preview can show (loaded once per studio). */
export function useDemoPunters(): DemoPunter[] {
  const [punters, setPunters] = useState<DemoPunter[]>([])
  useEffect(() => {
    void call<DemoPunter[]>('GET', '/admin/api/studio/punters').then((a) => a.ok && setPunters(a.payload))
  }, [])
  return punters
}

interface Props {
  file: string
  text: string
  sites: SiteRow[]
}

/** The site a document belongs to: its jurisdiction's for a jurisdiction copy, else the default. */
export function siteForFile(file: string, sites: SiteRow[]): SiteRow | undefined {
  const jurisdiction = /^jurisdictions\/([a-z0-9-]+)\//.exec(file)?.[1]
  return sites.find((s) => s.jurisdiction === jurisdiction) ?? sites.find((s) => s.isDefault) ?? sites[0]
}

/** The page that shows a document (kernel/documents/page-path.ts): a sign-up flow on /join, a
 * screen on its route, a promotion on its page, the quiz on /account/quiz, the rest on the home page. */
export function previewPathFor(file: string, text: string): string {
  try {
    const source = JSON.parse(text) as Record<string, unknown>
    if (typeof source.kind === 'string' && typeof source.id === 'string') return pagePathOf({ kind: source.kind, id: source.id, source })
  } catch {
    // falls through to the home page
  }
  return file.includes('flows/signup') ? '/join' : '/'
}

/** A page in a locale: the locale is the path's prefix, as a punter's link has it. */
export const inLocale = (path: string, locale: string) => `/${locale}${path === '/' ? '' : path.startsWith('/') ? path : `/${path}`}`

export function Preview({ file, text, sites }: Props) {
  const [siteId, setSiteId] = useState(() => siteForFile(file, sites)?.id ?? '')
  const site = sites.find((s) => s.id === siteId)
  const [locale, setLocale] = useState(site?.defaultLocale ?? 'en')
  const [path, setPath] = useState(() => previewPathFor(file, text))
  const [punter, setPunter] = useState('')
  const punters = useDemoPunters().filter((p) => p.jurisdiction === site?.jurisdiction)
  const [src, setSrc] = useState<string | undefined>()
  const [problem, setProblem] = useState<string | undefined>()

  const refresh = useMemo(
    () =>
      debounce(async (content: string, target: string, lang: string, at: string, as: string) => {
        const answer = await call<{ token: string }>('POST', '/admin/api/studio/preview', { file, content, site: target, ...(as ? { punter: as } : {}) })
        if (!answer.ok) return setProblem(errorText(answer))
        setProblem(undefined)
        setSrc(`${inLocale(at, lang)}?preview=${encodeURIComponent(answer.payload.token)}`)
      }, 600),
    [file],
  )
  useEffect(() => {
    if (siteId) refresh(text, siteId, locale, path, punter)
    return () => refresh.cancel()
  }, [refresh, text, siteId, locale, path, punter])

  return (
    <section className="preview" aria-label="Live preview">
      <div className="preview-controls">
        <label>
          Site{' '}
          <select value={siteId} data-testid="preview-site" onChange={(e) => {
            const next = sites.find((s) => s.id === e.target.value)
            setSiteId(e.target.value)
            setPunter('') // a punter belongs to one site
            if (next && !next.locales.includes(locale)) setLocale(next.defaultLocale)
          }}>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>{s.name}</option>
            ))}
          </select>
        </label>{' '}
        <label>
          Language{' '}
          <select value={locale} data-testid="preview-locale" onChange={(e) => setLocale(e.target.value)}>
            {(site?.locales ?? []).map((l) => (
              <option key={l} value={l}>{l}</option>
            ))}
          </select>
        </label>{' '}
        <label>
          Page <input value={path} size={14} data-testid="preview-path" onChange={(e) => setPath(e.target.value)} />
        </label>{' '}
        <label>
          Show as{' '}
          <select value={punter} data-testid="preview-punter" onChange={(e) => setPunter(e.target.value)}>
            <option value="">a guest (not logged in)</option>
            {punters.map((p) => (
              <option key={p.accountNumber} value={p.accountNumber}>{punterLabel(p)}</option>
            ))}
          </select>
        </label>
      </div>
      {problem ? <p className="error" role="alert" data-testid="preview-problem">Preview not updated: {problem}</p> : null}
      {src ? <iframe className="phone" src={src} width={360} height={740} title={punter ? `Live preview of this draft as demo punter ${punter}` : 'Live preview of this draft'} data-testid="studio-preview" /> : <p className="muted">Preparing the preview…</p>}
    </section>
  )
}
