/**
 * The page frame and the router. Routes come from the site bootstrap (one per screen document),
 * each also under every locale prefix the site offers; `/` goes to the last visited product's
 * lobby; any other path goes where the redirects document says (spec §2 catch-alls), else to the
 * 404 page. The theme follows the section (spec §1).
 */
import { useEffect, useMemo } from 'react'
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom'
import { useStore } from 'zustand'
import { defaultRoot, rememberProduct, sectionOf, splitLocale, themeOf } from '../../core'
import { candidateRoutes, routeTable, type TableRoute } from './route-candidates'
import { PopupHost } from '../popups/PopupHost'
import { useRuntime } from '../runtime'
import type { BrowserEngine } from './browser-runtime'
import { DevWarnings } from './DevWarnings'
import { Footer } from './Footer'
import { Header } from './Header'
import { LeftMenu } from './LeftMenu'
import { Notifications } from './Notifications'
import { OfflineBanner } from './OfflineBanner'
import { PathFallback } from './PathFallback'
import { ProductSwitcher } from './ProductSwitcher'
import { ScreenRoute } from './ScreenRoute'
import { useScrollRestoration } from './scroll-restoration'
import { ServerErrorOr } from './server-status'
import { pageLocalStorage } from '../../core/web-storage'

const storage = pageLocalStorage

function RootRedirect() {
  const runtime = useRuntime()
  const { search } = useLocation()
  const mainProduct = runtime.stores.site.getState().bootstrap?.site.mainProduct
  // query strings (tokens, promo codes) travel on to the lobby
  return <Navigate to={`${runtime.href(defaultRoot(storage(), mainProduct))}${search}`} replace />
}

/** Keeps the engine's navigation, the theme, the last product, the menu and the scroll position in step with the URL. */
function LocationEffects({ engine }: { engine: BrowserEngine }) {
  const navigate = useNavigate()
  const location = useLocation()
  const runtime = engine.runtime
  useScrollRestoration()
  useEffect(() => engine.setNavigate((path, options) => navigate(path, options)), [engine, navigate])
  useEffect(() => engine.watch(), [engine])
  useEffect(() => {
    const locales = runtime.stores.site.getState().bootstrap?.site.locales ?? []
    const { locale, path } = splitLocale(location.pathname, locales)
    // the locale is fixed per page load: a URL in another locale loads that locale's page
    if ((locale ?? engine.bootstrap.site.defaultLocale) !== engine.locale && locale !== null) {
      window.location.reload()
      return
    }
    document.documentElement.dataset.theme = themeOf(sectionOf(path))
    engine.checkVersion()
    rememberProduct(path, storage())
    runtime.stores.ui.getState().setLeftMenu(false)
  }, [location.pathname]) // eslint-disable-line react-hooks/exhaustive-deps
  return null
}

/**
 * The <Route> elements of the routes that could match this location. The router flattens, ranks
 * and tries every child of <Routes> on each render (createRoutesFromChildren, rankRouteBranches,
 * a RegExp per pattern): with all 475 patterns that was the largest item of the first render on a
 * phone (issue 10, ~130–460 ms at 4× CPU in traces). The router still ranks the few candidates,
 * so which route wins does not change.
 */
function useRoutesFor(table: readonly TableRoute[]) {
  const { pathname } = useLocation()
  return useMemo(() => {
    return candidateRoutes(table, pathname).map(({ path, entry }) => <Route key={path} path={path} element={<ScreenRoute key={entry.screen} entry={entry} />} />)
  }, [table, pathname])
}

export function Shell({ engine }: { engine: BrowserEngine }) {
  const runtime = engine.runtime
  const bootstrap = useStore(runtime.stores.site, (s) => s.bootstrap) ?? engine.bootstrap
  const popupsOpen = useStore(runtime.stores.ui, (s) => s.popups.length > 0)
  const table = useMemo(() => routeTable(bootstrap), [bootstrap])
  const routes = useRoutesFor(table)
  return (
    <>
      <LocationEffects engine={engine} />
      <div className="app" inert={popupsOpen || undefined}>
        <a className="skip-link" href="#main">
          {runtime.t('shell.skip')}
        </a>
        <Header />
        <ProductSwitcher />
        <LeftMenu />
        <main id="main" className="app-main" tabIndex={-1}>
          <OfflineBanner />
          <ServerErrorOr>
          <Routes>
            <Route path="/" element={<RootRedirect />} />
            {bootstrap.site.locales.map((l) => (
              <Route key={l} path={`/${l}`} element={<RootRedirect />} />
            ))}
            {routes}
            <Route path="*" element={<PathFallback />} />
          </Routes>
          </ServerErrorOr>
        </main>
        <Footer />
      </div>
      <PopupHost />
      <Notifications />
      <DevWarnings />
    </>
  )
}
