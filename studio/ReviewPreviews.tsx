/**
 * Compliance's side-by-side review (issue 29 item 2): every file of a change, rendered published
 * and changed by the real engine at phone size, for each site and locale it goes live in — the
 * document's own sites (a Spain document renders as Spain, in Spanish and English), never the
 * admin's host — with "Show as" a guest or one of that site's demo punters. The server decides the
 * reach and makes the preview tokens (server/admin/review.ts, review-previews.ts).
 */
import { useState } from 'react'
import { call, errorText } from './api'
import { inLocale, punterLabel, useDemoPunters, type DemoPunter } from './Preview'

export interface FileReach {
  file: string
  path: string
  sites: { site: string; name: string; locales: string[] }[]
  ownCopies: { site: string; name: string; file: string }[]
}

export interface ReviewedFile {
  file: string
  label: string
  reach: FileReach
}

interface SitePreview {
  site: string
  jurisdiction: string
  name: string
  locales: string[]
  before: string
  after: string
  punter?: string
}

/** "Goes live on Spain (es, en)"; a shared document also says which sites keep their own copy. */
export function ReachLine({ reach }: { reach: FileReach }) {
  if (reach.sites.length === 0) return <p className="muted" data-testid="reach">This change reaches no site.</p>
  const own = reach.ownCopies.length > 0 ? ` Not on ${reach.ownCopies.map((c) => c.name).join(', ')}: each serves its own copy.` : ''
  return <p className="reach" data-testid="reach">Goes live on {reach.sites.map((s) => `${s.name} (${s.locales.join(', ')})`).join('; ')}.{own}</p>
}

/** The page in a locale (its path prefix), with the preview token. */
const pageUrl = (path: string, locale: string, token: string) => `${inLocale(path, locale)}?preview=${encodeURIComponent(token)}`

function Pair({ file, preview, locale, first }: { file: ReviewedFile; preview: SitePreview; locale: string; first: boolean }) {
  const frame = (side: 'before' | 'after', token: string, title: string) => (
    <iframe
      className="phone"
      src={pageUrl(file.reach.path, locale, token)}
      width={360}
      height={740}
      loading="lazy"
      title={`${title}: ${file.label}, ${preview.name}, ${locale}`}
      data-file={file.file}
      data-site={preview.site}
      data-locale={locale}
      data-side={side}
      data-testid={first ? `release-${side}` : undefined}
    />
  )
  return (
    <div className="pair" data-testid="review-pair">
      <figure><figcaption>Published · {file.label} · {locale}</figcaption>{frame('before', preview.before, 'Published')}</figure>
      <figure><figcaption>With this change · {file.label} · {locale}</figcaption>{frame('after', preview.after, 'With this change')}</figure>
    </div>
  )
}

interface SiteProps {
  url: string
  preview: SitePreview
  files: ReviewedFile[]
  punters: DemoPunter[]
  first: boolean
  onChange: (next: SitePreview) => void
}

function SiteSection({ url, preview, files, punters, first, onChange }: SiteProps) {
  const [problem, setProblem] = useState<string | undefined>()
  const showAs = async (punter: string) => {
    const answer = await call<{ previews: SitePreview[] }>('POST', url, { site: preview.site, ...(punter ? { punter } : {}) })
    if (!answer.ok) return setProblem(errorText(answer))
    setProblem(undefined)
    onChange({ ...answer.payload.previews[0], locales: preview.locales })
  }
  const pairs = files.flatMap((file) => (file.reach.sites.find((s) => s.site === preview.site)?.locales ?? preview.locales).map((locale) => ({ file, locale })))
  return (
    <section className="site-previews" data-testid="review-site" data-site={preview.site}>
      <h3>
        {preview.name}{' '}
        <label className="muted">
          Show as{' '}
          <select value={preview.punter ?? ''} data-testid={`show-as-${preview.site}`} onChange={(e) => void showAs(e.target.value)}>
            <option value="">a guest (not logged in)</option>
            {punters.filter((p) => p.jurisdiction === preview.jurisdiction).map((p) => (
              <option key={p.accountNumber} value={p.accountNumber}>{punterLabel(p)}</option>
            ))}
          </select>
        </label>
      </h3>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
      <div className="pairs">
        {pairs.map(({ file, locale }, i) => (
          <Pair key={`${file.file}/${locale}`} file={file} preview={preview} locale={locale} first={first && i === 0} />
        ))}
      </div>
    </section>
  )
}

/** The review's side by side: "Render" asks `url` for both sides on every site the files reach. */
export function ReviewPreviews({ url, files }: { url: string; files: ReviewedFile[] }) {
  const [previews, setPreviews] = useState<SitePreview[] | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const punters = useDemoPunters()
  const render = async () => {
    const answer = await call<{ previews: SitePreview[] }>('POST', url, {})
    if (!answer.ok) return setProblem(errorText(answer))
    setProblem(undefined)
    setPreviews(answer.payload.previews)
  }
  return (
    <section className="side-by-side" aria-label="Published and with this change">
      <h3>Side by side</h3>
      <p className="muted">
        Both versions of every document, on every site and in every language it goes live in, at phone size.{' '}
        <button type="button" data-testid="release-render" onClick={() => void render()}>Render both</button>
      </p>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
      {previews?.length === 0 ? <p className="muted">This change reaches no site.</p> : null}
      {previews?.map((preview, i) => (
        <SiteSection
          key={preview.site}
          url={url}
          preview={preview}
          files={files.filter((f) => f.reach.sites.some((s) => s.site === preview.site))}
          punters={punters}
          first={i === 0}
          onChange={(next) => setPreviews(previews.map((p) => (p.site === next.site ? next : p)))}
        />
      ))}
    </section>
  )
}
