/**
 * The evaluation context: a read-only projection of the stores into exactly the shape declared
 * in `./context-declaration` (guests get defaults, so every declared field exists and an
 * expression that type-checked on the server never meets a missing key), plus conditions and
 * bindings evaluated against it.
 */
import type { EvaluationContext } from '../../kernel/core/context-declaration'
import { evaluate, isCompiledExpression, type CompiledExpression } from '../../kernel/core/expression'
import { currencyCode } from '../../kernel/core/format'
import { isIdentifiedState } from '../../kernel/core/identity-states'
import { report } from './report'
import { isLoggedIn, type EngineStores, type UserData } from './stores'

export type { EvaluationContext }

/** Per-evaluation extras: the form being edited, the list item being rendered, a clock. */
export interface ContextExtra {
  form?: Record<string, unknown>
  item?: unknown
  now?: number
  platform?: string
  data?: Record<string, unknown>
}

const num = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN
  return Number.isFinite(n) ? n : 0
}
const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value))

/**
 * The account's currency, chosen at sign-up (the heartbeat's user.account.currency): every amount a
 * logged-in punter reads is in it. Never the site's default (issue 28: a Curaçao punter paying in
 * EUR saw $): without one the amount shows with no sign rather than a wrong one.
 */
export function accountCurrency(userData: UserData | null): string {
  return currencyCode(userData?.user?.account?.currency) ?? currencyCode(userData?.balanceInfo?.currency) ?? ''
}

/** Builds the context documents' expressions see. Cheap enough to call per render. */
export function buildContext(stores: EngineStores, extra: ContextExtra = {}): EvaluationContext {
  const site = stores.site.getState()
  const bootstrap = site.bootstrap
  const session = stores.session.getState()
  const userData = stores.user.getState().data
  const settings = stores.settings.getState()
  const route = stores.route.getState()
  const details = userData?.punterInfo?.details
  return {
    site: {
      id: bootstrap?.site.id ?? '',
      jurisdiction: bootstrap?.site.jurisdiction ?? '',
      locale: site.locale,
      defaultLocale: bootstrap?.site.defaultLocale ?? site.locale,
      locales: bootstrap ? [...bootstrap.site.locales] : [site.locale],
      platform: extra.platform ?? 'web',
      currency: bootstrap?.site.currency ?? '',
      development: bootstrap?.site.development ?? false,
      loyaltyCampaign: bootstrap?.site.loyaltyCampaign === true,
      // every page carries its site's bootstrap; 0 only in a bare engine without one
      minimumAge: bootstrap?.site.minimumAge ?? 0,
    },
    session: {
      loggedIn: isLoggedIn(session),
      status: session.status ?? 'guest',
      expiresAt: num(session.expireTokenTime),
    },
    user: {
      id: str(userData?.user?.id),
      accountNumber: str(userData?.user?.account?.accountNumber),
      firstName: str(details?.firstName),
      nickname: str(details?.nickname),
      state: str(userData?.punterInfo?.state),
      balance: num(userData?.balanceInfo?.mainBalance),
      withdrawable: num(userData?.balanceInfo?.withdrawable),
      currency: accountCurrency(userData),
      countryCode: str(details?.address?.countryCode),
      vip: userData?.vip === true,
      legalAgreementAccepted: userData?.legalAgreementAccepted === true,
      hasDeposited: Boolean(userData?.firstDepositDate),
      identified: isIdentifiedState(str(userData?.punterIdentityState)),
      unreadMessages: num((userData?.inboxStatistics as { unreadMessagesCount?: unknown } | undefined)?.unreadMessagesCount),
    },
    settings: {
      locale: settings.server.locale || site.locale,
      oddsType: settings.server.oddsType,
      showCurrentBalance: settings.server.showCurrentBalance,
      showVipStatusAvatar: settings.server.showVipStatusAvatar === true,
      isAnimationsActive: settings.local.isAnimationsActive,
      showVipStatusAppIcon: settings.server.showVipStatusAppIcon === true,
      timeZoneAutoDetect: settings.local.timeZoneAutoDetect !== false,
      isQuickBetEnable: settings.local.isQuickBetEnable === true,
    },
    remoteConfig: { ...(bootstrap?.remoteConfig ?? {}) },
    flags: { ...stores.flags.getState().values },
    experiments: { ...stores.experiments.getState().values },
    route: { path: route.path, section: route.section, params: { ...route.params }, query: { ...route.query } },
    data: { ...stores.screenData.getState().data, ...(extra.data ?? {}) },
    form: extra.form ?? {},
    item: extra.item ?? null,
    now: extra.now ?? Date.now(),
  }
}

/** A context with every declared field at its guest default (tests, previews, first render). */
export function emptyContext(): EvaluationContext {
  return buildContext(
    {
      site: { getState: () => ({ bootstrap: null, locale: 'en' }) },
      session: { getState: () => ({ accessToken: null, expireTokenTime: null }) },
      user: { getState: () => ({ data: null }) },
      settings: { getState: () => ({ server: { locale: 'en', oddsType: 'decimal', showCurrentBalance: true, showVipStatusAvatar: false }, local: { isAnimationsActive: true, timeZoneAutoDetect: true, isQuickBetEnable: false } }) },
      route: { getState: () => ({ path: '/', section: 'sport', params: {}, query: {} }) },
      flags: { getState: () => ({ values: {} }) },
      experiments: { getState: () => ({ values: {} }) },
      screenData: { getState: () => ({ data: {} }) },
    } as unknown as EngineStores,
    { now: 0 },
  )
}

/** Evaluates one expression; source strings cannot run in the browser (the server compiles them),
 * so they are reported and yield `{ ok: false }`. */
export function evaluateExpression(expression: unknown, ctx: EvaluationContext): { ok: true; value: unknown } | { ok: false } {
  if (!isCompiledExpression(expression)) {
    report({ kind: 'expression', message: 'expression is not compiled', detail: expression })
    return { ok: false }
  }
  const result = evaluate(expression as CompiledExpression, ctx)
  if (!result.ok) {
    report({ kind: 'expression', message: result.error, detail: expression.cel })
    return { ok: false }
  }
  return result
}

/** A `when`/`enabled` condition: absent → true; an evaluation error → false (reported). Only a
 * real `true` counts, so a mistyped expression never shows a thing by accident. */
export function evaluateCondition(expression: unknown, ctx: EvaluationContext): boolean {
  if (expression === undefined || expression === null) return true
  const result = evaluateExpression(expression, ctx)
  return result.ok && result.value === true
}

/** Is this value a binding `{"$": expression}`? */
export function isBinding(value: unknown): value is { $: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$' in value && Object.keys(value).length === 1
}

/** Deep-copies `value`, replacing every `{"$": expression}` with its value (undefined when the
 * expression fails; reported). Plain values pass through unchanged. */
export function resolveBindings<T = unknown>(value: T, ctx: EvaluationContext): unknown {
  if (isBinding(value)) {
    const result = evaluateExpression(value.$, ctx)
    return result.ok ? result.value : undefined
  }
  if (Array.isArray(value)) return value.map((item) => resolveBindings(item, ctx))
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = resolveBindings(item, ctx)
    return out
  }
  return value
}
