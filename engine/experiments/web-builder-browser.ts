/**
 * The web builder in the page (spec §4 "optionally runs the web builder", §6 editor mode, §7
 * pages.json): for each web-builder experiment the visitor is in, the group's pages are fetched
 * once, their CSS is adopted and their rules are applied to the matching path, again whenever
 * the app re-renders (the elements a rule names come and go with React). With `?editor=start`
 * nothing is applied: editor mode marks the page and lists the experiments and groups, and a
 * group chosen there is previewed by applying its pages. Never throws (spec §8).
 *
 * A lazy chunk: ./engine-binding.ts asks for the pages and loads this only when there is something
 * to apply or editor mode is on; a guest in no web-builder group, or in a control group without
 * pages, downloads none of it. DOMPurify comes later still, only for HTML (below).
 */
import type { Sigma } from '../../kernel/experiments/client'
import { applyPages, applyRules, type DocumentLike } from '../../kernel/experiments/web-builder'
import type { WebBuilderPage } from '../../kernel/experiments/types'

/** The page's language (the shell sets <html lang>): a rule's words are applied in it only (ADR 0090). */
const pageLocale = () => document.documentElement.lang || 'en'

/**
 * DOMPurify (most of this code's weight) is fetched the first time a rule for the current path has
 * HTML to set; until it is here that rule waits (counted as failed, applied again once it is), so
 * a page whose rules set only text, colours or CSS never downloads it. The server sanitised the
 * HTML too (server/experiments/document.ts); this is the second, independent check.
 */
let purify: ((html: string) => string) | undefined
let purifying: Promise<void> | undefined
function sanitizerThen(retry: () => void): (html: string) => string {
  return (html) => {
    if (purify) return purify(html)
    purifying ??= import('dompurify').then(({ default: DOMPurify }) => {
      purify = (dirty) => DOMPurify.sanitize(dirty)
    })
    void purifying.then(retry, () => {})
    throw new Error('the HTML sanitiser is loading')
  }
}

/** Keeps `pages` applied to the page as it re-renders; returns stop. */
export function keepApplied(pages: WebBuilderPage[]): () => void {
  const doc = document as unknown as DocumentLike
  let pending = false
  const schedule = () => {
    if (pending) return
    pending = true
    requestAnimationFrame(() => {
      pending = false
      observer.disconnect() // our own changes are mutations too
      applyRules(doc, pages, location.pathname, sanitize, pageLocale())
      observer.observe(document.body, { childList: true, subtree: true })
    })
  }
  const sanitize = sanitizerThen(schedule)
  const observer = new MutationObserver(schedule)
  applyPages(doc, pages, location.pathname, sanitize, pageLocale())
  observer.observe(document.body, { childList: true, subtree: true })
  return () => observer.disconnect()
}

/** Editor mode: the page is marked and a bar lists each web-builder experiment's groups; choosing one previews its pages. */
export function startEditor(sigma: Sigma, experiments: Array<{ name: string; groups: string[] }>): () => void {
  document.documentElement.dataset.experimentEditor = 'start'
  const bar = document.createElement('div')
  bar.setAttribute('data-testid', 'experiment-editor')
  bar.setAttribute('role', 'toolbar')
  bar.setAttribute('aria-label', 'Experiment editor')
  bar.className = 'experiment-editor'
  let stopPreview = () => {}
  for (const { name, groups } of experiments) {
    for (const [index, group] of groups.entries()) {
      const button = document.createElement('button')
      button.type = 'button'
      button.textContent = `${name}: ${group}`
      button.setAttribute('data-group', group)
      button.addEventListener('click', () => {
        stopPreview()
        sigma.forceExperiment(name, index)
        void sigma
          .fetchPages(name)
          .then((pages) => (stopPreview = keepApplied(pages)))
          .catch(() => {})
      })
      bar.appendChild(button)
    }
  }
  document.body.appendChild(bar)
  return () => (stopPreview(), bar.remove(), delete document.documentElement.dataset.experimentEditor)
}
