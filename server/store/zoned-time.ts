/**
 * Wall-clock times in a named zone ("00:00 Europe/Madrid") to instants, with the platform's
 * time-zone data (Intl), no library. Why: an operator schedules a promotion for midnight where the
 * punters are, and Madrid's offset is +1 or +2 depending on the date.
 */

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/** Is `zone` an IANA zone name the platform knows? */
export function knownZone(zone: string): boolean {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(zone) && zone !== 'UTC') return false
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** The zone's offset from UTC (ms) at an instant. */
function offsetAt(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant))
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return asUtc - (instant - (instant % 1000))
}

/**
 * `2026-11-27T00:00` in `Europe/Madrid` → ms since epoch; undefined for a malformed time or an
 * unknown zone. A time skipped by a clock change (02:30 on the spring-forward night) is read
 * with the offset before the change, so it lands just after the jump.
 */
export function zonedTimeToInstant(local: string, zone: string): number | undefined {
  const match = LOCAL_TIME.exec(local)
  if (!match || !knownZone(zone)) return undefined
  const [year, month, day, hour, minute] = match.slice(1).map(Number)
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  if (new Date(wall).getUTCDate() !== day) return undefined // 31 February
  const first = wall - offsetAt(wall, zone)
  const second = wall - offsetAt(first, zone)
  return second === first ? first : Math.max(first, second)
}
