/**
 * The problem reporter: every "skipped, never broken" case (unknown node kind, unknown action,
 * broken expression, bad document, failed action) lands here. The console always gets a warning;
 * the UI lists problems in development only (renderers subscribe and decide).
 */

import { listeners } from './listeners'

export type ProblemKind = 'unknown-node' | 'unknown-action' | 'expression' | 'document' | 'action-error'

export interface Problem {
  kind: ProblemKind
  message: string
  detail?: unknown
  /** Monotonic id, so a UI list has stable keys. */
  id: number
}

type Listener = (problem: Problem) => void

const MAX_KEPT = 100
let problems: Problem[] = []
const subscribers = listeners<Problem>()
let nextId = 1

/** Records a problem: console.warn, kept in a bounded list, sent to subscribers. Never throws. */
export function report(problem: { kind: ProblemKind; message: string; detail?: unknown }): void {
  const entry: Problem = { ...problem, id: nextId++ }
  problems = [...problems.slice(-(MAX_KEPT - 1)), entry]
  try {
    console.warn(`[parlay:${entry.kind}] ${entry.message}`, entry.detail ?? '')
  } catch {
    // a console that throws must not break the page
  }
  subscribers.emit(entry)
}

/** Subscribes to new problems; returns the unsubscribe function. */
export function subscribeProblems(listener: Listener): () => void {
  return subscribers.add(listener)
}

/** The problems reported so far (most recent last, at most 100). */
export function listProblems(): readonly Problem[] {
  return problems
}

/** Forgets every recorded problem (tests, and the dev overlay's "clear" button). */
export function clearProblems(): void {
  problems = []
}
