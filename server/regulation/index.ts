/**
 * The regulation module (responsible gambling): self-exclusion, restrictions, reality check,
 * regulation alerts and Spain's session reminder. Other parts call `assertAllowed` from
 * ./restrictions before a deposit, a bet or a game launch.
 */
import type { ServerModule } from '../module'
import { GATEWAY } from '../deps'
import { createRealityCheckRouter, createRegulationRouter } from './router'
import { mountDevClock } from './dev-clock'

export { raiseRegulationAlert } from './alerts'
export { assertAllowed, assertAllowedFor, activeRestrictions, restrictionsView, jurisdictionFor, RESTRICTION_PRIORITY } from './restrictions'

/** The casino and live casino gates (spec §7: per-product game gateways) the reality check lives under. */
export const GAME_GATES = { casino: '/casino-gate/api/v1', liveCasino: '/live-casino-gate/api/v1' } as const

export const regulationModule: ServerModule = {
  name: 'regulation',
  mount(app, deps) {
    const regulation = createRegulationRouter(deps)
    app.use(GATEWAY.mobile, regulation)
    // the same public policy for screen data sources (which read /api/ only)
    app.get('/api/regulation/options', (req, res, next) => {
      req.url = '/self-exclude/options'
      regulation(req, res, next)
    })
    const realityCheck = createRealityCheckRouter(deps)
    app.use(GAME_GATES.casino, realityCheck)
    app.use(GAME_GATES.liveCasino, realityCheck)
    if (deps.config.development) mountDevClock(app, deps.devClock)
  },
}
