/**
 * The date popup (spec §2 modal kind "date"; `ui:widget: "datePopup"`): for a date the punter
 * knows (a birth date, a document's expiry), picked as its day, month and year rather than paged
 * to on a month grid (that is the calendar popup's job). The field is a button showing the date as
 * the page's locale writes it (05.03.1990 in ru); it opens a bottom-sheet dialog
 * (./popup-field.tsx: named by the field's label, focus trapped; Escape, × or the overlay close it)
 * with three lists in the locale's order. In a list, arrows, Home and End (or a tap) choose; Left
 * and Right go to the next list; Enter or the Done button writes the ISO date (1990-03-05).
 * Bounds: the field's (spec §5), and with `ui:options.birthDate` the jurisdiction document's
 * minimum age (engine/core/date-parts.ts). Classes only: it runs under the production CSP.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { WidgetProps } from '@rjsf/utils'
import { isIsoDate } from '../../../kernel/core/calendar-month'
import { choiceOf, clampChoice, datePartOrder, formatLocalDate, isoOf, monthName, partValues, pickerBounds, type DateChoice, type DatePart } from '../../core/date-parts'
import { dateBounds } from '../../../kernel/core/date-rules'
import { PopupFieldButton, PopupFieldSheet, usePopupField, type PopupField } from './popup-field'
import { contextOf } from './widget-kit'

/** The lists' names (static keys: the translation lint reads them). */
const PART_LABELS: Record<DatePart, string> = { day: 'form.date.day', month: 'form.date.month', year: 'form.date.year' }

const pageLocale = (props: WidgetProps) => contextOf(props).locale || (typeof document !== 'undefined' && document.documentElement.lang) || 'en'

function useBounds(props: WidgetProps) {
  const { today, minimumAge } = contextOf(props)
  const field = dateBounds(props.schema as Record<string, unknown>, today)
  const birthDate = props.options.birthDate === true && typeof minimumAge === 'number' ? { minimumAge } : undefined
  return pickerBounds(field, today, birthDate)
}

/** Keys inside one list: up/down/Home/End choose within it, left/right go to the next list. */
function moveInList(event: KeyboardEvent<HTMLDivElement>) {
  const target = event.target instanceof HTMLElement ? event.target : null
  const list = target?.closest('[role="listbox"]')
  if (!target || !list) return
  if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
    const lists = [...(list.parentElement?.parentElement?.querySelectorAll<HTMLElement>('[role="listbox"]') ?? [])]
    const next = lists[lists.indexOf(list as HTMLElement) + (event.key === 'ArrowLeft' ? -1 : 1)]
    event.preventDefault()
    return next?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus()
  }
  const options = [...list.querySelectorAll<HTMLButtonElement>('[role="option"]:not([disabled])')]
  const at = options.indexOf(target as HTMLButtonElement)
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: options.length - 1 }[event.key]
  if (to === undefined || options.length === 0) return
  event.preventDefault()
  options[Math.max(0, Math.min(options.length - 1, to))].click()
}

function PartList({ part, choice, bounds, locale, labelId, label, onPick }: { part: DatePart; choice: DateChoice; bounds: { min: string; max: string }; locale: string; labelId: string; label: string; onPick(part: DatePart, value: number): void }) {
  const list = useRef<HTMLDivElement>(null)
  const chosen = choice[part]
  // the chosen value is in view; focus follows it when it moved by a key inside this list
  useEffect(() => {
    const option = list.current?.querySelector<HTMLElement>('[aria-selected="true"]')
    if (option && list.current?.contains(document.activeElement)) option.focus()
    option?.scrollIntoView?.({ block: 'nearest' })
  }, [chosen])
  return (
    <div className="date-popup__part" data-part={part}>
      <p id={labelId} className="date-popup__label">
        {label}
      </p>
      <div ref={list} className="date-popup__list" role="listbox" aria-labelledby={labelId}>
        {partValues(part, choice, bounds.min, bounds.max).map(({ value, enabled }) => (
          <button key={value} type="button" role="option" className="date-popup__option" data-value={value} aria-selected={value === chosen} tabIndex={value === chosen ? 0 : -1} disabled={!enabled} onClick={() => onPick(part, value)}>
            {part === 'month' ? monthName(value, locale) : part === 'day' ? String(value).padStart(2, '0') : value}
          </button>
        ))}
      </div>
    </div>
  )
}

function DateSheet({ props, field }: { props: WidgetProps; field: PopupField }) {
  const { tr } = contextOf(props)
  const bounds = useBounds(props)
  const locale = pageLocale(props)
  const [choice, setChoice] = useState<DateChoice>(() => clampChoice(choiceOf(isIsoDate(props.value) ? props.value : bounds.max), bounds.min, bounds.max))
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => root.current?.querySelector<HTMLElement>('[role="listbox"] [aria-selected="true"]')?.focus({ preventScroll: false }), [])
  const pick = (part: DatePart, value: number) => setChoice((c) => clampChoice({ ...c, [part]: value }, bounds.min, bounds.max))
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const inList = event.target instanceof HTMLElement && event.target.getAttribute('role') === 'option'
    if (inList && event.key === 'Enter') {
      event.preventDefault()
      return field.close(isoOf(choice))
    }
    if (inList) moveInList(event)
  }
  return (
    <PopupFieldSheet props={props} field={field} modal="date" onKey={onKey}>
      <div ref={root} className="popup__body date-popup__parts">
        {datePartOrder(locale).map((part) => (
          <PartList key={part} part={part} choice={choice} bounds={bounds} locale={locale} labelId={`${field.titleId}-${part}`} label={tr(PART_LABELS[part])} onPick={pick} />
        ))}
      </div>
      <p className="date-popup__chosen" aria-live="polite" data-testid="date-popup-chosen">
        {formatLocalDate(isoOf(choice), locale)}
      </p>
      <div className="popup__buttons">
        <button type="button" className="button" data-variant="primary" onClick={() => field.close(isoOf(choice))}>
          {tr('form.date.confirm')}
        </button>
      </div>
    </PopupFieldSheet>
  )
}

export function DatePopupWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const field = usePopupField(props)
  const value = isIsoDate(props.value) ? props.value : null
  return (
    <>
      <PopupFieldButton props={props} field={field} value={value ?? ''} className="date-popup__trigger">
        {value ? formatLocalDate(value, pageLocale(props)) : tr('form.calendar.choose')}
      </PopupFieldButton>
      {field.open && <DateSheet props={props} field={field} />}
    </>
  )
}
