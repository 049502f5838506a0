/**
 * The login redirect's target (spec §2 "Login redirect may carry parameters"): only a path of this
 * site, with its query, is followed; every shape of another site's address is refused, and a
 * refused target sends the punter home. The oracle is the browser's own URL resolution: a target
 * is safe exactly when resolving it against the site keeps the site's origin.
 */
import { describe, expect, it } from 'vitest'
import { LOGIN_REDIRECT_STORAGE_KEY, rememberLoginRedirect, safeRedirectTarget, takeLoginRedirect } from '../../../engine/core/login-redirect'

const memory = () => {
  const items = new Map<string, string>()
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k), items }
}

describe('safeRedirectTarget', () => {
  it.each([
    ['/account/deposit', '/account/deposit'],
    ['/account/deposit?method=card&amount=25', '/account/deposit?method=card&amount=25'],
    ['/ru/account/settings#odds', '/ru/account/settings#odds'],
  ])('keeps the site path %s with its query', (value, expected) => {
    expect(safeRedirectTarget(value)).toBe(expected)
    expect(new URL(value, 'https://site.test').origin).toBe('https://site.test')
  })

  it.each(['https://evil.example/x', 'http://evil.example', '//evil.example/x', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', ' /account', '/account\n', '', 'account/deposit', '/login', '/ru/login'])(
    'refuses %j',
    (value) => {
      expect(safeRedirectTarget(value)).toBeNull()
    },
  )

  it('agrees with the browser\'s resolution: every refused absolute shape leaves the site', () => {
    for (const value of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) expect(new URL(value, 'https://site.test').origin).not.toBe('https://site.test')
  })
})

describe('remember and take', () => {
  it('keeps a safe target once; a refused one is kept as home; no parameter clears', () => {
    const storage = memory()
    expect(rememberLoginRedirect(storage, '/account/deposit?method=card')).toBe('/account/deposit?method=card')
    expect(takeLoginRedirect(storage)).toBe('/account/deposit?method=card')
    expect(takeLoginRedirect(storage)).toBeNull()
    expect(rememberLoginRedirect(storage, '//evil.example')).toBe('/')
    expect(takeLoginRedirect(storage)).toBe('/')
    rememberLoginRedirect(storage, '/account/settings')
    rememberLoginRedirect(storage, undefined)
    expect(storage.items.has(LOGIN_REDIRECT_STORAGE_KEY)).toBe(false)
  })

  it('checks a stored value again: something else wrote it', () => {
    const storage = memory()
    storage.setItem(LOGIN_REDIRECT_STORAGE_KEY, 'https://evil.example')
    expect(takeLoginRedirect(storage)).toBe('/')
  })
})
