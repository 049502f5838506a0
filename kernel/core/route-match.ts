/**
 * The one route matcher (issue 17): the browser shell (where a page lands), the server's boot data
 * (which screen's documents go into index.html) and schema-lint (does a screen serve this link)
 * match paths against screen route patterns here, so they can never disagree. Framework-free and
 * import-free beside the locale rule, so the first-load chunk and the server both take it as is.
 *
 * Patterns: literal segments match themselves, `:name` matches any one segment, a final `*` matches
 * zero or more segments. Paths are matched without query, hash, trailing or doubled slashes.
 */
import { splitLocale } from './locale-path'

/** A path's segments, without query, hash and empty segments (`/a//b/?x` → ['a', 'b']). */
export const pathSegments = (path: string): string[] => path.split(/[?#]/)[0].split('/').filter(Boolean)

const segmentMatches = (pattern: string, segment: string | undefined) => pattern.startsWith(':') || pattern === segment

/** Does a screen route pattern (`/info/:page`, `/x/*`) match a prefix-free path? */
export function routeMatches(pattern: string, path: string): boolean {
  const wanted = pathSegments(pattern)
  const given = pathSegments(path)
  if (wanted[wanted.length - 1] === '*') {
    const fixed = wanted.slice(0, -1)
    return given.length >= fixed.length && fixed.every((s, i) => segmentMatches(s, given[i]))
  }
  return wanted.length === given.length && wanted.every((s, i) => segmentMatches(s, given[i]))
}

/** The first route whose pattern matches a full pathname, its locale prefix (one of `locales`) set aside. */
export function routeFor<R extends { route: string }>(routes: readonly R[], pathname: string, locales: readonly string[]): R | undefined {
  const { path } = splitLocale(pathname, locales)
  return routes.find((entry) => routeMatches(entry.route, path))
}
