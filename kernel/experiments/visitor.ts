import { IDENTIFIER_EXPIRY_MS, PRIVATE_ID_LENGTH, USER_AGENT_MAX_LENGTH, GEO_NONE } from './constants'
import type { DeviceCategory, VisitorData } from './types'
import type { VisitorAttributes } from './conditions'

/** Identifiers that expire a day after they were set (spec §4). The private id never expires. */
export const EXPIRING_IDENTIFIERS = ['userId', 'profileId', 'deviceId', 'email'] as const
export type ExpiringIdentifier = (typeof EXPIRING_IDENTIFIERS)[number]
export type ExpirationMap = Partial<Record<ExpiringIdentifier, number>>

/** An identifier set at `setAt` still counts at `now` iff now - setAt < IDENTIFIER_EXPIRY_MS (half-open). */
export function identifierCounts(setAt: number | undefined, now: number): boolean {
  return setAt !== undefined && now - setAt < IDENTIFIER_EXPIRY_MS
}

/** Ids are trimmed strings (spec §5); empty after trimming means absent. */
export function normaliseId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  const text = String(value).trim()
  return text === '' ? undefined : text
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** The private id: 80 random alphanumeric characters from the injected random source. */
export function createPrivateId(random: () => number): string {
  let id = ''
  for (let i = 0; i < PRIVATE_ID_LENGTH; i++) {
    id += ALPHANUMERIC[Math.floor(random() * ALPHANUMERIC.length) % ALPHANUMERIC.length]
  }
  return id
}

export function truncateUserAgent(userAgent: string): string {
  return userAgent.slice(0, USER_AGENT_MAX_LENGTH)
}

/** Browser, OS and device category from a user agent: coarse on purpose, enough for targeting. */
export function describeUserAgent(userAgent: string): {
  browser?: string
  os?: { name?: string; version?: string }
  deviceCategory: DeviceCategory
} {
  const ua = truncateUserAgent(userAgent)
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /SamsungBrowser/.test(ua)
        ? 'Samsung Internet'
        : /Firefox\//.test(ua)
          ? 'Firefox'
          : /Chrome\/|CriOS\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : undefined
  let os: { name?: string; version?: string } | undefined
  const ios = /(?:iPhone|iPad|iPod).*? OS (\d+[_.\d]*)/.exec(ua)
  const android = /Android (\d+(?:\.\d+)*)/.exec(ua)
  const windows = /Windows NT (\d+(?:\.\d+)*)/.exec(ua)
  const mac = /Mac OS X (\d+[_.\d]*)/.exec(ua)
  if (ios) os = { name: 'iOS', version: ios[1].replace(/_/g, '.') }
  else if (android) os = { name: 'Android', version: android[1] }
  else if (windows) os = { name: 'Windows', version: windows[1] }
  else if (mac) os = { name: 'macOS', version: mac[1].replace(/_/g, '.') }
  else if (/Linux/.test(ua)) os = { name: 'Linux' }
  const deviceCategory: DeviceCategory = /iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))
    ? 'tablet'
    : /Mobi|iPhone|iPod|Android/.test(ua)
      ? 'mobile'
      : 'desktop'
  return { browser, os, deviceCategory }
}

/**
 * Flattens visitor data into the attribute map conditions read. Expired identifiers are left out.
 * `time` is the hour (0-23) and `date` the day of the month (1-31), both in the host's local time
 * zone, taken from the injected clock.
 */
export function visitorAttributes(
  visitor: VisitorData,
  expiration: ExpirationMap,
  now: number,
  privateId: string,
): VisitorAttributes {
  const attributes: VisitorAttributes = { privateId }
  for (const key of EXPIRING_IDENTIFIERS) {
    const id = normaliseId(visitor[key])
    if (id !== undefined && identifierCounts(expiration[key], now)) attributes[key] = id
  }
  const plain = ['ip', 'appVersion', 'browser', 'deviceCategory', 'domain', 'url', 'query', 'pathname'] as const
  for (const key of plain) {
    const value = visitor[key]
    if (value !== undefined) attributes[key] = String(value)
  }
  if (visitor.geo === GEO_NONE) attributes['geo'] = GEO_NONE
  else if (visitor.geo) {
    for (const [key, value] of Object.entries(visitor.geo)) if (value !== undefined) attributes[`geo.${key}`] = String(value)
  }
  if (visitor.os?.name !== undefined) attributes['os.name'] = visitor.os.name
  if (visitor.os?.version !== undefined) attributes['os.version'] = visitor.os.version
  for (const [key, value] of Object.entries(visitor.custom ?? {})) attributes[`custom.${key}`] = String(value)
  const date = new Date(now)
  attributes['time'] = String(date.getHours())
  attributes['date'] = String(date.getDate())
  return attributes
}
