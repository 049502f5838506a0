/**
 * POST /referer/store (spec §7 "Registration and bonus", via the mobile gate; spec §9 stored key
 * "referer id"): remembers who referred a visitor until they sign up. The referrer is kept with
 * the visitor, in one HttpOnly cookie (a bounded value: 1–64 of [A-Za-z0-9_-], 30 days), never in
 * a table a stranger could fill. The answer is the same whatever the id names: no account or
 * partner is looked up, so the call tells nobody which referrers exist. The sign-up calls read
 * the cookie when their body carries no refererId (./prepare.ts).
 */
import type { Request, Response } from 'express'
import { sendOk } from '../http/envelope'

export const REFERER_COOKIE = 'parlay_referer'
export const REFERER_MAX_AGE_S = 30 * 24 * 3600
export const REFERER_PATTERN = '^[A-Za-z0-9_-]{1,64}$'

export const REFERER_STORE_SCHEMA = {
  type: 'object',
  required: ['refererId'],
  additionalProperties: false,
  properties: { refererId: { type: 'string', pattern: REFERER_PATTERN } },
} as const

export function storeReferer(req: Request, res: Response): void {
  const { refererId } = req.body as { refererId: string }
  res.setHeader('Cache-Control', 'no-store')
  res.append('Set-Cookie', `${REFERER_COOKIE}=${refererId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${REFERER_MAX_AGE_S}${req.secure ? '; Secure' : ''}`)
  sendOk(res, { stored: true })
}

/** The referrer stored for this visitor, if its cookie holds a well-formed one. */
export function storedReferer(req: Request): string | undefined {
  const pattern = new RegExp(REFERER_PATTERN)
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=')
    if (name === REFERER_COOKIE && value !== undefined && pattern.test(value)) return value
  }
  return undefined
}
