/**
 * The experiment service (spec §7 "Experiment service"): config.json, geo and pages.json.
 *
 * Mount expectations (server/app.ts, owned by the lead):
 *
 *   import { createExperimentsRouter } from './experiments'
 *   app.use('/experiments/api', createExperimentsRouter({ documentsDir: path.resolve('schemas') }))
 *
 * - `documentsDir` is the folder holding `experiments/experiments.json` and
 *   `kinds/experiments.schema.json` (the repo's `schemas/`). Both are read once, at creation;
 *   a schema or rule problem throws ExperimentsDocumentError (file + JSON pointer): the server
 *   must not start.
 * - The client SDK is then created with `api: '/experiments/api'` (pages at `{api}/pages.json`).
 * - No body parser or session is needed; every answer is JSON. Set `app.set('trust proxy', …)`
 *   only if the geo headers below come from a proxy you trust.
 * - Geo comes from proxy headers `cf-ipcountry` or `x-geo-country` (ISO code), optional
 *   `x-geo-country-name`, `x-geo-region`, `x-geo-city`; without them /geo answers 400 and the
 *   client stores location 'none'.
 *
 * - Web-builder globalJs is served only when its sha256 (hex) is in `pinnedGlobalJsSha256`; the
 *   client inserts it as an inline script, so also add `pinnedScriptCspSources(pinned)` to the
 *   CSP's script-src (helmet), or it will not run.
 *
 * Status codes: 200 success, 400 failure (missing/unknown/inactive token, missing exp/group,
 * unknown experiment, no geo), with `{ "error": message }` using the spec's messages.
 */
import { Router, type Request, type Response } from 'express'
import { MESSAGES, SDK_NAME, SDK_VERSION, STATUS_FAILURE, STATUS_SUCCESS } from '../../kernel/experiments/constants'
import type { Geo, WebBuilderPage } from '../../kernel/experiments/types'
import { loadExperimentsDocument, publicConfig, sanitizedPages, type ExperimentsDocument } from './document'

export interface ExperimentsRouterOptions {
  documentsDir: string
  /** sha256 (hex) of each web-builder globalJs allowed to be served; any other script is refused. */
  pinnedGlobalJsSha256?: string[]
  now?: () => number
}

function fail(res: Response, message: string): void {
  res.status(STATUS_FAILURE).json({ error: message })
}

function header(req: Request, name: string): string | undefined {
  const value = req.get(name)
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

/** Token check shared by all three calls: missing → 'Please specify a token'; inactive → 'Token is not active'. */
function checkToken(doc: ExperimentsDocument, req: Request, res: Response): boolean {
  const token = header(req, 'token')
  if (!token) {
    fail(res, MESSAGES.tokenRequired)
    return false
  }
  const known = doc.tokens.find((t) => t.token === token)
  if (!known) {
    fail(res, MESSAGES.configUnavailable)
    return false
  }
  if (!known.active) {
    fail(res, MESSAGES.tokenNotActive)
    return false
  }
  return true
}

export function createExperimentsRouter(options: ExperimentsRouterOptions): Router {
  const now = options.now ?? Date.now
  const doc = loadExperimentsDocument(options.documentsDir, options.pinnedGlobalJsSha256 ?? [])
  const configBody = JSON.stringify(publicConfig(doc))
  // sanitised on the first pages.json, not at start: jsdom (DOMPurify's DOM) costs ~0.4 s of CPU to
  // load, paid then only by a server that serves web-builder pages (every test server started it)
  let pages: Map<string, WebBuilderPage[]> | undefined
  const router = Router()

  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store')
    res.set('sdk-name', SDK_NAME)
    res.set('sdk-version', SDK_VERSION)
    res.set('server-time', String(now()))
    next()
  })

  router.get('/config.json', (req, res) => {
    if (!checkToken(doc, req, res)) return
    res.status(STATUS_SUCCESS).type('application/json').send(configBody)
  })

  router.get('/geo', (req, res) => {
    if (!checkToken(doc, req, res)) return
    const code = header(req, 'cf-ipcountry') ?? header(req, 'x-geo-country')
    // Cloudflare marks unknown and Tor as XX / T1.
    if (!code || code === 'XX' || code === 'T1') return fail(res, 'Geo not available')
    const geo: Geo = { code: code.toUpperCase(), country: header(req, 'x-geo-country-name') ?? code.toUpperCase() }
    const state = header(req, 'x-geo-region')
    const city = header(req, 'x-geo-city')
    if (state) geo.state = state
    if (city) geo.city = city
    res.status(STATUS_SUCCESS).json(geo)
  })

  router.get('/pages.json', (req, res) => {
    if (!checkToken(doc, req, res)) return
    const exp = header(req, 'exp')
    const group = header(req, 'group')
    if (!exp || !group) return fail(res, 'exp and group headers are required')
    const experiment = doc.experiments.find((e) => e.name === exp)
    if (!experiment || !experiment.groups.some((g) => g.name === group)) return fail(res, MESSAGES.experimentsNotCached)
    pages ??= sanitizedPages(doc)
    res.status(STATUS_SUCCESS).json({ pages: pages.get(`${exp}\u0000${group}`) ?? [] })
  })

  return router
}
