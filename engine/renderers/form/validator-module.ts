/**
 * Loads a flow's precompiled validator module: `GET /api/flows/{id}/validator` names the
 * content-hashed module for this site, then a native dynamic `import()` of that same-origin URL
 * (allowed by `script-src 'self'`; no eval, no schema compilation in the browser).
 */
import type { ValidatorFunctions } from '@rjsf/validator-ajv8/lib/types.js'
import { documentHeaders } from '../../core/documents'
import type { EngineStores } from '../../core/stores'

export interface ValidatorModule {
  flow: string
  /** Normalized step schemas by step id, with `$id`: render these, not the document's copies. */
  schemas: Record<string, Record<string, unknown>>
  validators: ValidatorFunctions
}

const modules = new Map<string, Promise<ValidatorModule>>()

function isValidatorModule(value: unknown): value is ValidatorModule {
  const m = value as ValidatorModule | null
  return !!m && typeof m.flow === 'string' && typeof m.schemas === 'object' && typeof m.validators === 'object'
}

/** Imports a module URL once per page. */
export function importValidatorModule(url: string): Promise<ValidatorModule> {
  let pending = modules.get(url)
  if (!pending) {
    pending = (import(/* @vite-ignore */ url) as Promise<unknown>).then((m) => {
      if (!isValidatorModule(m)) throw new Error(`${url} is not a validator module`)
      return m
    })
    pending.catch(() => modules.delete(url))
    modules.set(url, pending)
  }
  return pending
}

/** Asks the server which module validates `flowId` for this site, then imports it. */
export async function loadValidatorModule(flowId: string, stores: EngineStores, fetchImpl: typeof fetch = fetch): Promise<ValidatorModule> {
  const { bootstrap, locale } = stores.site.getState()
  const headers: Record<string, string> = { accept: 'application/json', ...documentHeaders('web', bootstrap) }
  // An admin's draft preview (the page's `?preview=`): the draft's step schemas, not the published ones.
  const preview = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('preview')
  const params = new URLSearchParams({ ...(locale ? { locale } : {}), ...(preview ? { preview } : {}) }).toString()
  const query = params ? `?${params}` : ''
  const response = await fetchImpl(`/api/flows/${encodeURIComponent(flowId)}/validator${query}`, { headers, credentials: 'same-origin' })
  if (!response.ok) throw new Error(`validator for ${flowId}: HTTP ${response.status}`)
  const body = (await response.json()) as { url?: unknown }
  if (typeof body.url !== 'string' || !body.url.startsWith('/api/validators/')) throw new Error(`validator for ${flowId}: bad answer`)
  return importValidatorModule(body.url)
}
