import type { WebBuilderContentParams, WebBuilderPage, WebBuilderRule } from './types'

/**
 * The web builder (spec §3 "Web builder page"): pages carry global CSS/JS and rules that change
 * elements on matching paths. Pure selection plus a DOM applier that takes the document and a
 * sanitizer, so it runs in the browser (DOMPurify) and in tests (jsdom + DOMPurify).
 */

/** A rule path matches the pathname exactly, or as a prefix when it ends with '*'. */
export function rulePathMatches(rulePath: string, pathname: string): boolean {
  if (rulePath.endsWith('*')) return pathname.startsWith(rulePath.slice(0, -1))
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p)
  return trim(rulePath) === trim(pathname)
}

export function rulesForPath(pages: readonly WebBuilderPage[], pathname: string): WebBuilderRule[] {
  return pages.flatMap((page) => page.rules.filter((rule) => rulePathMatches(rule.path, pathname)))
}

interface ElementLike {
  textContent: string | null
  innerHTML: string
  style: { setProperty(name: string, value: string): void; cssText: string }
  setAttribute(name: string, value: string): void
}

export interface DocumentLike {
  querySelectorAll(selector: string): ArrayLike<unknown>
  createElement(tag: string): { textContent: string | null; setAttribute(n: string, v: string): void }
  head: { appendChild(node: unknown): unknown }
  /** Constructable style sheets (CSSOM): the page's CSP does not govern them, unlike a <style> with text. */
  adoptedStyleSheets?: unknown[]
}

/** A style sheet built by CSSOM (a browser's CSSStyleSheet); absent where the platform has none. */
type SheetFactory = (css: string) => unknown

const browserSheet: SheetFactory | undefined =
  typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype
    ? (css) => {
        const sheet = new CSSStyleSheet()
        sheet.replaceSync(css)
        return sheet
      }
    : undefined

export type HtmlSanitizer = (html: string) => string

const STYLE_PARAMS: Array<['color' | 'backgroundColor' | 'fontSize' | 'display', string]> = [
  ['color', 'color'],
  ['backgroundColor', 'background-color'],
  ['fontSize', 'font-size'],
  ['display', 'display'],
]

/** The documents' source language: a rule's own `text` and `contentHtml` are in it. */
export const WEB_BUILDER_SOURCE_LOCALE = 'en'

/**
 * A rule's params for a page in `locale`: its words in that language, from `translations`, or
 * its own when the page is in the source language. With neither, the words are left as the page
 * has them (a punter never reads another language); colours and sizes still apply.
 */
export function paramsForLocale(params: WebBuilderContentParams, locale: string): WebBuilderContentParams {
  const { translations, text, contentHtml, ...rest } = params
  const language = locale.slice(0, 2).toLowerCase()
  const words = translations?.[language] ?? (language === WEB_BUILDER_SOURCE_LOCALE ? { text, contentHtml } : {})
  return {
    ...rest,
    ...(words.text !== undefined ? { text: words.text } : {}),
    ...(words.contentHtml !== undefined ? { contentHtml: words.contentHtml } : {}),
  }
}

function applyContent(element: ElementLike, params: WebBuilderContentParams, sanitize: HtmlSanitizer): void {
  if (params.contentHtml !== undefined) element.innerHTML = sanitize(params.contentHtml)
  else if (params.text !== undefined) element.textContent = params.text
  if (params.href !== undefined && /^(https?:|\/)/i.test(params.href)) element.setAttribute('href', params.href)
  if (params.src !== undefined && /^(https?:|\/)/i.test(params.src)) element.setAttribute('src', params.src)
  for (const [param, property] of STYLE_PARAMS) {
    const value = params[param]
    if (value !== undefined) element.style.setProperty(property, value)
  }
  if (params.contentCss !== undefined) element.style.cssText += `;${params.contentCss}`
}

/** Applies pages to a document for `pathname` in `locale` (the source language by default); counts what was applied and what failed. */
export type PagesApplier = (
  document: DocumentLike,
  pages: readonly WebBuilderPage[],
  pathname: string,
  sanitize: HtmlSanitizer,
  locale?: string,
) => { applied: number; failed: number }

/**
 * Applies the pages for `pathname`. Global JS runs only if the server let it through (it refuses
 * unpinned scripts); any failure of a rule or script is swallowed (spec §8), counted in the result.
 */
export const applyPages: PagesApplier = (document, pages, pathname, sanitize, locale = WEB_BUILDER_SOURCE_LOCALE) => {
  let failed = 0
  for (const page of pages) {
    try {
      // under the site's CSP (no inline style or script, no eval): CSS as a constructable sheet;
      // a page's script is never run (it would need an inline script), counted as failed
      if (page.globalCss) {
        if (browserSheet && document.adoptedStyleSheets) document.adoptedStyleSheets = [...document.adoptedStyleSheets, browserSheet(page.globalCss)]
        else {
          const style = document.createElement('style')
          style.textContent = page.globalCss
          document.head.appendChild(style)
        }
      }
      if (page.globalJs) failed++
    } catch {
      failed++
    }
  }
  const rules = applyRules(document, pages, pathname, sanitize, locale)
  return { applied: rules.applied, failed: failed + rules.failed }
}

/** Applies only the rules of the pages for `pathname` (again after the page re-rendered). */
export const applyRules: PagesApplier = (document, pages, pathname, sanitize, locale = WEB_BUILDER_SOURCE_LOCALE) => {
  let applied = 0
  let failed = 0
  for (const rule of rulesForPath(pages, pathname)) {
    try {
      const elements = document.querySelectorAll(rule.selector)
      const params = paramsForLocale(rule.contentParams, locale)
      for (let i = 0; i < elements.length; i++) {
        applyContent(elements[i] as ElementLike, params, sanitize)
        applied++
      }
    } catch {
      failed++
    }
  }
  return { applied, failed }
}
