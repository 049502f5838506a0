/**
 * The product switcher's products (issue 31 item 2), kernel/core/products.ts: the remote config's
 * ACTIVE_PRODUCTS in its order with each one's APP_PRODUCTS_CONFIG route, and which one a page
 * belongs to. The shipped remote config is the oracle's input.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { activeProducts, currentProduct } from '../../../kernel/core/products'

const shipped = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'schemas', 'remote-config', 'app.json'), 'utf8')) as { config: Record<string, unknown> }).config

describe('the product switcher', () => {
  it('lists the active products in the config’s order, each opening its configured route', () => {
    const products = activeProducts(shipped)
    expect(products.map((p) => p.name)).toEqual(shipped.ACTIVE_PRODUCTS)
    const config = shipped.APP_PRODUCTS_CONFIG as Record<string, { ROUTE: string; IS_NEW: boolean }>
    for (const product of products) expect(product).toEqual({ name: product.name, route: config[product.name].ROUTE, isNew: config[product.name].IS_NEW })
  })

  it('a product without a route is left out; without ACTIVE_PRODUCTS every configured product shows', () => {
    const config = { APP_PRODUCTS_CONFIG: { sport: { ROUTE: '/sport/live/popular' }, toto: {}, casino: { ROUTE: '/casino/lobby', IS_NEW: true } } }
    expect(activeProducts({ ...config, ACTIVE_PRODUCTS: ['casino', 'toto', 'poker'] })).toEqual([{ name: 'casino', route: '/casino/lobby', isNew: true }])
    expect(activeProducts(config).map((p) => p.name)).toEqual(['sport', 'casino'])
  })

  it('a page belongs to the product whose route leads its path the longest, else to its section’s product', () => {
    const products = activeProducts(shipped)
    expect(currentProduct(products, '/sport/live/popular', 'sport')).toBe('sport')
    expect(currentProduct(products, '/sport/live', 'sport')).toBe('live-sport')
    expect(currentProduct(products, '/sport/live/event?id=e1', 'sport')).toBe('live-sport')
    expect(currentProduct(products, '/sport/prematch/event', 'sport')).toBe('prematch-sport')
    expect(currentProduct(products, '/sport/results', 'sport')).toBe('sport')
    expect(currentProduct(products, '/casino/game?product=casino&id=book-of-ra', 'casino')).toBe('casino')
    expect(currentProduct(products, '/account/settings', 'account')).toBeUndefined()
  })
})
