/**
 * What every credential call shares: the punter's session check, the jurisdiction's credential
 * policy, links that only ever carry the site's own host, and messages through the sign-up
 * module's sender (the outbox when simulators are on), sent after the answer so a request for an
 * existing account takes as long to answer as one for an unknown account.
 */
import type { NextFunction, Request, Response } from 'express'
import { requirePunterSession } from '../auth/session-check'
import { messageSenderFor } from '../auth/unlock'
import type { ServerDeps } from '../deps'
import { jurisdictionOf } from '../dictionary'
import { siteContext } from '../http/site'
import type { Punter } from '../punters/repository'
import type { OutgoingMessage } from '../signup/outbox'

/** The jurisdiction document's `credentials` block (kernel/documents/kinds.ts). */
export interface CredentialPolicy {
  /** Refuse the last N passwords, the current one included; 0 = off. */
  passwordHistory: number
}

export interface CredentialsContext {
  deps: ServerDeps
  requireSession(req: Request, res: Response, next: NextFunction): Promise<void>
  policy(req: Request): CredentialPolicy
  /** An absolute link on the request's site (its own host only: a forged Host never gets in). */
  link(req: Request, path: string): string
  /** Sends after the answer; failures are logged, never shown (the answer must not depend on them). */
  sendLater(message: OutgoingMessage, logFields: Record<string, unknown>): void
  punterOf(req: Request): Punter
}

export function createCredentialsContext(deps: ServerDeps): CredentialsContext {
  const { db, log } = deps
  return {
    deps,
    requireSession: requirePunterSession(deps),
    policy(req) {
      const block = (jurisdictionOf(deps, req) as unknown as { credentials?: Partial<CredentialPolicy> } | undefined)?.credentials
      const depth = block?.passwordHistory
      return { passwordHistory: typeof depth === 'number' && Number.isInteger(depth) && depth >= 0 ? Math.min(depth, 24) : 0 }
    },
    link(req, path) {
      const hosts = ((jurisdictionOf(deps, req) as unknown as { hosts?: string[] } | undefined)?.hosts ?? []) as string[]
      const port = /:\d+$/.exec(req.get('host') ?? '')?.[0] ?? ''
      const host = hosts.includes(req.hostname) ? (req.get('host') ?? req.hostname) : (hosts[0] ?? 'localhost') + port
      return `${req.protocol}://${host}${path}`
    },
    sendLater(message, logFields) {
      const sender = messageSenderFor(db)
      setImmediate(() => {
        if (!sender) return log.warn('credentials.message.unsendable', { ...logFields, reason: 'no-sender' })
        Promise.resolve()
          .then(() => sender.send(message))
          .then(
            () => log.info('credentials.message.sent', { ...logFields, channel: message.channel }),
            (error: Error) => log.error('credentials.message.failed', { ...logFields, error: error.message }),
          )
      })
    },
    punterOf(req) {
      return req.punterSession!.punter
    },
  }
}

export const siteLocale = (req: Request, deps: ServerDeps) => siteContext(req, deps).locale
