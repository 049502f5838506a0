/**
 * The JSON editor: CodeMirror 6 with codemirror-json-schema (completion, hover and inline
 * diagnostics from the kind's JSON Schema) and a second linter source, the server's schema-lint
 * findings for the text being typed (expressions, cross-references, i18n keys, regulatory rules),
 * placed at their JSON pointer. Both views of the studio edit the same text: a change from the
 * form view replaces the editor's document, a change here goes up through `onChange`.
 *
 * CodeMirror draws itself with style elements it writes at run time; the page's CSP allows them
 * only with the nonce the server put on this answer (docs/adr/0004-code-editor-under-csp.md).
 */
import { autocompletion } from '@codemirror/autocomplete'
import { forceLinting, linter, lintGutter, type Diagnostic } from '@codemirror/lint'
import { EditorState } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { getJsonPointers, jsonSchema } from 'codemirror-json-schema'
import type { JSONSchema7 } from 'json-schema'
import { useEffect, useRef } from 'react'
import type { LintFinding } from './api'

interface Props {
  text: string
  schema: JSONSchema7 | undefined
  findings: LintFinding[]
  readOnly: boolean
  onChange: (text: string) => void
}

/** Where a finding's JSON pointer is in the text (its parent's, or the whole document, when absent). */
export function rangeOf(state: EditorState, pointer: string): { from: number; to: number } {
  const pointers = getJsonPointers(state, 'json4')
  let at = pointer
  for (;;) {
    const found = pointers.get(at)
    if (found) return { from: found.keyFrom, to: 'valueTo' in found ? found.valueTo : found.keyTo }
    if (at === '' || !at.includes('/')) return { from: 0, to: Math.min(1, state.doc.length) }
    at = at.slice(0, at.lastIndexOf('/'))
  }
}

/** The page's style nonce: vite's `csp-nonce` meta element, filled in per answer by the server. */
export function pageNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? ''
}

/**
 * A completion that says nothing of the cursor leaves it after what it inserted. A property name
 * completed inside the quotes closeBrackets typed replaces them too, and CodeMirror then maps the
 * cursor to the START of the name: the operator's next `: true` landed before it.
 */
export const cursorAfterCompletion = EditorState.transactionFilter.of((tr) => {
  if (!tr.isUserEvent('input.complete') || tr.selection || tr.changes.empty) return tr
  let end = 0
  tr.changes.iterChangedRanges((_fromA, _toA, _fromB, toB) => (end = Math.max(end, toB)))
  return [tr, { selection: { anchor: end }, sequential: true }]
})

const SEVERITY: Record<LintFinding['severity'], Diagnostic['severity']> = { error: 'error', warning: 'warning', note: 'info' }

export function CodeEditor({ text, schema, findings, readOnly, onChange }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const findingsRef = useRef(findings)
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange

  useEffect(() => {
    const serverLint = linter((v) => findingsRef.current.map((f) => ({ ...rangeOf(v.state, f.pointer), severity: SEVERITY[f.severity] ?? 'info', source: 'schema-lint', message: f.message })), { delay: 50 })
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: text,
        extensions: [
          EditorView.cspNonce.of(pageNonce()),
          basicSetup,
          jsonSchema(schema),
          autocompletion({ activateOnTyping: true }),
          cursorAfterCompletion,
          lintGutter(),
          serverLint,
          EditorState.readOnly.of(readOnly),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString())
          }),
          EditorView.contentAttributes.of({ 'aria-label': 'Document JSON', 'data-testid': 'studio-code' }),
        ],
      }),
    })
    view.current = editor
    return () => editor.destroy()
    // The editor is made once per document and schema; text changes arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema, readOnly])

  useEffect(() => {
    const editor = view.current
    if (editor && editor.state.doc.toString() !== text) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } })
  }, [text])

  useEffect(() => {
    findingsRef.current = findings
    // Re-run the linters so the server's findings show without waiting for the next keystroke.
    if (view.current) forceLinting(view.current)
  }, [findings])

  return <div className="code-editor" ref={host} />
}
