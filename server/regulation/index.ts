/**
 * The regulation module (responsible gambling): self-exclusion, restrictions, reality check,
 * regulation alerts and Spain's session reminder. Other parts call `assertAllowed` from
 * ./restrictions before a deposit, a bet or a game launch.
 */
import type { ServerModule } from '../modules'
import { GATEWAY } from '../deps'
import { createRegulationRouter } from './router'
import './openapi'

export { assertAllowed, assertAllowedFor, activeRestrictions, restrictionsView, jurisdictionFor, RESTRICTION_PRIORITY } from './restrictions'

export const regulationModule: ServerModule = {
  name: 'regulation',
  mount(app, deps) {
    app.use(GATEWAY.mobile, createRegulationRouter(deps))
  },
}
