/**
 * The web builder in the page (spec §4 "optionally runs the web builder", §6 editor mode, §7
 * pages.json): for each web-builder experiment the visitor is in, the group's pages are fetched
 * once, their CSS is adopted and their rules are applied to the matching path, again whenever
 * the app re-renders (the elements a rule names come and go with React). With `?editor=start`
 * nothing is applied: editor mode marks the page and lists the experiments and groups, and a
 * group chosen there is previewed by applying its pages. Never throws (spec §8).
 */
import DOMPurify from 'dompurify'
import type { Sigma } from '../../kernel/experiments/client'
import { isEditorMode } from '../../kernel/experiments/client'
import { applyPages, applyRules, type DocumentLike } from '../../kernel/experiments/web-builder'
import type { WebBuilderPage } from '../../kernel/experiments/types'

const sanitize = (html: string) => DOMPurify.sanitize(html)
/** The page's language (the shell sets <html lang>): a rule's words are applied in it only (ADR 0090). */
const pageLocale = () => document.documentElement.lang || 'en'

/** Keeps `pages` applied to the page as it re-renders; returns stop. */
function keepApplied(pages: WebBuilderPage[]): () => void {
  const doc = document as unknown as DocumentLike
  applyPages(doc, pages, location.pathname, sanitize, pageLocale())
  let pending = false
  const observer = new MutationObserver(() => {
    if (pending) return
    pending = true
    requestAnimationFrame(() => {
      pending = false
      observer.disconnect() // our own changes are mutations too
      applyRules(doc, pages, location.pathname, sanitize, pageLocale())
      observer.observe(document.body, { childList: true, subtree: true })
    })
  })
  observer.observe(document.body, { childList: true, subtree: true })
  return () => observer.disconnect()
}

/** Editor mode: the page is marked and a bar lists each web-builder experiment's groups; choosing one previews its pages. */
function startEditor(sigma: Sigma, experiments: Array<{ name: string; groups: string[] }>): () => void {
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

export async function runWebBuilderInPage(sigma: Sigma): Promise<() => void> {
  try {
    const experiments = sigma.webBuilderExperiments()
    if (experiments.length === 0) return () => {}
    if (isEditorMode(location.search)) return startEditor(sigma, experiments)
    const pages = (await Promise.all(experiments.map(({ name }) => sigma.fetchPages(name).catch(() => [] as WebBuilderPage[])))).flat()
    return pages.length > 0 ? keepApplied(pages) : () => {}
  } catch {
    return () => {}
  }
}
