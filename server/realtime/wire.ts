/**
 * How the socket server's parts write to a connection: frames go through the outbox (one write per
 * socket per turn, ./outbox.ts), and a socket being closed gets what was queued for it first.
 */
import type { Connection } from './connection'

export interface Wire {
  send(connection: Connection, frame: string | Buffer): void
  close(connection: Connection, code: number, reason: string): void
}

/** Close codes of ours (4000–4999 are the application's). */
export const CLOSE = { sessionEnded: 4001, overBudget: 4008, serverStopping: 1001 } as const
