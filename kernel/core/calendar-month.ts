/**
 * The days a calendar popup shows (spec §2 modal kind "calendar", §5 date bounds): ISO dates
 * (YYYY-MM-DD) only, computed in UTC so the punter's time zone never shifts a day. Weeks start on
 * Monday; a month is padded with nulls to whole weeks.
 */
const DAY_MS = 86_400_000

const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`)
const toIso = (date: Date) => date.toISOString().slice(0, 10)

/** `iso` moved by days (±), or by months keeping the day where the month has it (31 → 30). */
export function addDays(iso: string, days: number): string {
  return toIso(new Date(toDate(iso).getTime() + days * DAY_MS))
}
export function addMonths(iso: string, months: number): string {
  const date = toDate(iso)
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1))
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
  return toIso(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(date.getUTCDate(), last))))
}

/** Clamped into [min, max] (ISO strings compare as dates). */
export const clampDate = (iso: string, min: string, max: string) => (iso < min ? min : iso > max ? max : iso)

/** The weeks of `iso`'s month, Monday first, each day an ISO date or null (outside the month). */
export function monthWeeks(iso: string): (string | null)[][] {
  const date = toDate(iso)
  const year = date.getUTCFullYear()
  const month = date.getUTCMonth()
  const length = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const lead = (new Date(Date.UTC(year, month, 1)).getUTCDay() + 6) % 7
  const cells: (string | null)[] = [...Array<null>(lead).fill(null), ...Array.from({ length }, (_, i) => toIso(new Date(Date.UTC(year, month, i + 1))))]
  while (cells.length % 7 !== 0) cells.push(null)
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7))
}

/** Is `value` a real date (2025-02-30 is not)? */
export const isIsoDate = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && toIso(toDate(value)) === value
