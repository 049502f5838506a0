/**
 * The feed's development controls (development mode only, like the dev outbox): set a price,
 * suspend or settle an event now — what a demo or a browser test needs to see a price move or a
 * bet settle without waiting for the schedule. Production has no way to steer the feed over HTTP.
 */
import { Router, type Request, type Response } from 'express'
import type { ServerModule } from '../module'
import { sendError, sendOk } from '../http/envelope'
import { feedFor } from '.'

const ID = /^e\d{1,12}(-[a-z0-9-]{1,40})?$/

function body(req: Request): Record<string, unknown> {
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {}
}

export const feedModule: ServerModule = {
  name: 'feed',
  mount(app, deps) {
    if (!deps.config.development) return
    const feed = feedFor(deps)
    const router = Router()
    router.post('/api/dev/feed/price', async (req: Request, res: Response) => {
      const { selectionId, price } = body(req)
      if (typeof selectionId !== 'string' || !ID.test(selectionId) || typeof price !== 'number' || !(price >= 1.01 && price <= 1000)) return sendError(res, 400, 'ValidationError')
      const update = feed.setPrice(selectionId, price)
      await feed.idle()
      return update ? sendOk(res, update) : sendError(res, 404, 'UNKNOWN_SELECTION')
    })
    router.post('/api/dev/feed/hold', async (req: Request, res: Response) => {
      const { eventId, held } = body(req)
      if (typeof eventId !== 'string' || !ID.test(eventId) || typeof held !== 'boolean') return sendError(res, 400, 'ValidationError')
      const update = feed.hold(eventId, held)
      await feed.idle()
      return update ? sendOk(res, update) : sendError(res, 404, 'UNKNOWN_EVENT')
    })
    router.post('/api/dev/feed/pause', (req: Request, res: Response) => {
      const { paused } = body(req)
      if (typeof paused !== 'boolean') return sendError(res, 400, 'ValidationError')
      feed.pause(paused)
      return sendOk(res, { paused })
    })
    router.post('/api/dev/feed/settle', async (req: Request, res: Response) => {
      const { eventId, score } = body(req)
      const validScore = score === undefined || (Array.isArray(score) && score.length === 2 && score.every((n) => Number.isInteger(n) && n >= 0 && n < 1000))
      if (typeof eventId !== 'string' || !ID.test(eventId) || !validScore) return sendError(res, 400, 'ValidationError')
      const update = feed.settleEvent(eventId, score as [number, number] | undefined)
      // answered once the server has acted on it (bets holding the event settled, offers sent)
      await feed.idle()
      return update ? sendOk(res, update) : sendError(res, 404, 'UNKNOWN_EVENT')
    })
    app.use(router)
  },
}
