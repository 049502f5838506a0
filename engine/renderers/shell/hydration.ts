/**
 * Before the browser hydrates a page the server rendered (web/main.tsx: a page with a server-rendered
 * form, issue 10), two things the server's markup and React's first render must agree on.
 */
import { consentStore } from '../../core/consent'
import type { EngineStores } from '../../core/stores'

export function prepareHydration(container: HTMLElement, stores: EngineStores): void {
  // the server marks its buttons inert until React takes over (engine/ssr.tsx);
  // hydration keeps attributes it does not render, so they go first
  for (const button of container.querySelectorAll('button[aria-disabled="true"]')) button.removeAttribute('aria-disabled')
  // While hydrating, React reads a store through its server snapshot, which zustand's useStore
  // answers with the store's state at creation. The stores the boot fills from the page's own boot
  // data (the site, the screen's data, the visitor's experiment groups, the consent cookie) hold what
  // the server rendered from only after creation, so hydration must see their current state (else:
  // the consent banner and the screen's data missing, a mismatch). Browser-only state (a stored
  // session, settings, flags) keeps its creation state for hydration, as the server had it, and
  // React re-renders with the current one right after.
  for (const store of [stores.site, stores.screenData, stores.experiments, consentStore(stores)]) store.getInitialState = store.getState
}
