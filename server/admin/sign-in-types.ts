/**
 * What the sign-in router hands the account router: the audit writer, the session reader, the
 * failure throttle. Their own file so sign-in.ts (which makes the account router) and account.ts
 * (which takes them) do not import each other.
 */
import type { Request } from 'express'
import type { DocumentStore } from '../store/store'
import type { AdminSession } from './accounts'

export type Audit = DocumentStore['audit']
export type SessionOf = (req: Request) => AdminSession | undefined

/** Failure counters per key on the bus (sign-in.ts createThrottle). */
export interface Throttle {
  blocked(keys: string[]): Promise<boolean>
  fail(keys: string[]): Promise<void>
  clear(key: string): Promise<void>
}
