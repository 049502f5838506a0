/**
 * Starts the page's responsible-gambling monitor (engine/regulation/monitor.ts) once per page. Its
 * own file so the auth controller (actions/auth.ts), which starts it when it is created, does not
 * import actions/regulation.ts, whose actions go through the auth controller.
 */
import { runAfterLogin, type AfterLoginRule } from '../auth/after-login'
import { startRegulationMonitor } from '../regulation/monitor'
import type { JurisdictionDocument } from '../../kernel/documents/types'
import type { ActionEnvironment } from './registry'
import { pageLocalStorage } from '../core/web-storage'

const monitors = new WeakSet<object>()

const browserStorage = pageLocalStorage

/** Starts the regulation monitor of this page once (called when the auth controller is created). */
export function ensureRegulationMonitor(env: ActionEnvironment): void {
  if (monitors.has(env.stores) || typeof window === 'undefined') return
  monitors.add(env.stores)
  const jurisdiction = async () => {
    const site = env.stores.site.getState().bootstrap?.site
    if (!site) return undefined
    const doc = await env.documents.load<JurisdictionDocument>('jurisdiction', site.jurisdiction)
    return doc.ok ? (doc.value.document as { afterLogin?: AfterLoginRule[]; regulatory?: Record<string, unknown> }) : undefined
  }
  startRegulationMonitor({
    stores: env.stores,
    call: (method, path, body) => env.gateway.call(method, path, body),
    jurisdiction,
    runRules: async (rules) => {
      await runAfterLogin(rules, { stores: env.stores, now: () => env.now(), storage: browserStorage() })
    },
    now: () => env.now(),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    clearInterval: (handle) => window.clearInterval(handle as number),
  })
}
