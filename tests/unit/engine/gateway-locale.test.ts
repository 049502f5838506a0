/**
 * The gateway tells the server the page's language (Accept-Language), not the browser's: a punter
 * with no saved language gets the page's as the default, so after login the texts, money and dates
 * stay in one locale (the census found Spanish pages with "€150.00" after an English browser logged in).
 */
import { describe, expect, it, vi } from 'vitest'
import { createGateway } from '../../../engine/core/gateway'
import { createEngineStores } from '../../../engine/core/stores'
import { response, siteBootstrap } from './helpers'

describe('gateway language', () => {
  it("every gateway call carries the page's locale as Accept-Language", async () => {
    const stores = createEngineStores({ site: siteBootstrap(), locale: 'be' })
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => response({ status: 200, body: { status: 'OK', payload: null } }))
    await createGateway({ fetch, stores }).call('GET', '/mobile-gate/api/v1/heartbeat')
    expect((fetch.mock.calls[0][1]?.headers as Record<string, string>)['accept-language']).toBe('be')
  })
})
