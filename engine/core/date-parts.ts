/**
 * The date popup's rules (spec §2 modal kind "date"; §5 dates): a date is picked as its day, month
 * and year, shown in the locale's order (05.03.1990 in ru, 03/05/1990 in en), and always stored as
 * the ISO date the server expects (1990-03-05). A birth date's latest day is the jurisdiction
 * document's minimum age before today (the same calendar rule as the server's `ageOn`). UTC
 * calendar arithmetic only, so the punter's time zone never shifts a day. Framework-free.
 */
import { addMonths, addDays } from '../../kernel/core/calendar-month'

export type DatePart = 'day' | 'month' | 'year'

/** The server refuses a birth date more than this many years back (server/signup/rules.ts). */
export const MAX_AGE_YEARS = 120

const SHOWN: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }
const utc = (iso: string) => new Date(`${iso}T00:00:00Z`)
const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The order in which the locale writes a date's parts (en: month, day, year; ru: day, month, year). */
export function datePartOrder(locale: string): DatePart[] {
  const parts = new Intl.DateTimeFormat(locale, SHOWN).formatToParts(utc('1990-03-05'))
  return parts.map((p) => p.type).filter((t): t is DatePart => t === 'day' || t === 'month' || t === 'year')
}

/** An ISO date as the locale writes it in digits (ru 05.03.1990, en 03/05/1990). */
export const formatLocalDate = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, SHOWN).format(utc(iso))

/** The month's name in the locale, as a list item says it (ru "март", not "марта"). */
export const monthName = (month: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2001, month - 1, 1)))

/** Days in a month (1-12) of a year. */
export const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

export interface DateChoice {
  year: number
  month: number
  day: number
}

export const choiceOf = (iso: string): DateChoice => ({ year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)), day: Number(iso.slice(8, 10)) })

/** The ISO date of a choice, the day cut to the month's length (31 March → 30 April). */
export const isoOf = ({ year, month, day }: DateChoice) => `${pad(year, 4)}-${pad(month)}-${pad(Math.min(day, daysInMonth(year, month)))}`

/** The latest birth date of a punter who is `years` old today: the same day that many years back
 * (29 February → 28 February in a common year), as the server counts full years. */
export const latestBirthDate = (today: string, years: number) => addMonths(today, -12 * years)

/** The earliest birth date the server accepts (not more than MAX_AGE_YEARS full years old). */
export const earliestBirthDate = (today: string) => addDays(addMonths(today, -12 * (MAX_AGE_YEARS + 1)), 1)

/**
 * The bounds the popup offers: the field's own (schema or spec §5 defaults), narrowed for a birth
 * date to the ages the jurisdiction allows (`minimumAge` from its document).
 */
export function pickerBounds(field: { min: string; max: string }, today: string, birthDate?: { minimumAge: number }): { min: string; max: string } {
  if (!birthDate) return field
  const latest = latestBirthDate(today, birthDate.minimumAge)
  const earliest = earliestBirthDate(today)
  return { min: field.min > earliest ? field.min : earliest, max: field.max < latest ? field.max : latest }
}

/** A choice moved into [min, max] (ISO strings compare as dates). */
export function clampChoice(choice: DateChoice, min: string, max: string): DateChoice {
  const iso = isoOf(choice)
  return choiceOf(iso < min ? min : iso > max ? max : iso)
}

/** The values one part's list offers for the rest of the choice, each with whether it is in bounds. */
export function partValues(part: DatePart, choice: DateChoice, min: string, max: string): { value: number; enabled: boolean }[] {
  const [minYear, maxYear] = [Number(min.slice(0, 4)), Number(max.slice(0, 4))]
  const inBounds = (from: string, to: string) => to >= min && from <= max
  if (part === 'year') return Array.from({ length: maxYear - minYear + 1 }, (_, i) => ({ value: maxYear - i, enabled: true }))
  if (part === 'month')
    return Array.from({ length: 12 }, (_, i) => ({ value: i + 1, enabled: inBounds(isoOf({ year: choice.year, month: i + 1, day: 1 }), isoOf({ year: choice.year, month: i + 1, day: 31 })) }))
  const length = daysInMonth(choice.year, choice.month)
  return Array.from({ length }, (_, i) => {
    const iso = isoOf({ ...choice, day: i + 1 })
    return { value: i + 1, enabled: inBounds(iso, iso) }
  })
}
