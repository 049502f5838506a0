/**
 * Which of the site's route patterns could match a location, before react-router ranks them
 * (issue 10). The router flattens, ranks and tries every child of <Routes> on each render: with
 * every screen under every locale prefix (95 × 5 = 475 patterns) that was the largest item of the
 * first render on a phone. Handing it only the candidates keeps its ranking (which route wins)
 * and does a fraction of the work. Never drops a pattern the router would match.
 */
import type { SiteBootstrap } from '../../../kernel/core/contracts'
import { pathSegments } from '../../../kernel/core/route-match'

export interface TableRoute {
  path: string
  entry: SiteBootstrap['routes'][number]
  /** The pattern's segments in lower case (the router matches without case) */
  segments: string[]
}

/** Every screen route, bare and under every locale prefix the site offers. */
export function routeTable(bootstrap: Pick<SiteBootstrap, 'routes' | 'site'>): TableRoute[] {
  const prefixes = ['', ...bootstrap.site.locales.map((l) => `/${l}`)]
  return bootstrap.routes.flatMap((entry) =>
    prefixes.map((prefix) => {
      const path = `${prefix}${entry.route}`
      // split by hand: pathSegments would cut an optional segment's `?` as a query
      return { path, entry, segments: path.toLowerCase().split('/').filter(Boolean) }
    }),
  )
}

const PLAIN_SEGMENT = /^[a-z0-9._~-]+$/

/**
 * Could this pattern match these (decoded, lower-case) segments? Never false when the router
 * would match: a `:param` takes any one segment, a final `*` the rest, and a segment with anything
 * but plain characters (an optional `?`, an encoded character) is left to the router.
 */
function couldMatch(pattern: readonly string[], given: readonly string[]): boolean {
  const splat = pattern[pattern.length - 1] === '*'
  const fixed = splat ? pattern.length - 1 : pattern.length
  if (pattern.some((segment) => segment.endsWith('?') || (segment !== '*' && !segment.startsWith(':') && !PLAIN_SEGMENT.test(segment)))) return true
  if (splat ? given.length < fixed : given.length !== fixed) return false
  for (let i = 0; i < fixed; i++) if (!pattern[i].startsWith(':') && pattern[i] !== given[i]) return false
  return true
}

function decodedSegments(pathname: string): string[] {
  return pathSegments(pathname).map((segment) => {
    try {
      return decodeURIComponent(segment).toLowerCase()
    } catch {
      return segment.toLowerCase()
    }
  })
}


/** The patterns of the table that could match this pathname, in table order. */
export function candidateRoutes(table: readonly TableRoute[], pathname: string): TableRoute[] {
  const given = decodedSegments(pathname)
  return table.filter((route) => couldMatch(route.segments, given))
}
