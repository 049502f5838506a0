/**
 * The accounts module: the session and user calls under the mobile gate, the OpenAPI document,
 * and the demo punters (seeded at start unless PARLAY_SEED_DEMO=0).
 */
import type { ServerModule } from '../module'
import { GATEWAY } from '../deps'
import { seedDemoPunters } from '../punters/demo'
import { mountOpenApi } from './openapi'
import { createAuthRouter } from './router'
import { mountCaptchaDevToken } from './captcha-dev-token'

export { createSession, revokeAllSessions, authenticate, refreshSession, TOKEN_LIFETIME } from './sessions'
export { blockPunter, consumeConfirmationToken, issueConfirmationToken } from './router'

export const authModule: ServerModule = {
  name: 'accounts',
  async mount(app, deps) {
    if (process.env.PARLAY_SEED_DEMO !== '0') await seedDemoPunters(deps.data, deps.now(), deps.log)
    mountOpenApi(app, deps)
    app.use(GATEWAY.mobile, createAuthRouter(deps))
    mountCaptchaDevToken(app, deps)
  },
}
