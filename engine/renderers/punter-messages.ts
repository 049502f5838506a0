/**
 * Messages on an open page (spec §3 "Messages", "Notification"; issue 15 item 1): once per session
 * the unread EXTERNAL messages are shown (`messages.showActive`), and a message delivered while
 * the page is open arrives as the punter socket's `punterMessage` event — an EXTERNAL one shows
 * at once (and is marked read), an INBOX one moves the unread count and says so for 8 s.
 * `promoParticipation` (a promo code used in this or another tab, spec §3) says the punter now
 * takes part and reloads the offers page's campaigns when it is open.
 */
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { setInboxStatistics, showMessage, type PunterMessage } from '../actions/messages'
import { usePunterEvents, type PunterEventHandlers } from './punter-socket'
import type { EngineRuntime } from './runtime'

/** Sessions whose active messages this page already showed (a re-render does not repeat them). */
const shownFor = new Set<string>()

function showActiveOnce(runtime: EngineRuntime, punterHash: string): void {
  if (shownFor.has(punterHash)) return
  shownFor.add(punterHash)
  void runtime.run([{ do: 'messages.showActive' }])
}

const MESSAGE_EVENTS: PunterEventHandlers = {
  promoParticipation(frame, runtime) {
    const code = (frame.payload as { promoCode?: unknown } | undefined)?.promoCode
    runtime.stores.ui.getState().notify({ id: 'promo.participation', status: 'success', duration: NOTIFICATION_DURATION_MS, values: { code: typeof code === 'string' ? code : '' } })
    if (runtime.stores.screenData.getState().data.offers !== undefined) void runtime.run([{ do: 'account.load', with: { name: 'offers', path: '/mobile-gate/api/v1/bonus/ticket/active-campaigns' } }])
  },
  punterMessage(frame, runtime) {
    const payload = frame.payload as { message?: PunterMessage; unreadMessagesCount?: number; totalMessagesCount?: number } | undefined
    const message = payload?.message
    if (!message || typeof message.punterMessageId !== 'number') return
    setInboxStatistics(runtime.stores, payload)
    if (message.kind === 'EXTERNAL') {
      showMessage({ stores: runtime.stores }, message)
      void runtime.run([{ do: 'messages.markRead', with: { source: message.source, ids: [message.punterMessageId] } }])
      return
    }
    runtime.stores.ui.getState().notify({ id: 'messages.new', status: 'info', duration: NOTIFICATION_DURATION_MS, values: { count: payload.unreadMessagesCount ?? 1 } })
    const inbox = runtime.stores.screenData.getState().data.inbox as { pageData?: { pageNumber?: number } } | undefined
    if (inbox?.pageData?.pageNumber === 0) void runtime.run([{ do: 'messages.loadPage', with: { page: 0 } }])
  },
}

export function usePunterMessages(): void {
  usePunterEvents(MESSAGE_EVENTS, showActiveOnce)
}
