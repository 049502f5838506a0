/**
 * The calendar popup's days (spec §2 calendar, §5 bounds). The oracle is the platform's own date
 * arithmetic over a whole range: every month's grid holds each of its days exactly once, in order,
 * on its weekday (Monday first), and the moves agree with Date.UTC.
 */
import { describe, expect, it } from 'vitest'
import { addDays, addMonths, clampDate, isIsoDate, monthWeeks } from '../../../kernel/core/calendar-month'

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10)

describe('monthWeeks', () => {
  it('every month from 1999 to 2031 holds its days once, in order, each under its weekday', () => {
    for (let y = 1999; y <= 2031; y++)
      for (let m = 0; m < 12; m++) {
        const weeks = monthWeeks(iso(y, m, 15))
        const length = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
        expect(weeks.flat().filter(Boolean)).toEqual(Array.from({ length }, (_, i) => iso(y, m, i + 1)))
        weeks.forEach((week) => {
          expect(week).toHaveLength(7)
          week.forEach((day, column) => {
            if (day) expect((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7).toBe(column)
          })
        })
      }
  })
})

describe('moves', () => {
  it("days cross months and years; months keep the day or take the month's last", () => {
    expect(addDays('2010-06-01', -1)).toBe('2010-05-31')
    expect(addDays('2010-12-31', 1)).toBe('2011-01-01')
    expect(addMonths('2010-03-31', -1)).toBe('2010-02-28')
    expect(addMonths('2012-03-31', -1)).toBe('2012-02-29')
    expect(addMonths('2010-06-15', -12)).toBe('2009-06-15')
    expect(addMonths('2010-11-30', 2)).toBe('2011-01-30')
  })

  it('clamps into the bounds; only real dates are dates', () => {
    expect(clampDate('1999-12-31', '2000-01-01', '2026-11-29')).toBe('2000-01-01')
    expect(clampDate('2030-01-01', '2000-01-01', '2026-11-29')).toBe('2026-11-29')
    expect(isIsoDate('2025-02-28')).toBe(true)
    expect(isIsoDate('2025-02-30')).toBe(false)
    expect(isIsoDate('2025-2-3')).toBe(false)
  })
})
