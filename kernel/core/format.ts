/**
 * Money, numbers and dates (spec §5).
 *
 * Money: rounded to 2 decimals; anything non-numeric counts as 0; amounts of 10000 or more use the
 * locale's grouping, smaller ones none. Decision: the threshold applies to the ROUNDED amount (what
 * the punter reads), so 9999.999 shows as 10 000,00 (ru) / 10,000.00 (en).
 */
/** Display and storage date formats (spec §5). */
export const DATE_DISPLAY_FORMAT = 'D MMM YYYY HH:mm'
export const DATE_STORAGE_FORMAT = 'YYYY-MM-DD'
export const GROUPING_THRESHOLD = 10_000

/** A number from anything: numeric strings count, everything else (NaN, Infinity, null…) is 0. */
export function toAmount(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.replace(',', '.')) : NaN
  return Number.isFinite(n) ? n : 0
}

/** Rounds half away from zero to 2 decimals, robust to binary fractions (1.005 → 1.01). */
export function roundMoney(value: unknown): number {
  const n = toAmount(value)
  const rounded = Math.round(Math.abs(n) * 100 + 1e-7) / 100
  return n < 0 && rounded !== 0 ? -rounded : rounded
}

/** How a currency's amounts are written (Intl's currencyDisplay), per ISO code: the jurisdiction document's `currencyDisplay`. */
export type CurrencyDisplay = 'symbol' | 'narrowSymbol' | 'code'
export type CurrencyDisplays = Readonly<Record<string, CurrencyDisplay>>

const formatters = new Map<string, Intl.NumberFormat>()
function formatter(locale: string, currency: string | undefined, grouping: boolean, display: CurrencyDisplay): Intl.NumberFormat {
  const key = `${locale}|${currency ?? ''}|${grouping}|${display}`
  let f = formatters.get(key)
  if (!f) {
    const options: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: grouping }
    if (currency) Object.assign(options, { style: 'currency', currency, currencyDisplay: display })
    try {
      f = new Intl.NumberFormat(locale, options)
    } catch {
      // an unknown locale or currency code: fall back rather than break the page
      f = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: grouping })
    }
    formatters.set(key, f)
  }
  return f
}

/** A value that is an ISO 4217 code ('EUR'), else undefined: what formatMoney takes as currency. */
export const currencyCode = (value: unknown): string | undefined => (typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? value : undefined)

/**
 * Formats a money amount for a locale, with the currency sign when `currency` is given, written as
 * the site's `displays` say for that currency (default 'symbol': the locale's own, e.g. "NGN" in
 * English; Nigeria's document says 'narrowSymbol': "₦").
 */
export function formatMoney(amount: unknown, locale: string, currency?: string, displays?: CurrencyDisplays): string {
  const value = roundMoney(amount)
  const display = (currency && displays?.[currency]) || 'symbol'
  return formatter(locale, currency || undefined, Math.abs(value) >= GROUPING_THRESHOLD, display).format(value)
}

const percentFormatters = new Map<string, Intl.NumberFormat>()
/** A percentage given in percent (96.5) as the locale writes it with 2 decimals: 96.50% (en), 96,50 % (es); '' for a non-number. */
export function formatPercent(percent: unknown, locale: string): string {
  if (typeof percent !== 'number' || !Number.isFinite(percent)) return ''
  let f = percentFormatters.get(locale)
  if (!f) {
    const options: Intl.NumberFormatOptions = { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }
    try {
      f = new Intl.NumberFormat(locale, options)
    } catch {
      f = new Intl.NumberFormat('en', options)
    }
    percentFormatters.set(locale, f)
  }
  return f.format(percent / 100)
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>()
function dateFormatter(locale: string, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone ?? ''}`
  let f = dateFormatters.get(key)
  if (!f) {
    const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }
    try {
      f = new Intl.DateTimeFormat(locale, options)
    } catch {
      // an unknown locale or time zone: English in the punter's own zone rather than a broken page
      f = new Intl.DateTimeFormat('en', { ...options, timeZone: undefined })
    }
    dateFormatters.set(key, f)
  }
  return f
}

/**
 * A date for display in spec §5's order 'D MMM YYYY HH:mm', with the locale's month abbreviation
 * (Intl: no locale data in the bundle), in the punter's time zone unless one is given. Accepts ISO
 * strings, epoch milliseconds and Dates; anything else gives ''.
 */
export function formatDateTime(value: unknown, locale = 'en', timeZone?: string): string {
  const date = toDate(value)
  if (!date) return ''
  const parts: Record<string, string> = {}
  for (const part of dateFormatter(locale, timeZone).formatToParts(date)) parts[part.type] = part.value
  return `${parts.day} ${parts.month} ${parts.year} ${parts.hour}:${parts.minute}`
}

/**
 * An ISO-like date without a zone ('2024-03-05', '2024-03-05T07:08', '2024/03/05 07:08:09.5') is a
 * LOCAL date and time — the pattern dayjs used here before, kept exactly; anything else (a zone or
 * 'Z', other formats) goes to ECMAScript's own Date parsing, as dayjs also did. (dayjs was on every
 * first load for this alone: 2.9 KB brotli; issue 10.)
 */
const LOCAL_DATE = /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/

function parseDate(text: string): Date {
  const local = /z$/i.test(text) ? null : LOCAL_DATE.exec(text)
  if (!local) return new Date(text)
  const [, year, month, day, hour, minute, second, fraction] = local
  return new Date(Number(year), Number(month ?? 1) - 1 || 0, Number(day || 1), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), Number((fraction ?? '0').slice(0, 3)))
}

function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : undefined
  if (typeof value !== 'string' || value.trim() === '') return undefined
  if (/^\d{10,}$/.test(value.trim())) return new Date(Number(value))
  const date = parseDate(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** A date as stored and sent ('YYYY-MM-DD', the local date); invalid input gives ''. */
export function toStorageDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return ''
  const date = toDate(value)
  return date ? `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` : ''
}
