/**
 * Settings actions (spec §3 "Account settings keys"): detecting the device's time zone (Intl) and
 * the visitor's currency, and following the detected zone on the server while the punter keeps
 * time-zone auto-detection on. Saving a setting is account.saveSettings (./auth).
 */
import { detectTimeZone, saveSettings, timeZoneIdFor, type TimeZoneEntry } from '../auth/settings'
import { MOBILE_GATE } from '../auth/session'
import type { Result } from '../../kernel/core/contracts'
import { defineAction, type ActionEnvironment } from './registry'
import { definitions } from '../../kernel/actions/settings'

/** Sets autoDetectedTimezone and autoDetectedCurrency; saves the zone's id when auto-detect is on. */
async function detect(env: ActionEnvironment): Promise<Result<{ timeZone: string | null; timeZoneId?: number }>> {
  const settings = env.stores.settings.getState()
  const timeZone = detectTimeZone()
  const location = await env.gateway.call<{ currencyCode?: string }>('GET', `${MOBILE_GATE}/dictionary/user-location`)
  const currency = location.ok && typeof location.value?.currencyCode === 'string' ? location.value.currencyCode : settings.local.autoDetectedCurrency
  settings.setLocalSettings({ autoDetectedTimezone: timeZone, autoDetectedCurrency: currency })
  if (!timeZone || !settings.local.timeZoneAutoDetect || !env.stores.session.getState().accessToken) return { ok: true, value: { timeZone } }
  const zones = await env.gateway.call<TimeZoneEntry[]>('GET', `${MOBILE_GATE}/dictionary/time-zones`)
  if (!zones.ok) return zones
  const timeZoneId = timeZoneIdFor(zones.value, timeZone, env.now())
  if (timeZoneId === undefined || timeZoneId === env.stores.settings.getState().server.timeZoneId) return { ok: true, value: { timeZone, timeZoneId } }
  const saved = await saveSettings(env.stores, env.gateway, { timeZoneId })
  return saved.ok ? { ok: true, value: { timeZone, timeZoneId } } : saved
}

export const settingsDetect = defineAction(definitions, {
  name: 'settings.detect',
  handler: (_params, env) => detect(env),
})

export const settingsActions = [settingsDetect]

