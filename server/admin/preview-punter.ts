/**
 * The punter side of a studio preview "as a demo punter" (issue 19 item 3). Mounted before every
 * module, because the rule it enforces is global: a preview punter session (server/store/preview.ts)
 * only reads. Whatever the path, a request that is not a read and carries one is refused (403
 * `PREVIEW_READ_ONLY`): a preview never places a bet, changes a setting, logs out or writes
 * anything on the punter's account.
 *
 *   GET /api/preview/session?preview=<token>   the preview page's punter session (null: a guest);
 *                                              only for the admin session that made the token
 */
import { Router, type NextFunction, type Request, type Response } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { PREVIEW_SESSION_PREFIX, previewSessionFor } from '../store/preview'

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function createPreviewPunterRouter(deps: ServerDeps): Router {
  const router = Router()

  router.use((req: Request, res: Response, next: NextFunction) => {
    const hash = req.header(HEADERS.sessionHash)
    if (!READS.has(req.method) && hash?.startsWith(PREVIEW_SESSION_PREFIX)) return sendError(res, 403, 'PREVIEW_READ_ONLY')
    next()
  })

  router.get('/api/preview/session', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    const token = typeof req.query.preview === 'string' && req.query.preview.length <= 64 ? req.query.preview : ''
    const now = deps.now()
    const found = token ? await previewSessionFor(token, now, req.headers.cookie) : undefined
    if (!found) return sendError(res, 403, 'PREVIEW_REFUSED')
    const { punter, expiresAt } = found
    sendOk(res, {
      session: punter && {
        accessToken: punter.accessToken,
        refreshToken: null,
        sessionHash: punter.sessionHash,
        creationTime: now,
        loginTimeout: expiresAt - now,
        rememberMe: false,
      },
    })
  })

  return router
}
