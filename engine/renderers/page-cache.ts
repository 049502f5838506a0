/**
 * The page's client cache (engine/core/client-cache.ts): one per page, in front of the gateway
 * reads of engine/core/cached-gateway.ts. What the punter's session holds goes with the session:
 * a login, a logout or another punter's session empties the punter namespaces (bets, default);
 * the punter socket's bet events empty `bets` (engine/renderers/punter-bets.ts).
 */
import { createClientCache, type ClientCache } from '../core/client-cache'
import { cachedGateway } from '../core/cached-gateway'
import type { Gateway } from '../core/gateway'
import type { EngineStores } from '../core/stores'

let cache: ClientCache | undefined

export function pageCache(): ClientCache {
  return (cache ??= createClientCache({ now: () => Date.now() }))
}

/** The gateway through the page cache; `scope` is what answers also depend on (site, locale). */
export function pageCachedGateway(gateway: Gateway, scope: () => string, stores?: EngineStores): Gateway {
  const cached = cachedGateway(gateway, pageCache(), scope)
  if (stores) {
    let token = stores.session.getState().accessToken
    stores.session.subscribe((state) => {
      if (state.accessToken === token) return
      // a refreshed token of the same session keeps nothing stale either: emptied all the same
      token = state.accessToken
      pageCache().clear('bets')
      pageCache().clear('default')
    })
  }
  return cached
}
