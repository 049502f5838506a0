/**
 * Candidate document sets: how the publish gate sees the pages a change touches as they WOULD be
 * served with the change in place, rendered by this very server (server/store/page-check.ts).
 *
 * The gate opens a candidate (the whole set with the change applied, in its own DocumentService)
 * and asks this server over loopback for each touched page with `x-parlay-candidate: <token>`. A
 * request carrying a token this process opened, from loopback, runs with the candidate as its
 * documents (an AsyncLocalStorage scope read by the `deps.documents` wrapper below): the page
 * route, its first screen, its screen data (asked of this server again, the token passed on) and
 * the flows' validator modules all run their production code on the candidate. What the page
 * renderer would otherwise swallow (a first screen that throws, validators that do not compile)
 * is reported to the candidate (`reportCandidateProblem`) so the gate can refuse the change.
 *
 * A token is 32 random bytes, lives only while one gate runs and is honoured only from loopback:
 * nobody else can see a draft through it. Every other request sees the published set.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import type { DocumentRecord } from '../../tools/schema-lint'
import { createDocumentService, type DocumentService } from './service'

export const CANDIDATE_HEADER = 'x-parlay-candidate'
/** Which of the gate's requests a problem belongs to (the gate numbers them). */
export const CANDIDATE_PAGE_HEADER = 'x-parlay-candidate-page'
/** A popup the gate's page request renders open over the page (no page shows one until a tap). */
export const CANDIDATE_POPUP_HEADER = 'x-parlay-candidate-popup'

export interface CandidateProblem {
  page: string
  message: string
}

interface Candidate {
  documents: DocumentService
  problems: CandidateProblem[]
}

interface Scope {
  candidate: Candidate
  token: string
  page: string
  popup: string | undefined
}

const scope = new AsyncLocalStorage<Scope>()
const open = new Map<string, Candidate>()

export interface OpenCandidate {
  token: string
  problems: CandidateProblem[]
  close(): void
}

/** Serves `records` to requests carrying the returned token until `close`. Throws when the server
 * would refuse to install the set (the same install every publish runs). */
export function openCandidate(records: DocumentRecord[], root: string): OpenCandidate {
  const documents = createDocumentService({ root })
  documents.replace(records)
  const candidate: Candidate = { documents, problems: [] }
  const token = randomBytes(32).toString('base64url')
  open.set(token, candidate)
  return { token, problems: candidate.problems, close: () => open.delete(token) }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Express middleware (first in the app): a request with an open token from loopback runs in its candidate. */
export function candidateScope(req: Request, res: Response, next: NextFunction): void {
  const token = req.header(CANDIDATE_HEADER)
  const candidate = token ? open.get(token) : undefined
  if (!token || !candidate || !LOOPBACK.has(req.socket.remoteAddress ?? '')) return next()
  res.locals.candidate = true
  scope.run({ candidate, token, page: req.header(CANDIDATE_PAGE_HEADER) ?? '', popup: req.header(CANDIDATE_POPUP_HEADER) || undefined }, next)
}

/** True while a gate's request is being answered (its effects must not count as the live site's). */
export const inCandidate = (): boolean => scope.getStore() !== undefined

/** The popup a gate's page request asks to see open (never outside a gate's request). */
export const candidatePopup = (): string | undefined => scope.getStore()?.popup

/** Tells the gate running this request what went wrong; false for every other request (the
 * live site's problem, for the caller to log). */
export function reportCandidateProblem(message: string): boolean {
  const current = scope.getStore()
  current?.candidate.problems.push({ page: current.page, message })
  return current !== undefined
}

/** The headers a request this server makes to itself carries to stay in the same candidate. */
export function candidateHeaders(): Record<string, string> {
  const current = scope.getStore()
  return current ? { [CANDIDATE_HEADER]: current.token, [CANDIDATE_PAGE_HEADER]: current.page } : {}
}

/** The live documents service, answering from the candidate inside a gate's request. Writes
 * (reload, replace, watch) always go to the live set. */
export function withCandidates(live: DocumentService): DocumentService {
  const current = () => scope.getStore()?.candidate.documents ?? live
  return {
    get root() {
      return live.root
    },
    reload: () => live.reload(),
    replace: (records) => live.replace(records),
    resolve: (kind, id, request) => current().resolve(kind, id, request),
    list: (kind) => current().list(kind),
    sites: () => current().sites(),
    siteForHost: (host) => current().siteForHost(host),
    site: (id) => current().site(id),
    version: (jurisdiction) => current().version(jurisdiction),
    onChange: (listener) => live.onChange(listener),
    onFilesChanged: (listener) => live.onFilesChanged(listener),
    watch: (onError) => live.watch(onError),
    close: () => live.close(),
  }
}
