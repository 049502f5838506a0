/**
 * Message actions (spec §3 "Messages", issue 15 item 1). The server keeps the read state; these
 * actions page the inbox, mark messages read and show the active ones, and keep the unread count
 * (the heartbeat's inboxStatistics, read by `user.unreadMessages`) in step with every answer.
 *
 *   messages.loadPage {page}            one inbox page (20 messages) into data.inbox
 *   messages.markRead {source, ids}     read on the server; the page and the unread count follow
 *   messages.showActive {}              unread EXTERNAL messages: web and club as notifications,
 *                                       global as the `message` popup; each marked read once shown
 */
import { MESSAGE_SOURCES } from '../../kernel/core/action-choices'
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { type ActionEnvironment, implementAction } from './registry'
import { definitions } from '../../kernel/actions/messages'

const BASE = '/mobile-gate/api/v1/punter/message'
/** Spec §9: the inbox page size. */
export const INBOX_PAGE_SIZE = 20
type Source = (typeof MESSAGE_SOURCES)[number]

export interface PunterMessage {
  punterMessageId: number
  source: Source
  kind: 'INBOX' | 'EXTERNAL'
  localizedMessage: string
  read: boolean
}
interface InboxStatistics {
  totalMessagesCount: number
  unreadMessagesCount: number
}

const action = implementAction

/** The unread count wherever it shows (header, profile panel) follows the server's latest answer. */
export function setInboxStatistics(stores: ActionEnvironment['stores'], stats: Partial<InboxStatistics> | undefined): void {
  const user = stores.user.getState()
  if (!user.data || typeof stats?.unreadMessagesCount !== 'number') return
  user.setUser({ ...user.data, inboxStatistics: { totalMessagesCount: stats.totalMessagesCount ?? 0, unreadMessagesCount: stats.unreadMessagesCount } })
}

async function loadPage(env: ActionEnvironment, page: number) {
  const result = await env.gateway.call<InboxStatistics & { content: PunterMessage[] }>('GET', `${BASE}/inbox-page?pageNumber=${page}&pageSize=${INBOX_PAGE_SIZE}`)
  if (result.ok) {
    env.stores.screenData.getState().setData('inbox', result.value)
    setInboxStatistics(env.stores, result.value)
  }
  return result
}

async function markRead(env: ActionEnvironment, source: Source, ids: number[]) {
  const result = await env.gateway.call<InboxStatistics & { marked: number }>('PUT', `${BASE}/mark-read/${source}`, { ids })
  if (!result.ok) return result
  setInboxStatistics(env.stores, result.value)
  const inbox = env.stores.screenData.getState().data.inbox as { content?: PunterMessage[] } | undefined
  if (inbox?.content)
    env.stores.screenData.getState().setData('inbox', { ...inbox, content: inbox.content.map((m) => (m.source === source && ids.includes(m.punterMessageId) ? { ...m, read: true } : m)) })
  return result
}

export const messagesLoadPage = action<{ page: number }>(definitions, {
  name: 'messages.loadPage',
  async handler({ page }, env) {
    if (!Number.isInteger(page) || page < 0) return { ok: false, code: 'INVALID_PARAMS', message: `messages.loadPage: ${page}` }
    return loadPage(env, page)
  },
})

export const messagesMarkRead = action<{ source: Source; ids: number[] }>(definitions, {
  name: 'messages.markRead',
  async handler({ source, ids }, env) {
    const wanted = ids.filter((id) => Number.isInteger(id) && id > 0)
    if (!MESSAGE_SOURCES.includes(source) || wanted.length === 0) return { ok: false, code: 'INVALID_PARAMS', message: 'messages.markRead: a source and ids' }
    return markRead(env, source, wanted)
  },
})

/** Shows one active message: a notification (8 s) for web and club, the `message` popup for global. */
export function showMessage(env: Pick<ActionEnvironment, 'stores'>, message: PunterMessage): void {
  if (message.source === 'global') {
    env.stores.ui.getState().openPopup({ id: 'message', params: { text: message.localizedMessage, punterMessageId: message.punterMessageId } })
    return
  }
  env.stores.ui.getState().notify({ id: 'messages.incoming', status: 'info', duration: NOTIFICATION_DURATION_MS, values: { text: message.localizedMessage } })
}

export const messagesShowActive = action<Record<string, never>>(definitions, {
  name: 'messages.showActive',
  async handler(_params, env) {
    const answers = await Promise.all([
      env.gateway.call<PunterMessage[]>('GET', `${BASE}/active?messageType=WEB`),
      env.gateway.call<PunterMessage[]>('GET', `${BASE}/active?messageType=club`),
      env.gateway.call<PunterMessage[]>('GET', `${BASE}/active-global`),
    ])
    const shown: PunterMessage[] = answers.flatMap((a) => (a.ok && Array.isArray(a.value) ? a.value : []))
    for (const message of shown) showMessage(env, message)
    for (const source of MESSAGE_SOURCES) {
      const ids = shown.filter((m) => m.source === source).map((m) => m.punterMessageId)
      if (ids.length) await markRead(env, source, ids)
    }
    return { ok: true, value: shown.length }
  },
})

export const messageActions = [messagesLoadPage, messagesMarkRead, messagesShowActive]

