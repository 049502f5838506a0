/**
 * Account settings split (spec §3): server-side keys are saved with PUT /punter/settings and come
 * back in the heartbeat; local-only keys live in the browser (the settings store persists them).
 * A change made in one tab shows in the others (storage events: the local settings' own key, and
 * a settings-event key for the server-side ones), and the time zone is detected through Intl.
 */
import type { Result } from '../../kernel/core/contracts'
import { zoneOffsetMinutes } from '../../kernel/core/time-zones'
import type { Gateway } from '../core/gateway'
import { LOCAL_SETTING_KEYS as LOCAL_KEYS, SERVER_SETTING_KEYS as SERVER_KEYS } from '../../kernel/documents/names'
import { STORAGE_KEYS, type EngineStores, type LocalSettings, type ServerSettings, type StorageLike, type UserData } from '../core/stores'

/** The lists are written once, in the document kinds (a `setting` node names one of them). */
export const SERVER_SETTING_KEYS = SERVER_KEYS satisfies readonly (keyof ServerSettings)[]

export const LOCAL_SETTING_KEYS = LOCAL_KEYS satisfies readonly (keyof LocalSettings)[]

export interface SplitSettings {
  server: Partial<ServerSettings>
  local: Partial<LocalSettings>
  /** Keys that are neither: refused, never sent. */
  unknown: string[]
}

export function splitSettings(values: Record<string, unknown>): SplitSettings {
  const out: SplitSettings = { server: {}, local: {}, unknown: [] }
  for (const [key, value] of Object.entries(values)) {
    if ((SERVER_SETTING_KEYS as readonly string[]).includes(key)) (out.server as Record<string, unknown>)[key] = value
    else if ((LOCAL_SETTING_KEYS as readonly string[]).includes(key)) (out.local as Record<string, unknown>)[key] = value
    else out.unknown.push(key)
  }
  return out
}

/** The server-side settings inside heartbeat user data. */
export function serverSettingsFrom(user: UserData): Partial<ServerSettings> {
  const settings = (user.settings ?? {}) as Record<string, unknown>
  return splitSettings(Object.fromEntries(Object.entries(settings).filter(([k]) => (SERVER_SETTING_KEYS as readonly string[]).includes(k)))).server
}

export type SettingKey = keyof ServerSettings | keyof LocalSettings

export const isServerSettingKey = (key: string): key is keyof ServerSettings => (SERVER_SETTING_KEYS as readonly string[]).includes(key)

/** The current value of one setting, server-side or local. */
export function readSetting(stores: EngineStores, key: SettingKey): unknown {
  const { server, local } = stores.settings.getState()
  return isServerSettingKey(key) ? server[key] : local[key as keyof LocalSettings]
}

/** Storage key whose changes carry saved server-side settings to the other tabs. */
export const SETTINGS_EVENT_KEY = 'settingsEvent'
const announcers = new WeakMap<EngineStores, (server: Partial<ServerSettings>) => void>()

/**
 * Keeps this tab's settings in line with the other tabs of the browser: local settings follow
 * their stored key, server-side ones follow what another tab saved. Returns stop.
 */
export interface StorageEventTarget {
  addEventListener(type: 'storage', listener: (event: StorageEvent) => void): void
  removeEventListener(type: 'storage', listener: (event: StorageEvent) => void): void
}

export function followSettingsAcrossTabs(stores: EngineStores, storage: StorageLike, target: StorageEventTarget = window): () => void {
  let sequence = 0
  announcers.set(stores, (server) => {
    try {
      storage.setItem(SETTINGS_EVENT_KEY, JSON.stringify({ server, n: `${Date.now()}-${++sequence}-${Math.random()}` }))
    } catch {
      // storage refused (private mode, quota): the other tabs see it at their next heartbeat
    }
  })
  const onStorage = (event: StorageEvent) => {
    if (!event.newValue) return
    if (event.key === STORAGE_KEYS.localSettings) {
      const local = splitSettings(parseObject(event.newValue)).local
      if (Object.keys(local).length > 0) stores.settings.getState().setLocalSettings(local)
    } else if (event.key === SETTINGS_EVENT_KEY) {
      const server = splitSettings(parseObject(parseObject(event.newValue).server)).server
      if (Object.keys(server).length > 0 && stores.session.getState().accessToken) stores.settings.getState().setServerSettings(server)
    }
  }
  target.addEventListener('storage', onStorage)
  return () => {
    target.removeEventListener('storage', onStorage)
    announcers.delete(stores)
  }
}

function parseObject(value: unknown): Record<string, unknown> {
  try {
    const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** The time zone of this device (IANA name), or null when the platform does not say. */
export function detectTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null
  } catch {
    return null
  }
}

export { zoneOffsetMinutes }

export interface TimeZoneEntry {
  id: number
  name: string
  offset: number
}

/** The dictionary id of a detected zone: the same zone, else the first with the same offset now. */
export function timeZoneIdFor(zones: readonly TimeZoneEntry[], zone: string, at: number): number | undefined {
  const same = zones.find((z) => z.name === zone)
  if (same) return same.id
  const offset = zoneOffsetMinutes(zone, at)
  return zones.find((z) => z.offset === offset)?.id
}

/** Saves settings: local keys at once, server keys by PUT /punter/settings (only when logged in). */
export async function saveSettings(stores: EngineStores, gateway: Gateway, values: Record<string, unknown>): Promise<Result<SplitSettings>> {
  const split = splitSettings(values)
  if (split.unknown.length > 0) return { ok: false, code: 'ValidationError', details: { field: split.unknown[0], code: 'unknownField' } }
  if (Object.keys(split.local).length > 0) stores.settings.getState().setLocalSettings({ ...split.local, wasUserChangedSettingsManually: true })
  if (Object.keys(split.server).length > 0) {
    if (stores.session.getState().accessToken) {
      const saved = await gateway.call<Record<string, unknown>>('PUT', '/mobile-gate/api/v1/punter/settings', split.server)
      if (!saved.ok) return saved
      announcers.get(stores)?.(split.server)
    }
    stores.settings.getState().setServerSettings(split.server)
  }
  return { ok: true, value: split }
}
