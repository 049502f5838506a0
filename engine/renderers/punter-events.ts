/**
 * What a punter-socket subscriber hands over: a handler per event name. Its own file so
 * punter-socket.ts (which subscribes) and punter-live.ts (which builds the handlers) both import it.
 */
import type { IncomingMessage } from '../realtime/manager'
import type { EngineRuntime } from './runtime'

export type PunterEventHandlers = Record<string, (frame: IncomingMessage, runtime: EngineRuntime) => void>
