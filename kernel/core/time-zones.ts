/**
 * Time-zone arithmetic shared by the browser (settings) and the server (the time-zone dictionary):
 * framework-free so the server never loads the client's stores to compute an offset.
 */

/** Minutes east of UTC of an IANA zone at `at`; 0 for a zone the platform does not know. */
export function zoneOffsetMinutes(zone: string, at: number): number {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(at))
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(parts.find((p) => p.type === 'timeZoneName')?.value ?? '')
    if (!match) return 0
    const minutes = Number(match[2]) * 60 + Number(match[3])
    return match[1] === '-' ? -minutes : minutes
  } catch {
    return 0
  }
}
