/**
 * Server module `services` (issue 18): Parlay's own endpoints for the third-party services of
 * spec §1/§7 — the analytics ingest and its remote-config GET, the error envelope endpoint, the replay ingest, its interaction summaries and the recognition link. The
 * admin views are mounted by the admin router (./admin.ts); the services page is ./page.ts. Every
 * ingest passes one gate (./ingest-gate.ts: who, how much) and stays within the storage budget and
 * the retention (./ingest-store.ts, ./ingest-sweep.ts; issue 30).
 */
import { GATEWAY } from '../deps'
import type { ServerModule } from '../module'
import { ANALYTICS_PATH, analyticsParseErrors, createAnalyticsRouter } from './analytics'
import { createAnalyticsConfigRouter } from './analytics-config'
import { createErrorsRouter } from './errors'
import { createRecognitionRouter } from './recognition'
import { createReplayRouter } from './replay'
import { createInteractionsRouter } from './interactions'
import { createServicesPage } from './page'
import { createIngestGate } from './ingest-gate'
import { startIngestSweep } from './ingest-sweep'

export const servicesModule: ServerModule = {
  name: 'services',
  mount(app, deps) {
    // one gate for every ingest endpoint: the punter from the session only, quotas, the storage budget
    const gate = createIngestGate(deps)
    startIngestSweep(deps)
    app.use(ANALYTICS_PATH, analyticsParseErrors)
    app.use(createAnalyticsRouter(deps, gate))
    app.use(createAnalyticsConfigRouter(deps))
    app.use(createErrorsRouter(deps, gate))
    app.use(createReplayRouter(deps, gate))
    app.use(createInteractionsRouter(deps, gate))
    app.use(GATEWAY.mobile, createRecognitionRouter(deps))
    app.use(createServicesPage(deps))
  },
}
