/**
 * Server module `services` (issue 18): Parlay's own endpoints for the third-party services of
 * spec §1/§7 — the analytics ingest, the error envelope endpoint, the replay ingest, its interaction summaries and the recognition link. The
 * admin views are mounted by the admin router (./admin.ts); the services page is ./page.ts.
 */
import { GATEWAY } from '../deps'
import type { ServerModule } from '../modules'
import { ANALYTICS_PATH, analyticsParseErrors, createAnalyticsRouter } from './analytics'
import { createErrorsRouter } from './errors'
import { createRecognitionRouter } from './recognition'
import { createReplayRouter } from './replay'
import { createInteractionsRouter } from './interactions'
import { createServicesPage } from './page'
import './openapi'

export const servicesModule: ServerModule = {
  name: 'services',
  mount(app, deps) {
    app.use(ANALYTICS_PATH, analyticsParseErrors)
    app.use(createAnalyticsRouter(deps))
    app.use(createErrorsRouter(deps))
    app.use(createReplayRouter(deps))
    app.use(createInteractionsRouter(deps))
    app.use(GATEWAY.mobile, createRecognitionRouter(deps))
    app.use(createServicesPage(deps))
  },
}
