/**
 * One open popup: loads its document, lays it out by modal kind (centred dialog, bottom sheet …),
 * animates by CSS class (none under prefers-reduced-motion), traps focus, and closes on Escape or
 * an overlay tap unless it is frozen or not closeable.
 */
import { useEffect, useId, useRef } from 'react'
import { POPUP_ANIMATION_NAMES } from '../../../kernel/core/action-choices'
import type { Popup } from '../../core/stores'
import type { PopupDocument } from '../../../kernel/documents/types'
import { RenderNodes } from '../RenderNode'
import { ScopeProvider, useEvaluate, useRuntime } from '../runtime'
import { useDocument } from '../use-document'
import { useFocusTrap } from './focus-trap'

const MODAL_KINDS = new Set(['default', 'info', 'select', 'date', 'calendar', 'confirm', 'result', 'login', 'custom'])
const ANIMATIONS = new Set<string>(POPUP_ANIMATION_NAMES)
/** Bottom sheets slide up; dialogs fade and rise. */
const SHEETS = new Set(['select', 'date', 'calendar', 'login'])

function PopupButtons({ doc, params }: { doc: PopupDocument; params: Record<string, unknown> }) {
  const runtime = useRuntime()
  const { text, when } = useEvaluate()
  const buttons = (doc.buttons ?? []).filter((button) => when(button.when))
  if (buttons.length === 0) return null
  return (
    <div className="popup__buttons">
      {buttons.map((button, index) => (
        <button key={index} type="button" className="button" data-testid={(button as { testId?: string }).testId} data-variant={button.variant ?? (index === 0 ? 'primary' : 'secondary')} onClick={() => void runtime.run(button.actions, { params })}>
          {text(button.label)}
        </button>
      ))}
    </div>
  )
}

function PopupTitle({ doc, id }: { doc: PopupDocument; id: string }) {
  const { text } = useEvaluate()
  if (!doc.title) return null
  return (
    <h2 id={id} className="popup__title">
      {text(doc.title)}
    </h2>
  )
}

export function PopupView({ popup, top }: { popup: Popup; top: boolean }) {
  const runtime = useRuntime()
  const state = useDocument<PopupDocument>('popup', popup.id)
  const dialogRef = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const doc = state.status === 'ready' ? state.doc : null
  const closeable = popup.isCloseable && doc?.closeable !== false
  const frozen = popup.isFrozen || doc?.frozen === true
  const dismissible = closeable && !frozen
  useFocusTrap(dialogRef, top, doc !== null)

  const dismiss = () => {
    if (!dismissible) return
    runtime.stores.ui.getState().closePopup(popup.id)
    if (doc?.onClose) void runtime.run(doc.onClose, { params: popup.params })
  }

  useEffect(() => {
    if (state.status === 'error') runtime.stores.ui.getState().closePopup(popup.id)
  }, [state.status, runtime, popup.id])

  useEffect(() => {
    if (!top) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation()
        dismiss()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  })

  if (!doc) return null
  const modal = MODAL_KINDS.has(doc.modal) ? doc.modal : 'default'
  const requested = popup.animation ?? doc.animation
  const animation = requested && ANIMATIONS.has(requested) ? requested : SHEETS.has(modal) ? 'slide' : 'slide-fade'
  return (
    <div className="popup-layer" data-modal={modal} inert={!top || undefined}>
      <div className="popup-overlay" data-testid="popup-overlay" onClick={dismiss} aria-hidden="true" />
      <div
        ref={dialogRef}
        className="popup"
        role={modal === 'confirm' ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={doc.title ? titleId : undefined}
        aria-label={doc.title ? undefined : doc.id}
        data-modal={modal}
        data-animation={animation}
        data-popup-id={doc.id}
        tabIndex={-1}
      >
        <ScopeProvider params={popup.params}>
          <PopupTitle doc={doc} id={titleId} />
          {closeable && !frozen && (
            <button type="button" className="icon-button popup__close" aria-label={runtime.t('common.close')} onClick={dismiss}>
              ×
            </button>
          )}
          <div className="popup__body">
            <RenderNodes nodes={doc.body} />
          </div>
          <PopupButtons doc={doc} params={popup.params} />
        </ScopeProvider>
      </div>
    </div>
  )
}
