/**
 * The regulation alert popup (spec: regulation alerts; issue 13), shared by the monitor's polling
 * and the punter socket's `regulationAlert` frame. A module of its own, statically imported by
 * both: the socket handler used to load the whole monitor lazily for these few lines, which made
 * the bundler emit a separate runtime chunk that every page fetched (one more request, ~1.5 KB
 * with its headers, more than these lines cost in the entry; issue 18's first-load budget).
 */
import type { EngineStores } from '../core/stores'

/** Whether the popup with this id is open now. */
export const isOpen = (stores: EngineStores, id: string) => stores.ui.getState().popups.some((p) => p.id === id)

export interface RegulationAlertInfo {
  status: string
  spentHours: number
  totalBetMinUnit: number
  totalLostMinUnit: number
}

/** An unconfirmed alert (notification/info, or the socket's regulationAlert) opens its popup once. */
export function showRegulationAlert(stores: EngineStores, info: RegulationAlertInfo): void {
  if (info.status !== 'NEED_TO_CONFIRM' || isOpen(stores, 'regulation-alert')) return
  const currency = String(stores.user.getState().data?.user?.account?.currency ?? '')
  stores.ui.getState().openPopup({ id: 'regulation-alert', params: { spentHours: info.spentHours, totalBet: info.totalBetMinUnit / 100, totalLost: info.totalLostMinUnit / 100, currency }, isCloseable: false })
}
