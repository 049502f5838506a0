/**
 * The client gate (spec §7: requests go through a client gate, a uniweb gate, the mobile gate
 * /mobile-gate/api/v1 and per-product game gateways). The spec gives no call that only the client
 * gate answers, so it serves the mobile gate's calls under its own prefix: a request under
 * /client-gate/api/v1/… is the same request under /mobile-gate/api/v1/… (same handlers, same
 * schemas, same throttles and budgets, which key on the rewritten path). Anything else under
 * /client-gate stays an API 404 in the envelope (server/app.ts).
 */
import type { NextFunction, Request, Response } from 'express'
import { GATEWAY } from '../deps'

const PREFIX = GATEWAY.client + '/'

export function clientGate(req: Request, _res: Response, next: NextFunction): void {
  if (req.url.startsWith(PREFIX)) req.url = GATEWAY.mobile + '/' + req.url.slice(PREFIX.length)
  next()
}
