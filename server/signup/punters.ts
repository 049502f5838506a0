/**
 * The seam to the accounts part: creating the punter at the end of sign-up and logging them in.
 * Uses the accounts repository (`insertPunter`, an insert with duplicate checks on the query layer) and
 * their sessions, so a punter signed up here logs in everywhere like any other.
 */
import type { Response } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import { createSession, loginResult } from '../auth/sessions'
import type { DataLayer } from '../db/data-layer'
import type { ServerDeps } from '../deps'
import { sendOk } from '../http/envelope'
import { findPunterById, insertPunter, recordLogin, type NewPunter, type Punter } from '../punters/repository'
import type { Result } from '../../kernel/core/contracts'
import type { NextFunction, Request } from 'express'
import { punterOfRequest } from '../auth/session-check'
import { punterSessionCheck } from '../http/route-docs'

export type NewSignupPunter = Omit<NewPunter, 'password'> & { passwordHash: string }

/** Inserts the punter (duplicate e-mail, phone, nickname answered as sign-up codes). */
export function insertSignupPunter(data: DataLayer, input: NewSignupPunter, now: number): Promise<Result<Punter>> {
  return insertPunter(data, input, now)
}

export const punterById = findPunterById

/** Opens a session for a punter who just finished sign-up and answers like a login does. */
export async function sendLoggedIn(deps: Pick<ServerDeps, 'db' | 'data'>, res: Response, punter: Punter, now: number, extra: Record<string, unknown> = {}): Promise<void> {
  const session = await createSession(deps.data, punter.id, { rememberMe: false }, now)
  await recordLogin(deps.data, punter.id, now)
  res.setHeader(HEADERS.sessionHash, session.sessionHash)
  sendOk(res, { ...loginResult(session, 'complete_registration'), identityState: punter.identityState, ...extra })
}


/** Middleware: the request's punter (session hash header + optional bearer), or 401; the request
 * bound to the punter's own site (server/auth/session-check.ts `punterOfRequest`). */
export function requirePunter(deps: Pick<ServerDeps, 'db' | 'data' | 'now' | 'documents'>) {
  return punterSessionCheck(async (req: Request, res: Response, next: NextFunction) => {
    const found = await punterOfRequest(deps, req, res)
    if (!found) return
    res.locals.punter = found.punter
    next()
  })
}
