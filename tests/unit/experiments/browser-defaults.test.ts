/**
 * Browser defaults without injection: window.localStorage, document.cookie, navigator.userAgent and
 * the global fetch (jsdom stands in for the browser).
 */
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { Sigma } from '../../../kernel/experiments/client'
import { MESSAGES, STORAGE_KEYS } from '../../../kernel/experiments/constants'

const require = createRequire(import.meta.url)
const { JSDOM } = require('jsdom') as {
  JSDOM: new (html: string, options: { url: string }) => { window: { localStorage: Storage; document: Document; navigator: Navigator } }
}

const globals = globalThis as Record<string, unknown>
const saved = { localStorage: globals.localStorage, document: globals.document, navigator: Object.getOwnPropertyDescriptor(globalThis, 'navigator') }

function browser(cookie = '') {
  const dom = new JSDOM('<html></html>', { url: 'https://parlay.example/casino/lobby' })
  if (cookie) dom.window.document.cookie = cookie
  globals.localStorage = dom.window.localStorage
  globals.document = dom.window.document
  Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true })
  return dom.window
}

afterEach(() => {
  globals.localStorage = saved.localStorage
  globals.document = saved.document
  if (saved.navigator) Object.defineProperty(globalThis, 'navigator', saved.navigator)
})

describe('in the browser the client uses localStorage, document.cookie and navigator.userAgent', () => {
  it('stores its private id in window.localStorage under the spec key', () => {
    const window = browser()
    const sigma = new Sigma({ token: 'parlay-web-demo-token', api: '/experiments/api' })
    expect(window.localStorage.getItem(STORAGE_KEYS.privateId)).toBe(sigma.privateId)
    expect(sigma.userAgent).toBe(window.navigator.userAgent.slice(0, 350))
  })
  it("the sigma_disabled cookie stops it: 'Sigma was disabled'", () => {
    browser('sigma_disabled=1')
    expect(() => new Sigma({ token: 'parlay-web-demo-token', api: '/experiments/api' })).toThrow(MESSAGES.disabled)
  })
})
