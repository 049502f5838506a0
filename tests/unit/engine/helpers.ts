/**
 * Test helpers: compiled expressions (through the server's compiler, as served documents carry
 * them), an in-memory storage, a fake fetch, a site bootstrap and an action environment.
 */
import { vi } from 'vitest'
import { compileExpression } from '../../../tools/schema-lint/documents/cel-compiler'
import type { CompiledExpression } from '../../../kernel/core/expression'
import type { SiteBootstrap } from '../../../kernel/core/contracts'
import { createEngineStores, type EngineStores, type StorageLike } from '../../../engine/core/stores'
import { createI18n } from '../../../engine/core/i18n'
import type { ActionDefinition, ActionEnvironment, ParamSchema, ParamsOf } from '../../../engine/actions/registry'
import type { Result } from '../../../kernel/core/contracts'
import type { DocumentClient } from '../../../engine/core/documents'
import type { Gateway } from '../../../engine/core/gateway'

export function cel(source: string): CompiledExpression {
  const result = compileExpression(source)
  if (!result.ok) throw new Error(result.error)
  return result.expression
}

export function memoryStorage(initial: Record<string, string> = {}): StorageLike & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial))
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  }
}

export function siteBootstrap(overrides: Partial<SiteBootstrap['site']> = {}): SiteBootstrap {
  return {
    site: {
      id: 'russia',
      jurisdiction: 'russia',
      name: 'Parlay Russia',
      defaultLocale: 'ru',
      locales: ['ru', 'en'],
      currency: 'RUB',
      minimumAge: 18,
      mainProduct: 'sport',
      development: true,
      ...overrides,
    },
    remoteConfig: { NULL_BALANCE_POPUP_TIMEOUT: 3600 },
    routes: [],
    documentsVersion: 'v1',
    version: '1.22.0',
  }
}

export interface FakeResponse {
  status: number
  body?: unknown
  etag?: string
  raw?: string
}

export function response({ status, body, etag, raw }: FakeResponse): Response {
  const headers = new Headers()
  if (etag) headers.set('etag', etag)
  return new Response(status === 304 || status === 204 ? null : (raw ?? (body === undefined ? '' : JSON.stringify(body))), { status, headers })
}

export function testEnv(options: { stores?: EngineStores; canGoBack?: boolean; canGoForward?: boolean; pathname?: string } = {}) {
  const stores = options.stores ?? createEngineStores({ site: siteBootstrap(), locale: 'ru' })
  const navigate = vi.fn()
  const back = vi.fn()
  const forward = vi.fn()
  const reload = vi.fn()
  const env: ActionEnvironment = {
    stores,
    gateway: { call: vi.fn() } as unknown as Gateway,
    documents: {} as DocumentClient,
    i18n: createI18n({ locale: 'en', resources: {} }),
    navigate,
    history: { length: options.canGoBack ? 2 : 1, canGoBack: () => options.canGoBack === true, back, canGoForward: () => options.canGoForward === true, forward },
    reload,
    now: () => 1_700_000_000_000,
    platform: 'web',
    currentPathname: () => options.pathname ?? '/',
  }
  return { env, stores, navigate, back, forward, reload }
}

/**
 * A test double of an action with its own definition (the product's actions are defined in
 * kernel/actions/ and implemented with defineAction; these exist only in tests).
 */
export function testAction<const S extends ParamSchema>(definition: {
  name: string
  description: string
  params: S
  handler: (params: ParamsOf<S>, env: ActionEnvironment) => Promise<Result<unknown>>
}): ActionDefinition<ParamsOf<S>> {
  return definition as unknown as ActionDefinition<ParamsOf<S>>
}
