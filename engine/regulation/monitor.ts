/**
 * While a punter is logged in, the page keeps the responsible-gambling reminders (issue 13):
 * - reality check: in casino or live casino, asks `realitycheck/check` on entering and every 10 s;
 *   a due reminder opens the reality-check-session popup with the time played;
 * - entering casino or live casino runs the after-login rules marked `with.onEnter` for that
 *   section (once per login, once the feature flags are known), so entering casino after login
 *   works as logging in there;
 * - regulation alerts: asked after login and every minute; an unconfirmed one opens its popup;
 * - Spain's session reminder (where the jurisdiction document turns it on): asked every 15 s and
 *   on each navigation; NEED_TO_CONFIRM_SESSION opens the Spain session reminder.
 * Framework-free: timers and the clock are injected, so unit tests drive it without waiting.
 */
import type { Result } from '../../kernel/core/contracts'
import type { EngineStores } from '../core/stores'
import type { AfterLoginRule } from '../auth/after-login'
import { isOpen, showRegulationAlert, type RegulationAlertInfo } from './alert'

export type { RegulationAlertInfo }

export const MOBILE_GATE = '/mobile-gate/api/v1'
export const GAME_GATES: Record<string, string> = { casino: '/casino-gate/api/v1', 'live-casino': '/live-casino-gate/api/v1' }
export const REALITY_CHECK_EVERY_MS = 10_000
export const SESSION_REMINDER_EVERY_MS = 15_000
export const ALERTS_EVERY_MS = 60_000
const TICK_MS = 5_000

export interface MonitorDeps {
  stores: EngineStores
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Result<T>>
  /** The site's jurisdiction document (afterLogin rules, regulatory block). */
  jurisdiction(): Promise<{ afterLogin?: AfterLoginRule[]; regulatory?: Record<string, unknown> } | undefined>
  /** Runs these after-login rules now (engine/auth/after-login runAfterLogin). */
  runRules(rules: AfterLoginRule[]): Promise<void>
  now(): number
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

interface Memory {
  punter: string | null
  lastReality: number
  lastSession: number
  lastAlert: number
  entered: Set<string>
  section: string
  path: string
}

/** The signed-in punter's id, or null while no one is signed in. */
function punterIdOf(stores: MonitorDeps['stores']): string | null {
  const user = stores.user.getState().data
  return stores.session.getState().accessToken && user ? String(user.punterToken ?? user.user?.id ?? '') : null
}

export function startRegulationMonitor(deps: MonitorDeps): () => void {
  const { stores } = deps
  const memory: Memory = { punter: null, lastReality: -Infinity, lastSession: -Infinity, lastAlert: -Infinity, entered: new Set(), section: '', path: '' }
  let running = false

  async function realityCheck(section: string, now: number) {
    const gate = GAME_GATES[section]
    if (!gate || now - memory.lastReality < REALITY_CHECK_EVERY_MS) return
    memory.lastReality = now
    const check = await deps.call<{ remind: boolean; hours: number; minutes: number }>('GET', `${gate}/realitycheck/check`)
    if (check.ok && check.value.remind && !isOpen(stores, 'reality-check-session'))
      stores.ui.getState().openPopup({ id: 'reality-check-session', params: { hours: check.value.hours, minutes: check.value.minutes, gate }, isCloseable: false })
  }

  async function enterSection(section: string, rules: AfterLoginRule[]) {
    if (memory.entered.has(section)) return
    memory.entered.add(section)
    const onEnter = rules.filter((rule) => Array.isArray(rule.with?.onEnter) && rule.with.onEnter.includes(section))
    if (onEnter.length > 0) await deps.runRules(onEnter)
  }

  async function alerts(now: number) {
    if (now - memory.lastAlert < ALERTS_EVERY_MS) return
    memory.lastAlert = now
    const info = await deps.call<{ notificationInfo: RegulationAlertInfo }>('GET', `${MOBILE_GATE}/regulation/punter/alerts/notification/info`)
    if (info.ok) showRegulationAlert(stores, info.value.notificationInfo)
  }

  async function sessionReminder(now: number, navigated: boolean, regulatory: Record<string, unknown> | undefined) {
    if (regulatory?.sessionReminder !== true) return
    if (!navigated && now - memory.lastSession < SESSION_REMINDER_EVERY_MS) return
    memory.lastSession = now
    const state = await deps.call<{ status: string; minutesPlayed: number }>('GET', `${MOBILE_GATE}/regulation/punter/session/notification`)
    if (state.ok && state.value.status === 'NEED_TO_CONFIRM_SESSION' && !isOpen(stores, 'spain-session-reminder'))
      stores.ui.getState().openPopup({ id: 'spain-session-reminder', params: { status: state.value.status, minutesPlayed: state.value.minutesPlayed }, isCloseable: false })
  }

  async function tick() {
    const punter = punterIdOf(stores)
    if (punter !== memory.punter) Object.assign(memory, { punter, lastReality: -Infinity, lastSession: -Infinity, lastAlert: -Infinity, entered: new Set() })
    if (!punter || running) return
    running = true
    try {
      const { section, path } = stores.route.getState()
      const navigated = path !== memory.path
      if (section !== memory.section) memory.lastReality = -Infinity
      Object.assign(memory, { section, path })
      const doc = await deps.jurisdiction()
      const now = deps.now()
      if (GAME_GATES[section]) {
        // the entry rules read feature flags (the reality-check prompt): they wait for the experiment
        // client, which loads after the first screen, or a punter who came in before it answered
        // would never be asked
        if (stores.flags.getState().loaded) await enterSection(section, doc?.afterLogin ?? [])
        await realityCheck(section, now)
      }
      await alerts(now)
      await sessionReminder(now, navigated, doc?.regulatory)
    } finally {
      running = false
    }
  }

  const run = () => void tick().catch(() => undefined)
  const timer = deps.setInterval(run, TICK_MS)
  const stopRoute = stores.route.subscribe(run)
  const stopUser = stores.user.subscribe(run)
  const stopFlags = stores.flags.subscribe(run)
  run()
  return () => {
    deps.clearInterval(timer)
    stopRoute()
    stopUser()
    stopFlags()
  }
}
