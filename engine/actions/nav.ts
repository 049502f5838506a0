/**
 * Navigation actions (spec §2): the locale prefix is added to navigated paths; back goes to the
 * history step if one exists, otherwise to the given path or the root; forward likewise. The login
 * redirect (`/login?redirect=…`) is kept for the login and followed once it succeeds
 * (../core/login-redirect.ts: only paths of this site).
 */
import { rememberLoginRedirect, takeLoginRedirect, LOGIN_REDIRECT_PARAM } from '../core/login-redirect'
import { withLocale } from '../../kernel/core/locale-path'
import { pageSessionStorage } from '../core/web-storage'
import { defineAction, type ActionEnvironment } from './registry'
import { definitions } from '../../kernel/actions/nav'

function localise(path: string, env: ActionEnvironment): string {
  const { bootstrap, locale } = env.stores.site.getState()
  const site = { defaultLocale: bootstrap?.site.defaultLocale ?? locale, locales: bootstrap?.site.locales ?? [locale] }
  return withLocale(path, locale, site, env.currentPathname?.())
}

function withQuery(path: string, query: Record<string, unknown> | undefined): string {
  if (!query) return path
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) search.set(key, String(value))
  const text = search.toString()
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path
}

export const navGo = defineAction(definitions, {
  name: 'nav.go',
  async handler({ to, replace, query }, env) {
    if (/^https:\/\//.test(to)) {
      env.reload(withQuery(to, query))
      return { ok: true, value: to }
    }
    if (!to.startsWith('/')) return { ok: false, code: 'INVALID_PARAMS', message: `not a path: ${to}` }
    const path = withQuery(localise(to, env), query)
    env.navigate(path, { replace })
    return { ok: true, value: path }
  },
})

export const navBack = defineAction(definitions, {
  name: 'nav.back',
  async handler({ to }, env) {
    if (env.history.canGoBack()) {
      env.history.back()
      return { ok: true, value: 'back' }
    }
    const path = localise(to && to.startsWith('/') ? to : '/', env)
    env.navigate(path, { replace: true })
    return { ok: true, value: path }
  },
})

export const navForward = defineAction(definitions, {
  name: 'nav.forward',
  async handler({ to }, env) {
    if (env.history.canGoForward?.() && env.history.forward) {
      env.history.forward()
      return { ok: true, value: 'forward' }
    }
    const path = localise(to && to.startsWith('/') ? to : '/', env)
    env.navigate(path, { replace: true })
    return { ok: true, value: path }
  },
})

export const navRememberLoginRedirect = defineAction(definitions, {
  name: 'nav.rememberLoginRedirect',
  async handler(_params, env) {
    const requested = env.stores.route.getState().query[LOGIN_REDIRECT_PARAM]
    return { ok: true, value: rememberLoginRedirect(pageSessionStorage(), requested) }
  },
})

/** After a successful login: the kept login redirect, if any, under the page's locale prefix. */
export function followLoginRedirect(env: ActionEnvironment): string | null {
  const target = takeLoginRedirect(pageSessionStorage())
  if (target === null) return null
  const path = localise(target, env)
  env.navigate(path, { replace: true })
  return path
}

export const navActions = [navGo, navBack, navForward, navRememberLoginRedirect]
