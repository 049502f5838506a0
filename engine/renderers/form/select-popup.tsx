/**
 * The select popup (spec §2 modal kind "select"; `ui:widget: "selectPopup"`): the field is a
 * button showing the chosen option; tapping it opens a bottom-sheet dialog listing the options.
 * Accessible as a dialog (role, aria-modal, labelled by the field's label, focus trapped, Escape or
 * the overlay closes it and focus returns to the field) holding a listbox: arrow keys, Home and
 * End move between options, Enter or Space (or a tap) chooses one. Option names are i18n keys
 * (`ui:enumNames`), so the popup speaks the page's language. Styled as the site's other popups
 * (web/styles/popups.css), so no inline styles: it runs under the production CSP.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import type { WidgetProps } from '@rjsf/utils'
import { useFocusTrap } from '../popups/focus-trap'
import { contextOf, describedBy } from './widget-kit'

function SelectSheet({ props, titleId, onClose }: { props: WidgetProps; titleId: string; onClose: (chosen?: unknown) => void }) {
  const { tr } = contextOf(props)
  const ref = useRef<HTMLDivElement>(null)
  const choices = props.options.enumOptions ?? []
  const disabled = Array.isArray(props.options.enumDisabled) ? props.options.enumDisabled : []
  useFocusTrap(ref, true, true)
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      return onClose()
    }
    const options = [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="option"]:not([disabled])') ?? [])]
    const at = options.indexOf(document.activeElement as HTMLButtonElement)
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: options.length - 1 }[event.key]
    if (next === undefined || options.length === 0) return
    event.preventDefault()
    options[Math.max(0, Math.min(options.length - 1, next))].focus()
  }
  const chosen = choices.findIndex((o) => o.value === props.value)
  return createPortal(
    <div className="popup-layer" data-modal="select">
      <div className="popup-overlay" onClick={() => onClose()} aria-hidden="true" />
      <div ref={ref} className="popup" role="dialog" aria-modal="true" aria-labelledby={titleId} data-modal="select" data-animation="slide" data-testid={`select-popup-${props.id}`} tabIndex={-1} onKeyDown={move}>
        <h2 id={titleId} className="popup__title">{tr(props.label || String(props.schema.title ?? ''))}</h2>
        <button type="button" className="icon-button popup__close" aria-label={tr('common.close')} onClick={() => onClose()}>
          ×
        </button>
        <div className="popup__body select-popup__list" role="listbox" aria-labelledby={titleId}>
          {choices.map((option, i) => (
            <button
              key={String(option.value)}
              type="button"
              role="option"
              className="select-popup__option"
              aria-selected={i === chosen}
              disabled={disabled.includes(option.value)}
              autoFocus={i === (chosen === -1 ? 0 : chosen)}
              onClick={() => onClose(option.value)}
            >
              {tr(String(option.label))}
            </button>
          ))}
        </div>
      </div>
    </div>,
    document.body,
  )
}

export function SelectPopupWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const [open, setOpen] = useState(false)
  const trigger = useRef<HTMLButtonElement>(null)
  const titleId = `${useId()}-title`
  const choices = props.options.enumOptions ?? []
  const current = choices.find((o) => o.value === props.value)
  const placeholder = typeof props.placeholder === 'string' && props.placeholder ? props.placeholder : 'form.select.placeholder'
  const close = (chosen?: unknown) => {
    setOpen(false)
    if (chosen !== undefined) props.onChange(chosen)
    trigger.current?.focus({ preventScroll: true })
  }
  return (
    <>
      <button
        ref={trigger}
        type="button"
        id={props.id}
        name={props.htmlName || props.id}
        className="form-input form-select select-popup__trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-invalid={(props.rawErrors?.length ?? 0) > 0 || undefined}
        aria-required={props.required || undefined}
        aria-describedby={describedBy(props.id, props)}
        disabled={props.disabled || props.readonly}
        value={current ? String(current.value) : ''}
        onClick={() => setOpen(true)}
        onBlur={() => props.onBlur(props.id, props.value)}
        onFocus={() => props.onFocus(props.id, props.value)}
      >
        {tr(current ? String(current.label) : placeholder)}
      </button>
      {open && <SelectSheet props={props} titleId={titleId} onClose={close} />}
    </>
  )
}
