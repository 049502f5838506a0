/**
 * What the router shows for a path no screen serves: the redirects document decides (spec §2
 * catch-alls such as /casino, old links such as /changepassword?token=…, affiliate links), else
 * the 404 page. The whole redirect chain is resolved at once by the same pure resolver the server
 * uses for its status, so the punter is navigated once and never bounces.
 */
import { useEffect } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { REMEMBERED_STORAGE_KEYS, resolvePath, splitLocale, type Remembered, type Resolution } from '../../core'
import { useRuntime } from '../runtime'
import { ErrorPage } from './ErrorPage'

function remember(entries: Remembered[]): void {
  for (const { key, value } of entries) {
    try {
      window.localStorage.setItem(REMEMBERED_STORAGE_KEYS[key], value)
    } catch {
      // storage disabled: the punter still lands where the link says
    }
  }
}

const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path)

function ExternalRedirect({ url }: { url: string }) {
  const runtime = useRuntime()
  useEffect(() => window.location.replace(url), [url])
  return (
    <p className="loading" aria-busy="true">
      {runtime.t('shell.loading')}
    </p>
  )
}

export function PathFallback() {
  const runtime = useRuntime()
  const location = useLocation()
  const bootstrap = runtime.stores.site.getState().bootstrap
  const { path } = splitLocale(location.pathname, bootstrap?.site.locales ?? [])
  const resolution: Resolution = bootstrap
    ? resolvePath(`${path}${location.search}`, {
        screens: bootstrap.routes.map((r) => r.route),
        redirects: bootstrap.redirects ?? [],
        remoteConfig: bootstrap.remoteConfig,
      })
    : { kind: 'unknown' }
  if (resolution.kind !== 'unknown') remember(resolution.remember)
  if (resolution.kind === 'unknown') return <ErrorPage status={404} />
  if (resolution.kind === 'external') return <ExternalRedirect url={resolution.url} />
  const target = resolution.kind === 'root' ? '/' : resolution.path
  return <Navigate to={withQuery(runtime.href(target), resolution.query)} replace />
}
