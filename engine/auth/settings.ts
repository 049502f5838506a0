/**
 * Account settings split (spec §3): server-side keys are saved with PUT /punter/settings and come
 * back in the heartbeat; local-only keys live in the browser (the settings store persists them).
 */
import type { Result } from '../core/contracts'
import type { Gateway } from '../core/gateway'
import type { EngineStores, LocalSettings, ServerSettings, UserData } from '../core/stores'

export const SERVER_SETTING_KEYS = [
  'noEmailCorrespondence',
  'termsAgreement',
  'locale',
  'oddsType',
  'betPlacingMode',
  'priceChangeNotificationViewType',
  'standbyTimeoutMillis',
  'timeZoneId',
  'showCurrentBalance',
  'currencyId',
  'showVipStatusAppIcon',
  'showVipStatusAvatar',
] as const satisfies readonly (keyof ServerSettings)[]

export const LOCAL_SETTING_KEYS = [
  'winningAndLosingBets',
  'timeZoneAutoDetect',
  'isAnimationsActive',
  'cashOutAutoConfirmationType',
  'isCashOutDelayActive',
  'isQuickBetEnable',
  'quickBetAmount',
  'isCashOutConfirmationActive',
  'autoDetectedTimezone',
  'autoDetectedCurrency',
  'wasUserChangedSettingsManually',
] as const satisfies readonly (keyof LocalSettings)[]

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

/** Saves settings: local keys at once, server keys by PUT /punter/settings (only when logged in). */
export async function saveSettings(stores: EngineStores, gateway: Gateway, values: Record<string, unknown>): Promise<Result<SplitSettings>> {
  const split = splitSettings(values)
  if (split.unknown.length > 0) return { ok: false, code: 'ValidationError', details: { field: split.unknown[0], code: 'unknownField' } }
  if (Object.keys(split.local).length > 0) stores.settings.getState().setLocalSettings({ ...split.local, wasUserChangedSettingsManually: true })
  if (Object.keys(split.server).length > 0) {
    if (stores.session.getState().accessToken) {
      const saved = await gateway.call<Record<string, unknown>>('PUT', '/mobile-gate/api/v1/punter/settings', split.server)
      if (!saved.ok) return saved
    }
    stores.settings.getState().setServerSettings(split.server)
  }
  return { ok: true, value: split }
}
