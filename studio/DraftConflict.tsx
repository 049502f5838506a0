/**
 * A save refused because the draft was saved since this editor opened it (409 DRAFT_CONFLICT,
 * issue 29 item 7): shows the other change — the saved text, who saved it and when — and the two
 * ways on: load the saved text, or keep this text and save it on top (the rebase: the next save
 * names the revision shown here).
 */
export interface Conflict {
  draft: number
  revision: number
  content: string
  savedBy: string
  savedAt: number
}

export function DraftConflict({ conflict, onLoadTheirs, onKeepMine }: { conflict: Conflict; onLoadTheirs: () => void; onKeepMine: () => void }) {
  return (
    <div className="notice error" role="alert" data-testid="studio-conflict">
      <p>
        Draft #{conflict.draft} was saved by <strong data-testid="studio-conflict-by">{conflict.savedBy}</strong> at {new Date(conflict.savedAt).toISOString().replace('T', ' ').slice(0, 16)} UTC
        since you opened it (now revision {conflict.revision}). Your text was not saved.
      </p>
      <details open>
        <summary>The saved text</summary>
        <pre data-testid="studio-conflict-theirs">{conflict.content}</pre>
      </details>
      <button type="button" data-testid="studio-conflict-load" onClick={onLoadTheirs}>Load the saved text</button>{' '}
      <button type="button" data-testid="studio-conflict-keep" onClick={onKeepMine}>Keep my text and save it over theirs</button>
    </div>
  )
}
