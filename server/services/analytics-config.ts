/**
 * The analytics remote-config GET (spec §7 "remote-config GET (api_key, config_keys,
 * session_id)"): the analytics client asks, once per session, for the analytics settings of the
 * site's remote-config document, so a change there reaches the next session without a new boot.
 *   200 {code: 200, configs: {KEY: value}}   the asked keys as the site's document holds them
 *   400 ValidationError                       unknown parameter or key, bad or repeated session_id
 *   403 INVALID_API_KEY                       not the site's AMPLITUDE_KEY (or the site has none)
 * Why our own: same origin (no CSP change), and the document stays the one source.
 */
import { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { remoteConfigFor } from '../documents/router'
import { sendError } from '../http/envelope'
import { validateQuery } from '../http/validate'
import { ANALYTICS_CONFIG_KEYS, ANALYTICS_CONFIG_PATH } from '../../kernel/core/analytics-config'

/** Cached by the browser only, briefly: an operator's change reaches a new session within a minute. */
export const ANALYTICS_CONFIG_CACHE = 'private, max-age=60'

const KEY = `(${ANALYTICS_CONFIG_KEYS.join('|')})`
export const ANALYTICS_CONFIG_QUERY = {
  type: 'object',
  required: ['api_key', 'config_keys', 'session_id'],
  additionalProperties: false,
  properties: {
    api_key: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,100}$' },
    config_keys: { type: 'string', pattern: `^${KEY}(,${KEY})*$`, description: `Comma-separated, of: ${ANALYTICS_CONFIG_KEYS.join(', ')}` },
    session_id: { type: 'string', pattern: '^[0-9]{1,16}$', description: 'The analytics session (its start, ms since the epoch)' },
  },
} as const

export function createAnalyticsConfigRouter(deps: ServerDeps): Router {
  const router = Router()
  router.get(ANALYTICS_CONFIG_PATH, validateQuery(ANALYTICS_CONFIG_QUERY), (req: Request, res: Response) => {
    const config = remoteConfigFor(deps, req)
    const query = req.query as { api_key: string; config_keys: string }
    if (typeof config.AMPLITUDE_KEY !== 'string' || config.AMPLITUDE_KEY === '' || query.api_key !== config.AMPLITUDE_KEY) {
      res.setHeader('Cache-Control', 'no-store')
      return sendError(res, 403, 'INVALID_API_KEY')
    }
    const keys = [...new Set(query.config_keys.split(','))]
    res.setHeader('Cache-Control', ANALYTICS_CONFIG_CACHE)
    res.setHeader('Vary', 'Host, X-Parlay-Target')
    res.status(200).json({ code: 200, configs: Object.fromEntries(keys.filter((key) => config[key] !== undefined).map((key) => [key, config[key]])) })
  })
  return router
}
