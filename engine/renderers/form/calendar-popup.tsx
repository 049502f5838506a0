/**
 * The calendar popup (spec §2 modal kind "calendar"; `ui:widget: "calendarPopup"`): the field is a
 * button showing the chosen date; it opens a bottom-sheet dialog (./popup-field.tsx: named by the
 * field's label, focus trapped; Escape, × or the overlay close it) with a month grid bounded by
 * the field's limits (spec §5: from 2000-01-01 to today unless the schema says otherwise): arrows move a day or a week, Page Up/Down a month
 * (with Shift a year), Home/End the week's ends, Enter or a tap choose. Month and day names come from the page's locale
 * (Intl), button names from the translations. Classes only: it runs under the production CSP.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { WidgetProps } from '@rjsf/utils'
import { addDays, addMonths, clampDate, isIsoDate, monthWeeks } from '../../../kernel/core/calendar-month'
import { dateBounds } from '../../../kernel/core/date-rules'
import { PopupFieldButton, PopupFieldSheet, usePopupField, type PopupField } from './popup-field'
import { contextOf } from './widget-kit'

const pageLocale = () => (typeof document !== 'undefined' && document.documentElement.lang) || 'en'
const KEY_MOVES: Record<string, (iso: string) => string> = {
  ArrowLeft: (d) => addDays(d, -1),
  ArrowRight: (d) => addDays(d, 1),
  ArrowUp: (d) => addDays(d, -7),
  ArrowDown: (d) => addDays(d, 7),
  PageUp: (d) => addMonths(d, -1),
  PageDown: (d) => addMonths(d, 1),
  Home: (d) => addDays(d, -((new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7)),
  End: (d) => addDays(d, 6 - ((new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7)),
}

function CalendarSheet({ props, field }: { props: WidgetProps; field: PopupField }) {
  const { tr, today } = contextOf(props)
  const { min, max } = dateBounds(props.schema as Record<string, unknown>, today)
  const grid = useRef<HTMLTableElement>(null)
  const [focused, setFocused] = useState(() => clampDate(isIsoDate(props.value) ? props.value : today, min, max))
  const monthId = `${field.titleId}-month`
  const locale = pageLocale()
  useEffect(() => grid.current?.querySelector<HTMLButtonElement>(`[data-date="${focused}"]`)?.focus({ preventScroll: true }), [focused])
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    // Shift with Page Up/Down moves a year (the WAI-ARIA date picker's keys)
    const move = event.shiftKey && (event.key === 'PageUp' || event.key === 'PageDown') ? (d: string) => addMonths(d, event.key === 'PageUp' ? -12 : 12) : KEY_MOVES[event.key]
    if (!move || !(event.target instanceof HTMLElement) || !event.target.dataset.date) return
    event.preventDefault()
    setFocused(clampDate(move(focused), min, max))
  }
  const month = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${focused}T00:00:00Z`))
  const dayName = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' })
  const weekdays = Array.from({ length: 7 }, (_, i) => weekday.format(new Date(Date.UTC(2024, 0, 1 + i)))) // 2024-01-01 is a Monday
  const turn = (months: number) => setFocused(clampDate(addMonths(focused, months), min, max))
  return (
    <PopupFieldSheet props={props} field={field} modal="calendar" onKey={onKey}>
      <div className="calendar-popup__month">
        <button type="button" className="icon-button" aria-label={tr('form.calendar.previousMonth')} disabled={addMonths(focused, -1).slice(0, 7) < min.slice(0, 7)} onClick={() => turn(-1)}>
          ‹
        </button>
        <p id={monthId} className="calendar-popup__label" aria-live="polite">
          {month}
        </p>
        <button type="button" className="icon-button" aria-label={tr('form.calendar.nextMonth')} disabled={addMonths(focused, 1).slice(0, 7) > max.slice(0, 7)} onClick={() => turn(1)}>
          ›
        </button>
      </div>
      <table ref={grid} className="calendar-popup__grid" role="grid" aria-labelledby={monthId}>
        <thead>
          <tr>
            {weekdays.map((name) => (
              <th key={name} scope="col" abbr={name}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(focused).map((week, w) => (
            <tr key={w}>
              {week.map((day, d) => (
                <td key={day ?? `empty-${d}`} role="gridcell" aria-selected={day !== null && day === props.value ? true : undefined}>
                  {day && (
                    <button type="button" className="calendar-popup__day" data-date={day} tabIndex={day === focused ? 0 : -1} aria-label={dayName.format(new Date(`${day}T00:00:00Z`))} aria-current={day === today ? 'date' : undefined} disabled={day < min || day > max} onClick={() => field.close(day)}>
                      {Number(day.slice(8))}
                    </button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </PopupFieldSheet>
  )
}

export function CalendarPopupWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const field = usePopupField(props)
  const value = isIsoDate(props.value) ? props.value : null
  return (
    <>
      <PopupFieldButton props={props} field={field} value={value ?? ''} className="calendar-popup__trigger">
        {value ?? tr('form.calendar.choose')}
      </PopupFieldButton>
      {field.open && <CalendarSheet props={props} field={field} />}
    </>
  )
}
