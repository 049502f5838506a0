/**
 * The date rules of spec §5, shared by the browser (date widget + form validation) and the server
 * (`server/validators`): storage format YYYY-MM-DD; minimum 2000-01-01 and maximum today unless
 * the schema says otherwise (`formatMinimum` / `formatMaximum`, which ajv enforces itself).
 * "Today" is not a static value, so it cannot live in a precompiled schema: both sides apply it
 * here. Framework-free on purpose (the server imports it).
 */

export const DATE_MIN_DEFAULT = '2000-01-01'
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** YYYY-MM-DD of a moment, in the local time zone or shifted by `offsetMinutes` from UTC. */
export function isoDate(ms: number, offsetMinutes?: number): string {
  const d = new Date(offsetMinutes === undefined ? ms : ms + offsetMinutes * 60_000)
  const [y, m, day] =
    offsetMinutes === undefined ? [d.getFullYear(), d.getMonth() + 1, d.getDate()] : [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** A real calendar date in storage format (day 1-31, month 1-12, year 1900-9999, must exist). */
export function isValidIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value)
  if (!match) return false
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (y < 1900 || m < 1 || m > 12 || d < 1 || d > 31) return false
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

export interface DateBounds {
  min: string
  max: string
  /** True when the bound is a default this module enforces (not one ajv enforces from the schema). */
  defaultMin: boolean
  defaultMax: boolean
}

/** The bounds of a `format: date` string schema; `today` is YYYY-MM-DD. */
export function dateBounds(schema: Record<string, unknown>, today: string): DateBounds {
  const min = typeof schema.formatMinimum === 'string' ? schema.formatMinimum : undefined
  const max = typeof schema.formatMaximum === 'string' ? schema.formatMaximum : undefined
  return { min: min ?? DATE_MIN_DEFAULT, max: max ?? today, defaultMin: min === undefined, defaultMax: max === undefined }
}

export interface DateRuleError {
  field: string
  code: 'formatMinimum' | 'formatMaximum'
  /** The bound (YYYY-MM-DD): the error's text shows it. */
  limit: string
}

/**
 * Applies the default date bounds to the top-level `format: date` properties of a step schema.
 * Values that are not valid dates are left to the schema's own `format` check.
 */
export function checkDefaultDateBounds(schema: Record<string, unknown>, data: unknown, today: string): DateRuleError[] {
  const properties = schema.properties
  if (!properties || typeof properties !== 'object' || !data || typeof data !== 'object') return []
  const errors: DateRuleError[] = []
  for (const [field, sub] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    if (!sub || sub.format !== 'date') continue
    const value = (data as Record<string, unknown>)[field]
    if (typeof value !== 'string' || !isValidIsoDate(value)) continue
    const bounds = dateBounds(sub, today)
    if (bounds.defaultMin && value < bounds.min) errors.push({ field, code: 'formatMinimum', limit: bounds.min })
    if (bounds.defaultMax && value > bounds.max) errors.push({ field, code: 'formatMaximum', limit: bounds.max })
  }
  return errors
}
