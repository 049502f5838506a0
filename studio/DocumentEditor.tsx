/**
 * The studio's document editor (issue 19): one document as a form or as JSON (the same text), its
 * lint findings while typing, the live phone preview beside it, what each site's copy changes
 * (Insights) and its history; saved as this admin's draft for review. A jurisdiction's overlay is
 * edited as the whole document its site is served and saved as the patch (./overlay-editing.ts).
 */
import type { JSONSchema7 } from 'json-schema'
import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from 'react'
import { call, debounce, errorText, type LintFinding, type Me, type SiteRow } from './api'
import { CodeEditor } from './CodeEditor'
import { DeleteDocument } from './DeleteDocument'
import { kindOf, lintSummary, openDraftOf, type Draft } from './document-draft'
import { DraftConflict, type Conflict } from './DraftConflict'
import { FORM_KINDS, FormView } from './FormView'
import { History } from './History'
import { Insights } from './Insights'
import { editableText, overlayBaseFor, textToSave, type OverlayBase } from './overlay-editing'
import { Preview } from './Preview'

type View = 'form' | 'code'
interface Published {
  label: string
  content: string
  id: number
}
interface Notice {
  text: string
  kind: 'info' | 'error'
}

/**
 * The document as opened: its published text (an overlay shown whole), or, for a new document
 * never published (a jurisdiction's overlay just created), this admin's draft of it.
 */
function useOpenedDocument(file: string, me: Me) {
  const [published, setPublished] = useState<Published | undefined>()
  const [text, setText] = useState('')
  const [draft, setDraft] = useState<Draft | undefined>()
  const [notice, setNotice] = useState<Notice | undefined>()
  // a jurisdiction's overlay: edited as the whole document its site is served, saved as the patch
  const [base, setBase] = useState<OverlayBase | undefined>()
  useEffect(() => {
    void call<{ published: Published }>('GET', `/admin/api/document?file=${encodeURIComponent(file)}`).then(async (a) => {
      if (a.ok) {
        const overlayBase = await overlayBaseFor(a.payload.published.content)
        const shown = editableText(file, a.payload.published.content, overlayBase)
        setBase(overlayBase)
        setPublished({ ...a.payload.published, content: shown })
        return setText(shown)
      }
      const mine = await openDraftOf(file, me)
      if (!mine) return setNotice({ text: errorText(a), kind: 'error' })
      const overlayBase = await overlayBaseFor(mine.content)
      setBase(overlayBase)
      setPublished({ label: file, content: '', id: 0 })
      setDraft({ id: mine.id, state: mine.state, revision: mine.revision })
      setText(editableText(file, mine.content, overlayBase))
    })
  }, [file, me])
  return { published, text, setText, draft, setDraft, notice, setNotice, base }
}

/** The kind's schema (for the form and the JSON editor's hints); a kind without a form opens as JSON. */
function useKindSchema(kind: string | undefined, formKind: boolean, setView: (view: View) => void) {
  const [schema, setSchema] = useState<JSONSchema7 | undefined>()
  useEffect(() => {
    if (!kind) return
    void call<JSONSchema7>('GET', `/admin/api/studio/schema/${encodeURIComponent(kind)}`).then((a) => a.ok && setSchema(a.payload))
  }, [kind])
  useEffect(() => {
    if (kind && !formKind) setView('code')
  }, [kind, formKind])
  return schema
}

/** The lint findings of the text being typed (half a second after the last key), of this file or the whole set. */
function useLintFindings(file: string, text: string): LintFinding[] {
  const [findings, setFindings] = useState<LintFinding[]>([])
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
  return findings
}

interface SaveInputs {
  file: string
  text: string
  base: OverlayBase | undefined
  draft: Draft | undefined
  setDraft: Dispatch<SetStateAction<Draft | undefined>>
  setNotice: Dispatch<SetStateAction<Notice | undefined>>
}

/**
 * Saving as a draft: the first save creates this admin's draft, the next ones update it naming the
 * revision they edited; a draft saved elsewhere meanwhile is a conflict, shown to load theirs or
 * keep mine (a save on their revision).
 */
function useDraftSave({ file, text, base, draft, setDraft, setNotice }: SaveInputs) {
  const [conflict, setConflict] = useState<Conflict | undefined>()
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
  return { save, conflict, setConflict }
}

export function DocumentEditor({ file, me, sites, onOpen }: { file: string; me: Me; sites: SiteRow[]; onOpen: (file: string) => void }) {
  const { published, text, setText, draft, setDraft, notice, setNotice, base } = useOpenedDocument(file, me)
  const [view, setView] = useState<View>('form')
  const kind = kindOf(text) ?? kindOf(published?.content ?? '')
  const formKind = !!kind && (FORM_KINDS as readonly string[]).includes(kind)
  const readOnly = me.role !== 'operator'
  const schema = useKindSchema(kind, formKind, setView)
  const findings = useLintFindings(file, text)
  const { save, conflict, setConflict } = useDraftSave({ file, text, base, draft, setDraft, setNotice })

  if (!published) return <section className="editor">{notice ? <p className="error">{notice.text}</p> : <p>Loading…</p>}</section>
  return (
    <>
      <section className="editor" aria-label="Editor">
        <EditorHead file={file} published={published} base={base} onOpen={onOpen} />
        <div className="toolbar">
          <div role="tablist" aria-label="View">
            <button type="button" role="tab" aria-selected={view === 'form'} disabled={!formKind} data-testid="studio-view-form" onClick={() => setView('form')}>Form</button>
            <button type="button" role="tab" aria-selected={view === 'code'} data-testid="studio-view-code" onClick={() => setView('code')}>JSON</button>
          </div>
          <LintLine findings={findings} />
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
        <FindingsList file={file} findings={findings} />
        <Insights file={file} onOpen={onOpen} sites={sites} canCreate={!readOnly} />
        <History file={file} />
      </section>
      <Preview key={file} file={file} text={text} sites={sites} />
    </>
  )
}

/** The document's name, file and published version; an overlay says which document it is laid on. */
function EditorHead({ file, published, base, onOpen }: { file: string; published: Published; base: OverlayBase | undefined; onOpen: (file: string) => void }) {
  return (
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
  )
}

function LintLine({ findings }: { findings: LintFinding[] }) {
  const { errors, text } = lintSummary(findings)
  return (
    <span className={errors ? 'lint-summary error' : 'lint-summary'} data-testid="studio-lint" data-errors={errors}>
      {text}
    </span>
  )
}

/** Every finding, the file it is in named when it is another file of the set. */
function FindingsList({ file, findings }: { file: string; findings: LintFinding[] }) {
  if (findings.length === 0) return null
  return (
    <ul className="findings" data-testid="studio-findings">
      {findings.map((f, i) => (
        <li key={i} className={`severity-${f.severity}`}>
          {f.severity}: <code>{f.file && f.file !== file ? `${f.file}:` : ''}{f.pointer || '/'}</code> {f.rule ? <span className="muted">[{f.rule}]</span> : null} {f.message}
        </li>
      ))}
    </ul>
  )
}
