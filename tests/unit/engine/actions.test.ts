import { beforeEach, describe, expect, it, vi } from 'vitest'
import { buildContext } from '../../../engine/core/context'
import { createEngineStores } from '../../../engine/core/stores'
import { actionCatalogue, actionRegistry, registerAllActions, runChain } from '../../../engine/actions'
import type { ActionChain } from '../../../kernel/documents/types'
import { POPUP_ANIMATION_NAMES } from '../../../engine/actions/popup'
import { POPUP_ANIMATIONS } from '../../../kernel/documents/kinds'
import { siteBootstrap, testEnv } from './helpers'

// the page's registry, filled as the browser runtime fills it (nothing registers by being imported)
registerAllActions()

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

const run = (chain: ActionChain, setup: Parameters<typeof testEnv>[0] = {}) => {
  const t = testEnv(setup)
  return { t, done: runChain(chain, t.env, () => buildContext(t.stores), actionRegistry) }
}

describe('nav.go (spec §2: a locale prefix is added to navigated paths)', () => {
  it('adds the prefix when the current locale is not the site default', async () => {
    const stores = createEngineStores({ site: siteBootstrap(), locale: 'en' })
    const { t, done } = run([{ do: 'nav.go', with: { to: '/casino/lobby' } }], { stores })
    await done
    expect(t.navigate).toHaveBeenCalledWith('/en/casino/lobby', { replace: undefined })
  })

  it('keeps bare paths on the default locale with a bare URL', async () => {
    const { t, done } = run([{ do: 'nav.go', with: { to: '/casino/lobby', replace: true } }])
    await done
    expect(t.navigate).toHaveBeenCalledWith('/casino/lobby', { replace: true })
  })

  it('keeps the prefix when the current URL already carries one, and appends the query', async () => {
    const { t, done } = run([{ do: 'nav.go', with: { to: '/account/deposit', query: { isAfterSignUp: true } } }], { pathname: '/ru/sport' })
    await done
    expect(t.navigate).toHaveBeenCalledWith('/ru/account/deposit?isAfterSignUp=true', { replace: undefined })
  })
})

describe('nav.back (spec §2)', () => {
  it('back goes to the history step if one exists', async () => {
    const { t, done } = run([{ do: 'nav.back', with: { to: '/account/settings' } }], { canGoBack: true })
    await done
    expect(t.back).toHaveBeenCalledOnce()
    expect(t.navigate).not.toHaveBeenCalled()
  })

  it('otherwise to the given path', async () => {
    const { t, done } = run([{ do: 'nav.back', with: { to: '/account/settings' } }])
    await done
    expect(t.back).not.toHaveBeenCalled()
    expect(t.navigate).toHaveBeenCalledWith('/account/settings', { replace: true })
  })

  it('otherwise to the root', async () => {
    const { t, done } = run([{ do: 'nav.back' }])
    await done
    expect(t.navigate).toHaveBeenCalledWith('/', { replace: true })
  })
})

describe('nav.forward (spec §2: forward likewise)', () => {
  it('forward goes to the history step forward if one exists', async () => {
    const { t, done } = run([{ do: 'nav.forward', with: { to: '/account/settings' } }], { canGoForward: true })
    await done
    expect(t.forward).toHaveBeenCalledOnce()
    expect(t.navigate).not.toHaveBeenCalled()
  })

  it('otherwise to the given path, else the root, replacing the entry', async () => {
    const first = run([{ do: 'nav.forward', with: { to: '/account/settings' } }], { canGoBack: true })
    await first.done
    expect(first.t.forward).not.toHaveBeenCalled()
    expect(first.t.back).not.toHaveBeenCalled()
    expect(first.t.navigate).toHaveBeenCalledWith('/account/settings', { replace: true })
    const second = run([{ do: 'nav.forward' }])
    await second.done
    expect(second.t.navigate).toHaveBeenCalledWith('/', { replace: true })
  })
})

