/**
 * A frame from a client, to its handler (spec §7 "Real-time"): it spends from the connection's
 * budget (over budget it is refused, and a client that keeps going is closed), must be JSON text of
 * a known message (./protocol.ts) allowed on this socket, and runs in the connection's order
 * (./message-queue.ts). A handler that fails answers STORAGE_UNAVAILABLE or INTERNAL_ERROR, never
 * ends the socket.
 */
import type { RawData } from 'ws'
import { isStorageUnavailable } from '../db/database'
import type { ServerDeps } from '../deps'
import { allowedOn, MESSAGE_BUDGET, spend, type Connection } from './connection'
import type { MessageHandlers } from './handlers'
import { createMessageQueue } from './message-queue'
import { errorFrame } from './messages'
import { parseClientMessage, type ClientMessage } from './protocol'
import { CLOSE, type Wire } from './wire'

export type Dispatch = (connection: Connection, data: RawData, isBinary: boolean) => void

export function createDispatch(deps: ServerDeps, handlers: MessageHandlers, wire: Wire): Dispatch {
  const receive = (connection: Connection, data: RawData, isBinary: boolean): void | Promise<void> => {
    if (!spend(connection, deps.now())) {
      if (connection.budget.refused >= MESSAGE_BUDGET.refusalsBeforeClose) return wire.close(connection, CLOSE.overBudget, 'TOO_MANY_MESSAGES')
      return wire.send(connection, errorFrame('TOO_MANY_MESSAGES', `at most ${MESSAGE_BUDGET.perSecond} messages a second`))
    }
    if (isBinary) return wire.send(connection, errorFrame('MALFORMED_MESSAGE', 'messages are JSON text'))
    const parsed = parseClientMessage(data.toString())
    if (!parsed.ok) return wire.send(connection, errorFrame(parsed.code, parsed.message))
    const { message } = parsed
    if (!allowedOn(connection.role, message.type)) return wire.send(connection, errorFrame('WRONG_SOCKET', `${message.type} goes on the other socket`))
    return (handlers[message.type] as (c: Connection, m: ClientMessage) => void | Promise<void>)(connection, message)
  }
  const failed = (connection: Connection, error: unknown) => {
    const unavailable = isStorageUnavailable(error)
    deps.log[unavailable ? 'warn' : 'error']('realtime.message.failed', { error: (error as Error).message })
    wire.send(connection, errorFrame(unavailable ? 'STORAGE_UNAVAILABLE' : 'INTERNAL_ERROR'))
  }
  const handle = (connection: Connection, data: RawData, isBinary: boolean): Promise<void> | undefined => {
    try {
      return receive(connection, data, isBinary)?.catch((error: unknown) => failed(connection, error))
    } catch (error) {
      failed(connection, error)
    }
  }
  const queue = createMessageQueue<Connection>()
  return (connection, data, isBinary) => queue.run(connection, () => handle(connection, data, isBinary))
}
