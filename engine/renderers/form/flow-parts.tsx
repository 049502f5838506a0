/**
 * The pieces a flow form step shows around its fields: "Step n of m" with its bar, and the Back /
 * Next (or Submit) buttons. Presentational only; FlowForm decides what they say and do.
 */
import type { Translate } from './texts'

export function FlowProgress({ index, total, tr }: { index: number; total: number; tr: Translate }) {
  if (total <= 1) return null
  const width = `${Math.round(((index + 1) / total) * 100)}%`
  return (
    <div className="form-progress" data-testid="form-progress">
      <p>{tr('form.progress', { current: index + 1, total })}</p>
      <div className="form-progress-bar" aria-hidden="true">
        {/* set through the DOM, not a style attribute: the server renders this markup, and the CSP
            (style-src 'self') refuses style attributes in HTML; the bar fills once the form is live */}
        <span
          ref={(bar) => {
            if (bar) bar.style.width = width
          }}
        />
      </div>
    </div>
  )
}

export function FlowActions({ canGoBack, busy, submitLabel, onBack, tr }: { canGoBack: boolean; busy: boolean; submitLabel: string; onBack: () => void; tr: Translate }) {
  return (
    <div className="form-actions">
      {canGoBack ? (
        <button type="button" className="form-button form-button-secondary" onClick={onBack} disabled={busy}>
          {tr('form.back')}
        </button>
      ) : null}
      <button type="submit" className="form-button form-button-primary" disabled={busy} aria-busy={busy || undefined} data-testid="form-submit">
        {busy ? tr('form.busy') : submitLabel}
      </button>
    </div>
  )
}
