/**
 * The select popup (spec §2 modal kind "select"; `ui:widget: "selectPopup"`): the field is a
 * button showing the chosen option; tapping it opens a bottom-sheet dialog (./popup-field.tsx:
 * named by the field's label, focus trapped, Escape, × or the overlay close it) holding a listbox:
 * arrow keys, Home and End move between options, Enter or Space (or a tap) chooses one. Option
 * names are i18n keys (`ui:enumNames`), so the popup speaks the page's language. Styled as the
 * site's other popups (web/styles/popups.css), classes only: it runs under the production CSP.
 */
import type { KeyboardEvent } from 'react'
import type { WidgetProps } from '@rjsf/utils'
import { PopupFieldButton, PopupFieldSheet, usePopupField, type PopupField } from './popup-field'
import { contextOf } from './widget-kit'

function moveBetweenOptions(event: KeyboardEvent<HTMLDivElement>, root: HTMLDivElement | null) {
  const options = [...(root?.querySelectorAll<HTMLButtonElement>('[role="option"]:not([disabled])') ?? [])]
  const at = options.indexOf(document.activeElement as HTMLButtonElement)
  const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: options.length - 1 }[event.key]
  if (next === undefined || options.length === 0) return
  event.preventDefault()
  options[Math.max(0, Math.min(options.length - 1, next))].focus()
}

function SelectSheet({ props, field }: { props: WidgetProps; field: PopupField }) {
  const { tr } = contextOf(props)
  const choices = props.options.enumOptions ?? []
  const disabled = Array.isArray(props.options.enumDisabled) ? props.options.enumDisabled : []
  const chosen = choices.findIndex((o) => o.value === props.value)
  return (
    <PopupFieldSheet props={props} field={field} modal="select" onKey={moveBetweenOptions}>
      <div className="popup__body select-popup__list" role="listbox" aria-labelledby={field.titleId}>
        {choices.map((option, i) => (
          <button
            key={String(option.value)}
            type="button"
            role="option"
            className="select-popup__option"
            aria-selected={i === chosen}
            disabled={disabled.includes(option.value)}
            autoFocus={i === (chosen === -1 ? 0 : chosen)}
            onClick={() => field.close(option.value)}
          >
            {tr(String(option.label))}
          </button>
        ))}
      </div>
    </PopupFieldSheet>
  )
}

export function SelectPopupWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const field = usePopupField(props)
  const current = (props.options.enumOptions ?? []).find((o) => o.value === props.value)
  const placeholder = typeof props.placeholder === 'string' && props.placeholder ? props.placeholder : 'form.select.placeholder'
  return (
    <>
      <PopupFieldButton props={props} field={field} value={current ? String(current.value) : ''} className="form-select select-popup__trigger">
        {tr(current ? String(current.label) : placeholder)}
      </PopupFieldButton>
      {field.open && <SelectSheet props={props} field={field} />}
    </>
  )
}
