/**
 * The words a translation key stands for, beside the element that shows them (issue 29 item 7):
 * one editable box per locale; "Save texts" writes each changed locale into a draft of its
 * translations file (this admin's open draft of it, or a new one), so the texts are reviewed and
 * published like any change. The keys' files come from server/admin/studio-texts.ts.
 */
import { useEffect, useState } from 'react'
import { call, errorText, type Me } from './api'

/** A value that reads as a text key (`popup.info.title`): dotted words, as the translations files name them. */
export const looksLikeTextKey = (value: unknown): value is string => typeof value === 'string' && /^[a-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/.test(value) && value.length <= 120

interface Text {
  locale: string
  file: string
  text: string | null
}

/** This admin's open draft of `file` (text and revision), else the published text. */
async function baseOf(file: string, me: Me): Promise<{ content: string; draft?: { id: number; revision: number } } | undefined> {
  const list = await call<{ id: number; author: string }[]>('GET', `/admin/api/versions?file=${encodeURIComponent(file)}&state=draft`)
  const mine = list.ok ? list.payload.filter((v) => v.author.toLowerCase() === me.email.toLowerCase()).sort((a, b) => b.id - a.id)[0] : undefined
  if (mine) {
    const version = await call<{ id: number; content: string; revision: number }>('GET', `/admin/api/versions/${mine.id}`)
    if (version.ok) return { content: version.payload.content, draft: { id: mine.id, revision: version.payload.revision } }
  }
  const published = await call<{ published: { content: string } }>('GET', `/admin/api/document?file=${encodeURIComponent(file)}`)
  return published.ok ? { content: published.payload.published.content } : undefined
}

/** Writes `text` for `key` into the draft of `file`; answers an error's words or undefined. */
async function saveText(file: string, key: string, text: string, me: Me): Promise<string | undefined> {
  const base = await baseOf(file, me)
  if (!base) return `${file} is not a published translations file`
  const doc = JSON.parse(base.content) as { resources: Record<string, string> }
  doc.resources = { ...doc.resources, [key]: text }
  const content = `${JSON.stringify(doc, null, 2)}\n`
  const answer = base.draft ? await call('PUT', `/admin/api/versions/${base.draft.id}`, { content, revision: base.draft.revision }) : await call('POST', '/admin/api/drafts', { file, content })
  return answer.ok ? undefined : `${file}: ${errorText(answer)}`
}

export function TextsBeside({ textKey, readOnly }: { textKey: string; readOnly: boolean }) {
  const [me, setMe] = useState<Me | undefined>()
  const [texts, setTexts] = useState<Text[] | undefined>()
  const [edits, setEdits] = useState<Record<string, string>>({})
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | undefined>()
  useEffect(() => {
    void call<{ user: Me }>('GET', '/admin/api/session').then((a) => a.ok && setMe(a.payload.user))
  }, [])
  useEffect(() => {
    void call<{ texts: Record<string, Text[]> }>('GET', `/admin/api/studio/texts?key=${encodeURIComponent(textKey)}`).then((a) => a.ok && setTexts(a.payload.texts[textKey]))
  }, [textKey])
  if (!texts || !me) return <span className="muted">Loading texts…</span>
  const changed = texts.filter((t) => edits[t.locale] !== undefined && edits[t.locale] !== (t.text ?? ''))
  const save = async () => {
    const problems: string[] = []
    for (const t of changed) {
      const problem = await saveText(t.file, textKey, edits[t.locale]!, me!)
      if (problem) problems.push(problem)
    }
    setNotice(problems.length ? { text: problems.join('; '), ok: false } : { text: `Saved as drafts: ${changed.map((t) => t.file).join(', ')}.`, ok: true })
  }
  return (
    <div className="texts-beside" role="group" aria-label={`Texts of ${textKey}`} data-testid="texts-beside" data-key={textKey}>
      {texts.map((t) => (
        <label key={t.locale}>
          <span className="locale">{t.locale}</span>
          <input value={edits[t.locale] ?? t.text ?? ''} placeholder="(no text yet)" readOnly={readOnly} aria-label={`${textKey} in ${t.locale}`} data-locale={t.locale} onChange={(e) => setEdits({ ...edits, [t.locale]: e.target.value })} />
        </label>
      ))}
      <button type="button" disabled={readOnly || changed.length === 0} data-testid="texts-save" onClick={() => void save()}>Save texts</button>
      {notice ? <span className={notice.ok ? 'notice info' : 'notice error'} role="status" data-testid="texts-notice">{notice.text}</span> : null}
    </div>
  )
}

/** A "Texts" button beside an element that shows a text key; it opens that key's words in every locale. */
export function TextsToggle({ textKey, readOnly }: { textKey: unknown; readOnly: boolean }) {
  const [open, setOpen] = useState(false)
  if (!looksLikeTextKey(textKey)) return null
  return (
    <>
      <button type="button" className="texts-toggle" aria-expanded={open} aria-label={`Texts of ${textKey}`} onClick={() => setOpen(!open)}>Texts</button>
      {open ? <TextsBeside textKey={textKey} readOnly={readOnly} /> : null}
    </>
  )
}
