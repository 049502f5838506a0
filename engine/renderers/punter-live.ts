/**
 * The punter socket's remaining events on an open page (spec §3 "Socket events"; issue 14 item 1):
 * - settingsUpdate: settings saved on another browser or device apply here at once (prices
 *   re-render in the new odds format, the price-change indicator, the bet placing mode). The
 *   language is not switched under the punter's eyes: it follows the address (next load).
 * - regulationAlert: an alert raised on the server opens the regulation-alert popup now, the same
 *   popup the minute's ask (engine/regulation/monitor.ts) opens.
 * - coRequest: a cash-out request's progress — PENDING marks the bet's cash-out as waiting (the
 *   button gives way to "Cash-out pending"), ACCEPTED shows the bet cashed out at its amount (the
 *   balance follows accountUpdate, the lists betCountUpdate), whichever tab or device asked.
 * - mirror: the site's working mirror changed (its domain blocked somewhere); the name is kept
 *   under the stored key "mirror name" and the punter is told the address that works.
 * Handlers are built from a small environment (storage, this page's host) so tests pass fakes.
 */
import { NOTIFICATION_DURATION_MS, type ServerSettings, type StorageLike } from '../core/stores'
import { splitSettings } from '../auth/settings'
import { showRegulationAlert, type RegulationAlertInfo } from '../regulation/alert'
import type { PunterEventHandlers } from './punter-events'
import type { EngineRuntime } from './runtime'
import { pageLocalStorage } from '../core/web-storage'
import { report } from '../core/report'

/** Stored key "mirror name" (spec §3 stored keys). */
export const MIRROR_STORAGE_KEY = 'mirrorName'

export interface PunterLiveEnvironment {
  storage(): StorageLike | null
  /** This page's host name. */
  host(): string
}

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {})
const payloadOf = (frame: object) => asRecord((frame as { payload?: unknown }).payload)

/** The server-side settings of a settingsUpdate, without the language. */
export function settingsToApply(payload: Record<string, unknown>): Partial<ServerSettings> {
  const { locale: _language, ...server } = splitSettings(asRecord(payload.settings)).server
  return server
}

/** The page's open bets with one bet changed; nothing when the page does not show that bet. */
function changeOpenBet(runtime: EngineRuntime, betId: unknown, change: Record<string, unknown>): void {
  const data = runtime.stores.screenData.getState()
  const open = data.data.openBets
  if (typeof betId !== 'string' || !Array.isArray(open) || !open.some((b: { betId?: unknown }) => b?.betId === betId)) return
  data.setData('openBets', open.map((b: { betId?: unknown }) => (b?.betId === betId ? { ...b, ...change } : b)))
}

function isAlertInfo(value: unknown): value is RegulationAlertInfo {
  const info = value as RegulationAlertInfo | undefined
  return !!info && typeof info.status === 'string' && [info.spentHours, info.totalBetMinUnit, info.totalLostMinUnit].every((n) => typeof n === 'number')
}

export function punterLiveEvents(environment: PunterLiveEnvironment): PunterEventHandlers {
  return {
    settingsUpdate(frame, runtime) {
      if (!runtime.stores.session.getState().accessToken) return
      const settings = settingsToApply(payloadOf(frame))
      if (Object.keys(settings).length > 0) runtime.stores.settings.getState().setServerSettings(settings)
    },
    regulationAlert(frame, runtime) {
      const info = payloadOf(frame).notificationInfo
      if (isAlertInfo(info)) showRegulationAlert(runtime.stores, info)
    },
    coRequest(frame, runtime) {
      const { betId, status, amount } = payloadOf(frame)
      if (status === 'PENDING') changeOpenBet(runtime, betId, { cashOutPending: true })
      else if (status === 'ACCEPTED' && typeof amount === 'number') changeOpenBet(runtime, betId, { cashOut: null, cashOutPending: false, status: 'cashed_out', cashedOut: amount })
    },
    mirror(frame, runtime) {
      const mirrorName = payloadOf(frame).mirrorName
      if (typeof mirrorName !== 'string' || !/^[a-z0-9.-]{1,253}$/.test(mirrorName)) return
      let known: string | null = null
      try {
        const storage = environment.storage()
        known = storage?.getItem(MIRROR_STORAGE_KEY) ?? null
        storage?.setItem(MIRROR_STORAGE_KEY, mirrorName)
      } catch {
        // storage refused (private mode, quota): the punter is still told
      }
      // told once per name (every server instance announces the same change)
      if (mirrorName !== known && mirrorName !== environment.host())
        runtime.stores.ui.getState().notify({ id: 'mirror.changed', status: 'info', duration: NOTIFICATION_DURATION_MS, values: { mirror: mirrorName } })
    },
  }
}

/** The browser's environment: localStorage and the address bar's host. */
export const BROWSER_LIVE_ENVIRONMENT: PunterLiveEnvironment = {
  storage: () => pageLocalStorage() ?? null,
  host: () => globalThis.location?.hostname ?? '',
}
