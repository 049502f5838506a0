/**
 * The product switcher under the header (issue 31): sport, live, upcoming, casino, live casino …
 * as one row of tabs that scrolls sideways on a phone, the current product marked. Which products,
 * in which order, is the site's remote config (kernel/core/products.ts), never code. The current
 * tab is scrolled into the row's view, so on a phone the punter always sees where he is.
 */
import { useLayoutEffect, useMemo, useRef } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { useStore } from 'zustand'
import { activeProducts, currentProduct } from '../../../kernel/core/products'
import { sectionOf, splitLocale } from '../../../kernel/core/locale-path'
import { useRuntime } from '../runtime'

export function ProductSwitcher() {
  const runtime = useRuntime()
  const remoteConfig = useStore(runtime.stores.site, (s) => s.bootstrap?.remoteConfig)
  const locales = useStore(runtime.stores.site, (s) => s.bootstrap?.site.locales) ?? []
  const { pathname } = useLocation()
  const products = useMemo(() => activeProducts(remoteConfig), [remoteConfig])
  const { path } = splitLocale(pathname, locales)
  const current = currentProduct(products, path, sectionOf(path))
  const row = useRef<HTMLUListElement>(null)
  useLayoutEffect(() => {
    const list = row.current
    const tab = list?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!list || !tab) return
    // sideways only: the page itself never moves for it
    const start = tab.offsetLeft - list.offsetLeft
    if (start < list.scrollLeft || start + tab.offsetWidth > list.scrollLeft + list.clientWidth) list.scrollLeft = start - 16
  }, [current])
  if (products.length < 2) return null
  return (
    <nav className="product-switcher" aria-label={runtime.t('products.label')} data-testid="product-switcher">
      <ul ref={row} className="product-switcher__list">
        {products.map((product) => (
          <li key={product.name}>
            <Link
              className="product-switcher__tab"
              to={runtime.href(product.route)}
              aria-current={product.name === current ? 'page' : undefined}
              data-product={product.name}
            >
              {runtime.t(`section.${product.name}`)}
              {product.isNew && <span className="product-switcher__new">{runtime.t('products.new')}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
