/**
 * The publish gate's render of every page a change touches (./touched-pages.ts), on every site and
 * in every locale it reaches, by this server's own page route with the change in place (a
 * candidate set, server/documents/candidate.ts), before anyone may submit, approve or publish it.
 *
 * A page is refused when it answers 5xx, when its first screen does not render, when its screen
 * data or its forms' validators fail, when a form's validator module answers 5xx, when a document
 * it reaches answers 5xx from the documents API, or when it shows a raw text key instead of a
 * text. A problem the published set already has on the same page (rendered the same way) is a
 * warning marked "already published", so an unrelated change is not blocked by an old fault.
 */
import { request } from 'node:http'
import type { DocumentRecord } from '../../tools/schema-lint'
import { HEADERS } from '../../kernel/core/contracts'
import { CANDIDATE_HEADER, CANDIDATE_PAGE_HEADER, CANDIDATE_POPUP_HEADER, openCandidate, type OpenCandidate } from '../documents/candidate'
import type { GateFinding } from './lint-gate'
import { touchedDocuments, touchedPages, type TouchedPage } from './touched-pages'

export interface PageCheckInput {
  before: DocumentRecord[]
  after: DocumentRecord[]
  files: ReadonlySet<string>
}
export type PageCheck = (input: PageCheckInput) => Promise<GateFinding[]>

const TIMEOUT_MS = 15_000

/** One GET of this server (a fresh connection: a kept-alive one the server is closing would fail
 * the gate for nothing); a connection that fails is asked once more. Status 0: no answer. */
async function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const first = await getOnce(port, path, headers)
  return first.status === 0 ? getOnce(port, path, headers) : first
}

function getOnce(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((done) => {
    const ask = request({ host: '127.0.0.1', port, path, agent: false, headers: { accept: 'text/html,application/json', ...headers }, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', () => done({ status: 0, body: '' }))
    })
    ask.on('timeout', () => ask.destroy(new Error('timeout')))
    ask.on('error', () => done({ status: 0, body: '' }))
    ask.end()
  })
}

/** Every text key of the set (a rendered text equal to one is a key shown raw). */
function textKeys(records: readonly DocumentRecord[]): Set<string> {
  const keys = new Set<string>()
  for (const r of records.filter((r) => r.kind === 'translations'))
    for (const key of Object.keys((r.source.resources ?? {}) as object)) keys.add(key.replace(/_(zero|one|two|few|many|other)$/, ''))
  return keys
}

/** Raw text keys in the page's rendered markup (its text and its labels). */
function rawKeys(html: string, keys: Set<string>): string[] {
  const start = html.indexOf('<div id="root">')
  const end = html.indexOf('<script type="application/json"', start)
  const markup = start < 0 ? '' : html.slice(start, end < 0 ? undefined : end)
  const found = new Set<string>()
  for (const [, text] of markup.matchAll(/>([^<]+)</g)) if (keys.has(text.trim())) found.add(text.trim())
  for (const [, text] of markup.matchAll(/\s(?:aria-label|placeholder|title|alt)="([^"]+)"/g)) if (keys.has(text.trim())) found.add(text.trim())
  return [...found].map((key) => `it shows the text key "${key}" instead of a text`)
}

interface Run {
  port: number
  candidate: OpenCandidate
  keys: Set<string>
  counter: { n: number }
}

/** What is wrong with one page as a candidate renders it (empty: fine). */
async function pageProblems(run: Run, page: TouchedPage): Promise<string[]> {
  const id = String(++run.counter.n)
  const headers = { host: `${page.host}:${run.port}`, [CANDIDATE_HEADER]: run.candidate.token, [CANDIDATE_PAGE_HEADER]: id, ...(page.popup ? { [CANDIDATE_POPUP_HEADER]: page.popup } : {}) }
  const answer = await get(run.port, page.path, headers)
  const problems = answer.status >= 500 || answer.status === 0 ? [`it answers ${answer.status || 'nothing'}`] : []
  // a popup the set has is drawn open over the page (the set without it: the same page, nothing to see)
  const failed = problems.length > 0 || run.candidate.problems.some((p) => p.page === id)
  if (page.popup && !failed && !answer.body.includes(`data-popup-id="${page.popup}"`) && (await popupServed(run, page)))
    problems.push(`the popup ${page.popup} is not drawn over it`)
  for (const flow of page.flows) {
    const validator = await get(run.port, `/api/flows/${flow}/validator`, headers)
    if (validator.status >= 500) problems.push(`its form ${flow}: the validator module answers ${validator.status}`)
  }
  problems.push(...run.candidate.problems.filter((p) => p.page === id).map((p) => p.message))
  problems.push(...rawKeys(answer.body, run.keys))
  return [...new Set(problems)]
}

/** Whether the candidate serves the page's popup on its site (a removed or new popup is not drawn in the set that lacks it). */
async function popupServed(run: Run, page: TouchedPage): Promise<boolean> {
  const answer = await get(run.port, `/api/documents/popup/${encodeURIComponent(page.popup!)}?locale=${page.locale}`, { host: `${page.host}:${run.port}`, [CANDIDATE_HEADER]: run.candidate.token })
  return answer.status === 200
}

async function withCandidate<T>(records: DocumentRecord[], root: string, work: (candidate: OpenCandidate) => Promise<T>): Promise<T> {
  const candidate = openCandidate(records, root)
  try {
    return await work(candidate)
  } finally {
    candidate.close()
  }
}

/** The page check of this server (its port known once it listens). */
export function createPageCheck(options: { port: number; root: string }): PageCheck {
  return async ({ before, after, files }) => {
    const pages = touchedPages(before, after, files)
    const findings: GateFinding[] = []
    await withCandidate(after, options.root, async (candidate) => {
      const run = { port: options.port, candidate, keys: textKeys(after), counter: { n: 0 } }
      for (const page of pages) {
        const problems = await pageProblems(run, page)
        if (problems.length === 0) continue
        // the same page as published: what it already shows is not this change's fault
        const old = await withCandidate(before, options.root, (published) => pageProblems({ ...run, candidate: published, keys: textKeys(before) }, page))
        for (const problem of problems) {
          const known = old.includes(problem)
          const message = `${page.site} (${page.locale}) ${page.path}: ${problem}${known ? ' (already published)' : ''}`
          findings.push({ file: page.because[0], pointer: '', message, severity: known ? 'warning' : 'error', rule: 'render' })
        }
      }
      const seen = new Set<string>()
      for (const doc of touchedDocuments(before, after, files)) {
        const path = `/api/documents/${doc.kind}/${doc.id}?locale=${doc.locale}`
        if (seen.has(`${doc.site} ${path}`) || !after.some((r) => r.file === doc.file)) continue
        seen.add(`${doc.site} ${path}`)
        const answer = await get(options.port, path, { [HEADERS.target]: doc.site, [CANDIDATE_HEADER]: candidate.token })
        if (answer.status >= 500) findings.push({ file: doc.file, pointer: '', message: `${doc.site} (${doc.locale}) ${path}: answers ${answer.status}`, severity: 'error', rule: 'render' })
      }
    })
    return findings
  }
}
