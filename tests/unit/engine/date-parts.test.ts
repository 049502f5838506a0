/**
 * The date popup's rules (spec §2 date, §5 dates; issue 34 item 7). Oracles computed another way:
 * how each shipped language writes a date (a table written by hand, not read from Intl), the parse
 * of what the field shows back to the ISO date the server stores, and the server's own age count
 * (`ageOn`, server/signup/rules.ts) for the birth-date bounds.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { choiceOf, clampChoice, datePartOrder, earliestBirthDate, formatLocalDate, isoOf, latestBirthDate, MAX_AGE_YEARS, partValues, pickerBounds } from '../../../engine/core/date-parts'
import { addDays } from '../../../kernel/core/calendar-month'
import { ageOn } from '../../../server/signup/rules'

/** How each language writes 5 March 1990 in digits: the order of its parts and its separator. */
const WRITTEN: Record<string, { order: ('day' | 'month' | 'year')[]; sep: string }> = {
  en: { order: ['month', 'day', 'year'], sep: '/' },
  es: { order: ['day', 'month', 'year'], sep: '/' },
  it: { order: ['day', 'month', 'year'], sep: '/' },
  pt: { order: ['day', 'month', 'year'], sep: '/' },
  ru: { order: ['day', 'month', 'year'], sep: '.' },
  be: { order: ['day', 'month', 'year'], sep: '.' },
  da: { order: ['day', 'month', 'year'], sep: '.' },
}

/** Every locale a site declares (schemas/jurisdictions/<id>/jurisdiction.json). */
const JURISDICTIONS = resolve(import.meta.dirname, '../../../schemas/jurisdictions')
const SHIPPED = [...new Set(readdirSync(JURISDICTIONS).flatMap((id) => (JSON.parse(readFileSync(join(JURISDICTIONS, id, 'jurisdiction.json'), 'utf8')) as { locales: string[] }).locales))]

/** What the punter reads, read back as a person of that language would: the stored ISO date. */
function readBack(shown: string, locale: string): string {
  const { order, sep } = WRITTEN[locale]
  const parts = shown.split(sep).map(Number)
  const at = (part: string) => parts[order.indexOf(part as 'day')]
  return `${String(at('year')).padStart(4, '0')}-${String(at('month')).padStart(2, '0')}-${String(at('day')).padStart(2, '0')}`
}

const noon = (iso: string) => Date.parse(`${iso}T12:00:00Z`)

describe('the locale order of the date popup', () => {
  it('every locale a site declares has a hand-written order here, and the popup shows its parts in that order', () => {
    for (const locale of SHIPPED) {
      expect(WRITTEN[locale], `no written order for ${locale}`).toBeDefined()
      expect(datePartOrder(locale), locale).toEqual(WRITTEN[locale].order)
    }
  })

  it('the date the punter reads in each locale is the ISO date stored: 05.03.1990 in ru is 1990-03-05, 03/05/1990 in en', () => {
    expect(formatLocalDate('1990-03-05', 'ru')).toBe('05.03.1990')
    expect(formatLocalDate('1990-03-05', 'en')).toBe('03/05/1990')
    for (const locale of SHIPPED)
      for (let day = Date.UTC(1950, 0, 1); day <= Date.UTC(2012, 0, 1); day += 37 * 86_400_000) {
        const iso = new Date(day).toISOString().slice(0, 10)
        expect(readBack(formatLocalDate(iso, locale), locale), `${iso} in ${locale}`).toBe(iso)
      }
  })

  it('a choice of day, month and year is stored as that ISO date; a day past the month end is cut to it', () => {
    expect(isoOf({ year: 1990, month: 3, day: 5 })).toBe('1990-03-05')
    expect(isoOf({ year: 1990, month: 4, day: 31 })).toBe('1990-04-30')
    expect(isoOf({ year: 2000, month: 2, day: 31 })).toBe('2000-02-29')
    expect(isoOf({ year: 1900, month: 2, day: 29 })).toBe('1900-02-28')
    expect(choiceOf('1990-03-05')).toEqual({ year: 1990, month: 3, day: 5 })
  })
})

describe('the birth-date bounds of the date popup', () => {
  const todays = ['2026-11-29', '2024-02-29', '2025-02-28', '2025-03-01', '2026-01-01', '2026-12-31']
  for (const minimumAge of [18, 21])
    it(`the latest day offered is the last birth date the server counts as ${minimumAge} (ageOn), the day after is under age`, () => {
      for (const today of todays) {
        const latest = latestBirthDate(today, minimumAge)
        expect(ageOn(latest, noon(today)), `${today}: ${latest}`).toBeGreaterThanOrEqual(minimumAge)
        expect(ageOn(addDays(latest, 1), noon(today)), `${today}: the day after ${latest}`).toBe(minimumAge - 1)
      }
    })

  it(`the earliest day offered is the first birth date the server accepts (at most ${MAX_AGE_YEARS} full years)`, () => {
    for (const today of todays) {
      const earliest = earliestBirthDate(today)
      expect(ageOn(earliest, noon(today))).toBe(MAX_AGE_YEARS)
      expect(ageOn(addDays(earliest, -1), noon(today))).toBe(MAX_AGE_YEARS + 1)
    }
  })

  it('the field bounds narrow to the ages allowed, and a schema bound inside them is kept', () => {
    expect(pickerBounds({ min: '1900-01-01', max: '2026-11-29' }, '2026-11-29', { minimumAge: 21 })).toEqual({ min: '1905-11-30', max: '2005-11-29' })
    expect(pickerBounds({ min: '1950-01-01', max: '2000-01-01' }, '2026-11-29', { minimumAge: 18 })).toEqual({ min: '1950-01-01', max: '2000-01-01' })
    expect(pickerBounds({ min: '1997-01-01', max: '2026-11-29' }, '2026-11-29')).toEqual({ min: '1997-01-01', max: '2026-11-29' })
  })

  it('the lists offer every year of the bounds, newest first, and only the months and days inside them', () => {
    const [min, max] = ['1990-03-05', '2008-11-29']
    expect(partValues('year', choiceOf(max), min, max).map((y) => y.value)).toEqual(Array.from({ length: 19 }, (_, i) => 2008 - i))
    const months = partValues('month', { year: 2008, month: 11, day: 29 }, min, max)
    expect(months.filter((m) => m.enabled).map((m) => m.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    const days = partValues('day', { year: 2008, month: 11, day: 1 }, min, max)
    expect(days).toHaveLength(30)
    expect(days.filter((d) => d.enabled).map((d) => d.value)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1))
    expect(partValues('day', { year: 1990, month: 3, day: 9 }, min, max).filter((d) => !d.enabled).map((d) => d.value)).toEqual([1, 2, 3, 4])
    expect(clampChoice({ year: 2008, month: 12, day: 31 }, min, max)).toEqual({ year: 2008, month: 11, day: 29 })
  })
})
