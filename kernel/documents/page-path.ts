/**
 * The page a punter sees a document on, for previews (the studio's live preview, compliance's
 * side-by-side review). Pure: the studio's bundle and the server both use it. A screen is its own
 * route; a sign-up flow is /join; a promotion its own page; the quiz and loyalty their account
 * pages; a flow or a text used by a screen (or a text by a flow) is that page (when the caller can
 * look documents up: `routeUsing`); anything else (a popup, a menu) shows on the home page.
 */

export interface PageDocument {
  kind: string
  id: string
  source: Record<string, unknown>
}

/** The page of a screen (or a flow's page) whose document contains `needle` (a quoted id or text key), if any. */
export type RouteUsing = (needle: string) => string | undefined

const HOME = '/'

/** A route with its parameters filled by a placeholder, so it can be loaded. */
const loadable = (route: string) => route.replace(/:[^/]+/g, 'x')

/** The page that shows `doc`; `keys` are the text keys a translations change touches. */
export function pagePathOf(doc: PageDocument, routeUsing?: RouteUsing, keys: readonly string[] = []): string {
  switch (doc.kind) {
    case 'screen':
      return typeof doc.source.route === 'string' && doc.source.route.startsWith('/') ? loadable(doc.source.route) : HOME
    case 'flow':
      return doc.id.startsWith('signup') ? '/join' : (usedAt(routeUsing, [`"flow":"${doc.id}"`]) ?? HOME)
    case 'promotion':
      return `/promotions/${doc.id}`
    case 'quiz':
      return '/account/quiz'
    case 'loyalty-campaign':
      return '/account/loyalty'
    case 'translations':
      return usedAt(routeUsing, keys.map((key) => JSON.stringify(key))) ?? HOME
    default:
      return HOME
  }
}

function usedAt(routeUsing: RouteUsing | undefined, needles: string[]): string | undefined {
  for (const needle of needles) {
    const route = routeUsing?.(needle)
    if (route) return loadable(route)
  }
  return undefined
}
