/**
 * The page routes of spec §2 as tests/vectors/spec-routes.json transcribes them: read by the site
 * census (tests/e2e/census.spec.ts) and by the every-route first-load bench (bench/first-load.ts).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export interface SpecRoutes {
  public: { path: string; languageOnly?: boolean; noPrefix?: boolean; api?: boolean }[]
  languagePrefixed: string[]
  productRoutes: string[]
  promotionsProducts: string[]
  favoritesProducts: string[]
  unknown: string[]
}

export function readSpecRoutes(): SpecRoutes {
  return JSON.parse(readFileSync(fileURLToPath(new URL('../vectors/spec-routes.json', import.meta.url)), 'utf8')) as SpecRoutes
}

/** Every spec §2 page path (without a locale prefix), once each (API paths: tests/http/routes.test.ts). */
export function specPagePaths(spec: SpecRoutes = readSpecRoutes()): string[] {
  const pages = [
    ...spec.public.filter((r) => !r.api && !r.languageOnly).map((r) => r.path),
    ...spec.languagePrefixed,
    ...spec.productRoutes,
    ...spec.promotionsProducts.map((p) => `/${p}/promotions`),
    ...spec.favoritesProducts.map((p) => `/${p}/favorites`),
  ]
  return [...new Set(pages)]
}
