/**
 * The rules of the studio's document editor that are not drawing (./DocumentEditor.tsx): which
 * kind a text is, which draft of a file is this admin's to reopen, and what the lint line says.
 */
import { call, type LintFinding, type Me } from './api'

export interface Draft {
  id: number
  state: string
  /** The draft revision this editor has: its next save names it (a stale one is refused). */
  revision: number
}

/** The document kind a text names, or undefined while it is not JSON with a string `kind`. */
export function kindOf(text: string): string | undefined {
  try {
    const kind = (JSON.parse(text) as { kind?: unknown }).kind
    return typeof kind === 'string' ? kind : undefined
  } catch {
    return undefined
  }
}

/** Among a file's drafts, the id of the latest one this admin wrote (the author's address compared without case). */
export function latestDraftBy(drafts: readonly { id: number; author: string }[], email: string): number | undefined {
  return drafts.filter((v) => v.author.toLowerCase() === email.toLowerCase()).sort((a, b) => b.id - a.id)[0]?.id
}

/** The latest draft of a file this admin wrote, with its text. */
export async function openDraftOf(file: string, me: Me): Promise<(Draft & { content: string }) | undefined> {
  const list = await call<{ id: number; author: string; state: string }[]>('GET', `/admin/api/versions?file=${encodeURIComponent(file)}&state=draft`)
  const latest = list.ok ? latestDraftBy(list.payload, me.email) : undefined
  if (latest === undefined) return undefined
  const version = await call<{ id: number; state: string; content: string; revision: number }>('GET', `/admin/api/versions/${latest}`)
  return version.ok ? version.payload : undefined
}

/** The lint line of the editor's toolbar: the errors counted apart from the other findings. */
export function lintSummary(findings: readonly LintFinding[]): { errors: number; text: string } {
  const errors = findings.filter((f) => f.severity === 'error').length
  return { errors, text: findings.length === 0 ? 'Lint: no findings' : `Lint: ${errors} error(s), ${findings.length - errors} other` }
}
