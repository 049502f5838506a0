/**
 * The socket messages of spec §7, checked at the edge: a frame is one JSON object with a `type`;
 * anything else is refused with an error code (the connection stays open). What each message
 * means is in `connection.ts`.
 *
 * AUTH is ours: a browser cannot put headers on a WebSocket, and a token in the URL would end up
 * in logs, so the punter socket is authenticated by its first message (session hash + access token).
 */
export const DISPLAY_MODES = ['FULL', 'SHORT'] as const
export type DisplayMode = (typeof DISPLAY_MODES)[number]
export const BET_CHANNEL_TYPES = ['WATCH_ON_BET', 'INACTIVE_SELECTION'] as const
export type BetChannelType = (typeof BET_CHANNEL_TYPES)[number]

export type ClientMessage =
  | { type: 'AUTH'; punterHash: string; accessToken: string }
  | { type: 'SET_TREE_CTX'; subscribe: string[]; unSubscribe: string[]; resetSubscribe: boolean }
  | { type: 'SUBSCRIBE'; displayMode: DisplayMode; ids: string[] }
  | { type: 'UNSUBSCRIBE'; ids: string[]; displayMode?: DisplayMode }
  | { type: 'GI'; resetSubscribe: boolean }
  | { type: BetChannelType; ids: string[]; resetSubscribe: boolean }

export type Parsed = { ok: true; message: ClientMessage } | { ok: false; code: string; message: string }

export const MAX_IDS_PER_MESSAGE = 200
const ID = /^[a-z0-9][a-z0-9-]{0,79}$/

const fail = (code: string, message: string): Parsed => ({ ok: false, code, message })

function ids(value: unknown, name: string, required: boolean): string[] | string {
  if (value === undefined && !required) return []
  if (!Array.isArray(value)) return `${name} must be a list of ids`
  if (value.length > MAX_IDS_PER_MESSAGE) return `${name} holds more than ${MAX_IDS_PER_MESSAGE} ids`
  for (const id of value) if (typeof id !== 'string' || !ID.test(id)) return `${name} holds an id that is not one: ${JSON.stringify(id)?.slice(0, 40)}`
  return value as string[]
}

const flag = (value: unknown) => value === true

function token(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 200
}

export function parseClientMessage(raw: string): Parsed {
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    return fail('MALFORMED_MESSAGE', 'a message is one JSON object')
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return fail('MALFORMED_MESSAGE', 'a message is one JSON object')
  const m = data as Record<string, unknown>
  switch (m.type) {
    case 'AUTH':
      return token(m.punterHash) && token(m.accessToken)
        ? { ok: true, message: { type: 'AUTH', punterHash: m.punterHash, accessToken: m.accessToken } }
        : fail('INVALID_MESSAGE', 'AUTH needs punterHash and accessToken')
    case 'SET_TREE_CTX': {
      const subscribe = ids(m.subscribe, 'subscribe', false)
      const unSubscribe = ids(m.unSubscribe, 'unSubscribe', false)
      if (typeof subscribe === 'string') return fail('INVALID_MESSAGE', subscribe)
      if (typeof unSubscribe === 'string') return fail('INVALID_MESSAGE', unSubscribe)
      return { ok: true, message: { type: 'SET_TREE_CTX', subscribe, unSubscribe, resetSubscribe: flag(m.resetSubscribe) } }
    }
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE': {
      const list = ids(m.ids, 'ids', true)
      if (typeof list === 'string') return fail('INVALID_MESSAGE', list)
      const mode = m.displayMode
      if (m.type === 'SUBSCRIBE' && !(DISPLAY_MODES as readonly unknown[]).includes(mode)) return fail('INVALID_MESSAGE', 'displayMode is FULL or SHORT')
      if (m.type === 'UNSUBSCRIBE' && mode !== undefined && !(DISPLAY_MODES as readonly unknown[]).includes(mode)) return fail('INVALID_MESSAGE', 'displayMode is FULL or SHORT')
      return { ok: true, message: m.type === 'SUBSCRIBE' ? { type: 'SUBSCRIBE', displayMode: mode as DisplayMode, ids: list } : { type: 'UNSUBSCRIBE', ids: list, ...(mode ? { displayMode: mode as DisplayMode } : {}) } }
    }
    case 'GI':
      return { ok: true, message: { type: 'GI', resetSubscribe: flag(m.resetSubscribe) } }
    case 'WATCH_ON_BET':
    case 'INACTIVE_SELECTION': {
      const list = ids(m.ids, 'ids', false)
      if (typeof list === 'string') return fail('INVALID_MESSAGE', list)
      return { ok: true, message: { type: m.type, ids: list, resetSubscribe: flag(m.resetSubscribe) } }
    }
    default:
      return fail('UNKNOWN_MESSAGE_TYPE', `unknown type ${JSON.stringify(m.type)?.slice(0, 40)}`)
  }
}
