/**
 * What the form's popup fields share (the select, date and calendar popups, spec §2 modal kinds): the
 * field's button that opens the popup, and the popup's frame — a bottom sheet in the site's popup
 * styles, a modal dialog named by the field's label with focus trapped, closed by Escape, × or the
 * overlay (focus then returns to the field). Each popup brings only its body and its keys.
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react'
import { createPortal } from 'react-dom'
import type { WidgetProps } from '@rjsf/utils'
import { useFocusTrap } from '../popups/focus-trap'
import { contextOf, describedBy } from './widget-kit'

export interface PopupField {
  open: boolean
  titleId: string
  trigger: RefObject<HTMLButtonElement | null>
  setOpen(open: boolean): void
  /** Closes the popup; a chosen value goes to the form. Focus returns to the field. */
  close(chosen?: unknown): void
}

export function usePopupField(props: WidgetProps): PopupField {
  const [open, setOpen] = useState(false)
  const trigger = useRef<HTMLButtonElement>(null)
  const titleId = `${useId()}-title`
  const close = (chosen?: unknown) => {
    setOpen(false)
    if (chosen !== undefined) props.onChange(chosen)
    trigger.current?.focus({ preventScroll: true })
  }
  return { open, titleId, trigger, setOpen, close }
}

/** The field: a button naming the chosen value, labelled by the field's <label>. */
export function PopupFieldButton({ props, field, value, className, children }: { props: WidgetProps; field: PopupField; value: string; className: string; children: ReactNode }) {
  return (
    <button
      ref={field.trigger}
      type="button"
      id={props.id}
      name={props.htmlName || props.id}
      className={`form-input ${className}`}
      aria-haspopup="dialog"
      aria-expanded={field.open}
      aria-invalid={(props.rawErrors?.length ?? 0) > 0 || undefined}
      aria-required={props.required || undefined}
      aria-describedby={describedBy(props.id, props)}
      disabled={props.disabled || props.readonly}
      value={value}
      onClick={() => field.setOpen(true)}
      onBlur={() => props.onBlur(props.id, props.value)}
      onFocus={() => props.onFocus(props.id, props.value)}
    >
      {children}
    </button>
  )
}

/** The popup's frame; `onKey` gets the keys the body handles (Escape is the frame's). */
export function PopupFieldSheet({ props, field, modal, onKey, children }: { props: WidgetProps; field: PopupField; modal: 'select' | 'date' | 'calendar'; onKey(event: KeyboardEvent<HTMLDivElement>, root: HTMLDivElement | null): void; children: ReactNode }) {
  const { tr } = contextOf(props)
  const ref = useRef<HTMLDivElement>(null)
  useFocusTrap(ref, true, true)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return onKey(event, ref.current)
    event.preventDefault()
    event.stopPropagation()
    field.close()
  }
  return createPortal(
    <div className="popup-layer" data-modal={modal}>
      <div className="popup-overlay" onClick={() => field.close()} aria-hidden="true" />
      <div ref={ref} className="popup" role="dialog" aria-modal="true" aria-labelledby={field.titleId} data-modal={modal} data-animation="slide" data-testid={`${modal}-popup-${props.id}`} tabIndex={-1} onKeyDown={onKeyDown}>
        <h2 id={field.titleId} className="popup__title">
          {tr(props.label || String(props.schema.title ?? ''))}
        </h2>
        <button type="button" className="icon-button popup__close" aria-label={tr('common.close')} onClick={() => field.close()}>
          ×
        </button>
        {children}
      </div>
    </div>,
    document.body,
  )
}
