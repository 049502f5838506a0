/**
 * The after-login sequence (spec §4 "After login", §5 nickname prompt and welcome offer) as data:
 * the site's jurisdiction document lists ordered rules `{id, when, popup, with}`; this evaluator
 * runs them in order against the context, so an operator reorders, adds or drops a popup without
 * a release.
 *
 * `with` understands:
 * - `params`: values (bindings allowed) handed to the popup as data.params;
 * - `remember`: a key stored for this punter on this browser when the popup opens (its value is
 *   the time), readable by later rules as data.<key> (null-balance time, welcome bonus shown,
 *   personal domain shown);
 * - `check`: a named server check that must also say yes (nicknameEnabled → GET nickname/enabled);
 * - `logout`: log out (self logout) showing this popup instead of opening it;
 * - `stop`: evaluate no further rules;
 * - `onEnter`: sections (casino, live-casino) whose entry after login runs the rule again, once per
 *   login (engine/regulation/monitor.ts), so entering casino works as logging in there.
 *
 * Rule data the context offers under `data`: everything remembered, plus personalDomain,
 * lastLoginDate, selfExcludeEndDate, legalAgreementDeclined and realityCheckAccepted from the heartbeat.
 */
import { buildContext, evaluateCondition, resolveBindings } from '../core/context'
import type { StorageLike, EngineStores, UserData } from '../core/stores'

export interface AfterLoginRule {
  id: string
  when: unknown
  popup: string
  with?: {
    params?: Record<string, unknown>
    remember?: string
    check?: string
    logout?: boolean
    stop?: boolean
    onEnter?: string[]
  }
}

export interface AfterLoginDeps {
  stores: EngineStores
  now: () => number
  storage?: StorageLike
  /** Named server checks a rule may require. */
  checks?: Record<string, () => Promise<boolean>>
  logout?: (options: { popup: string }) => Promise<void>
}

export interface AfterLoginOutcome {
  opened: string[]
  loggedOut: boolean
}

const memoryKey = (user: UserData | null) => `afterLogin.${String(user?.punterToken ?? user?.user?.id ?? 'anonymous')}`

export function readMemory(storage: StorageLike | undefined, user: UserData | null): Record<string, unknown> {
  try {
    const raw = storage?.getItem(memoryKey(user))
    const parsed = raw ? JSON.parse(raw) : {}
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

function writeMemory(storage: StorageLike | undefined, user: UserData | null, memory: Record<string, unknown>): void {
  try {
    storage?.setItem(memoryKey(user), JSON.stringify(memory))
  } catch {
    // storage unavailable: the popup may show again next time
  }
}

/** The heartbeat facts rules read under `data` (only present keys, so `has()` works). */
export function afterLoginData(user: UserData | null): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  const siteSettings = (user?.settings as { siteSettings?: { siteType?: string; personalDomain?: string | null }[] } | undefined)?.siteSettings
  const mobile = siteSettings?.find((s) => s.siteType === 'MOBILE')
  if (mobile?.personalDomain) data.personalDomain = mobile.personalDomain
  const lastLogin = (user?.user?.account as { lastLoginDate?: string | null } | undefined)?.lastLoginDate
  if (lastLogin) data.lastLoginDate = lastLogin
  const endDate = (user?.selfExcludeSettings as { endDate?: string | null } | undefined)?.endDate
  if (endDate) data.selfExcludeEndDate = endDate
  if (user?.legalAgreementDeclined === true) data.legalAgreementDeclined = true
  if ((user as { realityCheckAccepted?: unknown } | null)?.realityCheckAccepted === true) data.realityCheckAccepted = true
  return data
}

/** Records a decline locally too (spec §9 stored key: user informed about legal agreement). */
export function rememberForUser(deps: Pick<AfterLoginDeps, 'stores' | 'storage'>, key: string, value: unknown): void {
  const user = deps.stores.user.getState().data
  writeMemory(deps.storage, user, { ...readMemory(deps.storage, user), [key]: value })
}

export async function runAfterLogin(rules: readonly AfterLoginRule[] | undefined, deps: AfterLoginDeps): Promise<AfterLoginOutcome> {
  const outcome: AfterLoginOutcome = { opened: [], loggedOut: false }
  const user = deps.stores.user.getState().data
  if (!user || !Array.isArray(rules)) return outcome
  const memory = readMemory(deps.storage, user)
  for (const rule of rules) {
    const now = deps.now()
    const ctx = buildContext(deps.stores, { now, data: { ...afterLoginData(user), ...memory } })
    if (!evaluateCondition(rule.when, ctx)) continue
    const options = rule.with ?? {}
    if (options.check) {
      const check = deps.checks?.[options.check]
      if (!check || !(await check().catch(() => false))) continue
    }
    if (options.logout) {
      await deps.logout?.({ popup: rule.popup })
      outcome.loggedOut = true
      outcome.opened.push(rule.popup)
      break
    }
    const params = (resolveBindings(options.params ?? {}, ctx) ?? {}) as Record<string, unknown>
    deps.stores.ui.getState().openPopup({ id: rule.popup, params })
    outcome.opened.push(rule.popup)
    if (options.remember) {
      memory[options.remember] = now
      writeMemory(deps.storage, user, memory)
    }
    if (options.stop) break
  }
  return outcome
}
