/**
 * Boot data in the page (issue 10, "one round trip to first paint"): the server puts what the
 * first render needs — the site bootstrap, the locale's translations, the route's screen, menu,
 * header and footer documents — into the HTML as JSON in `<script type="application/json"
 * id="parlay-boot">`, each entry exactly as its API answer would be (URL, ETag, body). The browser
 * runtime answers those URLs from it once, so the document client, its ETags and its last-good
 * copies work as if the answers had come over the network. Shared by server and browser, so both
 * sides name the same URLs; framework-free.
 */

export const BOOT_ELEMENT_ID = 'parlay-boot'

/** One API answer carried in the page. */
export interface BootEntry {
  /** The URL the document client asks (path and query). */
  url: string
  /** The ETag the API would send (quoted), or null. */
  etag: string | null
  body: unknown
}

export interface BootData {
  entries: BootEntry[]
  /**
   * The visitor's experiment groups as the server decided them for this page (the `experiments`
   * store's value; server/experiments/visitor-groups.ts): the browser's first render uses exactly
   * these, so it shows what the server rendered. Absent: the groups last decided in this browser.
   */
  experiments?: Record<string, unknown>
}

/** The locale the URL asks for before the site is known: a 2–3 letter first segment. */
export function guessLocale(pathname: string): string | undefined {
  const first = pathname.split('/')[1] ?? ''
  return /^[a-z]{2,3}$/.test(first) ? first : undefined
}

export const siteUrl = (guessedLocale: string) => `/api/site?locale=${encodeURIComponent(guessedLocale)}`
export const translationsUrl = (locale: string) => `/api/i18n/${encodeURIComponent(locale)}`
export const documentUrl = (kind: string, id: string, locale: string) =>
  `/api/documents/${encodeURIComponent(kind)}/${encodeURIComponent(id)}?locale=${encodeURIComponent(locale)}`

/** The shell documents every page renders besides its screen (Shell: header, left menu, footer). */
export const SHELL_DOCUMENTS: ReadonlyArray<readonly [kind: string, id: string]> = [
  ['menu', 'left-menu'],
  ['footer', 'footer'],
  ['header', 'header'],
]

/** JSON safe inside a script element: no `<` can close it or open a comment. */
export function serializeBootData(data: BootData): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

/** Reads the page's boot data; undefined when absent or unreadable (the runtime then fetches). */
export function parseBootData(text: string | null | undefined): BootData | undefined {
  if (!text) return undefined
  try {
    const data = JSON.parse(text) as BootData
    if (!data || !Array.isArray(data.entries)) return undefined
    const entries = data.entries.filter((e) => e && typeof e.url === 'string' && e.body !== null && typeof e.body === 'object')
    const experiments = data.experiments
    return experiments && typeof experiments === 'object' && !Array.isArray(experiments) ? { entries, experiments } : { entries }
  } catch {
    return undefined
  }
}
