/**
 * A jsdom window for the file's tests (renderers rendered with react-dom, act() enabled), removed
 * after them: call `useJsdom()` at the top of a test file.
 */
import { createRequire } from 'node:module'
import { afterAll, beforeAll } from 'vitest'

const require = createRequire(import.meta.url)
const { JSDOM } = require('jsdom') as { JSDOM: new (html: string) => { window: Window & typeof globalThis } }
const globals = globalThis as Record<string, unknown>

export function useJsdom(): void {
  beforeAll(() => {
    const { window } = new JSDOM('<html><body></body></html>')
    globals.window = window
    globals.document = window.document
    globals.IS_REACT_ACT_ENVIRONMENT = true
  })
  afterAll(() => {
    delete globals.window
    delete globals.document
    delete globals.IS_REACT_ACT_ENVIRONMENT
  })
}