describe('popup.open / popup.close (spec §3 Popup)', () => {
  it('pushes popups on the stack and closes the top one, one by id, or all', async () => {
    const t = testEnv()
    const ctx = () => buildContext(t.stores)
    await runChain([{ do: 'popup.open', with: { id: 'login' } }, { do: 'popup.open', with: { id: 'confirm', params: { a: 1 }, animation: 'fade' } }], t.env, ctx)
    expect(t.stores.ui.getState().popups).toEqual([
      { id: 'login', type: 'default', stack: true, params: {}, isCloseable: true, isFrozen: false },
      { id: 'confirm', type: 'default', stack: true, params: { a: 1 }, isCloseable: true, isFrozen: false, animation: 'fade' },
    ])
    await runChain([{ do: 'popup.close' }], t.env, ctx)
    expect(t.stores.ui.getState().popups.map((p) => p.id)).toEqual(['login'])
    await runChain([{ do: 'popup.open', with: { id: 'info' } }, { do: 'popup.close', with: { id: 'login' } }], t.env, ctx)
    expect(t.stores.ui.getState().popups.map((p) => p.id)).toEqual(['info'])
    await runChain([{ do: 'popup.open', with: { id: 'result' } }, { do: 'popup.close', with: { all: true } }], t.env, ctx)
    expect(t.stores.ui.getState().popups).toEqual([])
  })

  it('knows exactly the popup animations of the popup schema (slide-fade, slide, fade)', () => {
    expect(POPUP_ANIMATION_NAMES).toBe(POPUP_ANIMATIONS)
    expect([...POPUP_ANIMATIONS]).toEqual(['slide-fade', 'slide', 'fade'])
  })

  it('an unknown animation is refused', async () => {
    const { done } = run([{ do: 'popup.open', with: { id: 'x', animation: 'spin' } }])
    expect(await done).toMatchObject({ ok: false, code: 'INVALID_PARAMS' })
  })
})

describe('notify (spec §3 Notification, §9 default 8000 ms)', () => {
  it('shows a notification with the default duration of 8000 ms', async () => {
    const { t, done } = run([{ do: 'notify', with: { message: 'registration.success', status: 'success' } }])
    await done
    expect(t.stores.ui.getState().notifications).toEqual([{ uid: expect.any(String), id: 'registration.success', status: 'success', duration: 8000 }])
  })
})

describe('locale.set (spec §2: a locale change reloads the page with the code in the path)', () => {
  it('reloads on the current path with the new code', async () => {
    const t = testEnv()
    t.stores.route.getState().setRoute({ path: '/casino/lobby', query: { tab: 'new' } })
    await runChain([{ do: 'locale.set', with: { locale: 'en' } }], t.env, buildContext(t.stores))
    expect(t.reload).toHaveBeenCalledWith('/en/casino/lobby?tab=new')
    expect(t.stores.settings.getState().server.locale).toBe('en')
  })

  // the settings screen as the site bootstrap lists it: login-only, like the real document
  const withSettings = () =>
    createEngineStores({ site: { ...siteBootstrap(), routes: [{ screen: 'account-settings', route: '/account/settings', section: 'account', login: true }, { screen: 'account-language', route: '/account/language', section: 'account', login: false }] }, locale: 'ru' })

  it('from the language page it then goes to account settings, for a punter', async () => {
    const t = testEnv({ stores: withSettings() })
    t.stores.session.getState().setSession({ accessToken: 'at-1' })
    t.stores.route.getState().setRoute({ path: '/account/language' })
    await runChain([{ do: 'locale.set', with: { locale: 'en' } }], t.env, buildContext(t.stores))
    expect(t.reload).toHaveBeenCalledWith('/en/account/settings')
  })

  it('a guest, who cannot see account settings, stays on the language page in the new language', async () => {
    const t = testEnv({ stores: withSettings() })
    t.stores.route.getState().setRoute({ path: '/account/language' })
    await runChain([{ do: 'locale.set', with: { locale: 'en' } }], t.env, buildContext(t.stores))
    expect(t.reload).toHaveBeenCalledWith('/en/account/language')
  })

  it('a locale the site does not offer is refused with LOCALE_NOT_ALLOWED', async () => {
    const { t, done } = run([{ do: 'locale.set', with: { locale: 'de' } }])
    expect(await done).toMatchObject({ ok: false, code: 'LOCALE_NOT_ALLOWED' })
    expect(t.reload).not.toHaveBeenCalled()
  })
})

describe('the action catalogue (for schema-lint and editors)', () => {
  it('lists every built-in action with its description and params schema', () => {
    expect(Object.keys(actionCatalogue)).toEqual(expect.arrayContaining(['locale.set', 'nav.back', 'nav.go', 'notify', 'popup.close', 'popup.open']))
    expect(actionCatalogue['nav.go'].params.required).toEqual(['to'])
    for (const entry of Object.values(actionCatalogue)) expect(entry.description.length).toBeGreaterThan(10)
  })
})
