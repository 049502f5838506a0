/**
 * Locale change (spec §2): a locale change reloads the page with the code in the path; from the
 * language page it then goes to account settings, for a punter who may see them (a guest stays).
 */
import type { Result } from '../../kernel/core/contracts'
import { defineAction, type ActionEnvironment } from './registry'
import { definitions } from '../../kernel/actions/locale'

const MOBILE_GATE = '/mobile-gate/api/v1'

/** The language page, and where a locale change made there lands. */
export const LANGUAGE_PAGE = '/account/language'
export const AFTER_LANGUAGE_PAGE = '/account/settings'

/** Whether the punter may open a route: a login-only screen is not for a guest (issue 31: a guest
 * changing language on the language page stays there, in the new language, instead of landing on
 * account settings' login sheet). */
function canSee(path: string, env: ActionEnvironment): boolean {
  const entry = env.stores.site.getState().bootstrap?.routes.find((r) => r.route === path)
  return entry !== undefined && (!entry.login || Boolean(env.stores.session.getState().accessToken))
}

/** Checks the locale against the site's, then reloads on the localised path. */
async function switchLocale(locale: string, env: ActionEnvironment): Promise<Result<unknown>> {
  const { bootstrap, locale: current } = env.stores.site.getState()
  const allowed = bootstrap?.site.locales ?? [current]
  if (!allowed.includes(locale)) return { ok: false, code: 'LOCALE_NOT_ALLOWED', message: locale }
  const route = env.stores.route.getState()
  const path = route.path === LANGUAGE_PAGE && canSee(AFTER_LANGUAGE_PAGE, env) ? AFTER_LANGUAGE_PAGE : route.path || '/'
  const search = path === route.path ? new URLSearchParams(route.query).toString() : ''
  const url = `/${locale}${path === '/' ? '' : path}${search ? `?${search}` : ''}`
  env.stores.settings.getState().setServerSettings({ locale })
  // a punter's language is a server-side setting (spec §3): it follows them to other devices.
  // A failed save still switches this page; the next login here restores the saved one.
  if (env.stores.session.getState().accessToken) await env.gateway.call('PUT', `${MOBILE_GATE}/punter/settings`, { locale })
  env.reload(url)
  return { ok: true, value: url }
}

export const localeSet = defineAction(definitions, {
  name: 'locale.set',
  handler: ({ locale }, env) => switchLocale(locale, env),
})

export const localeActions = [localeSet]
