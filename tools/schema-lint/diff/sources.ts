/**
 * Where the two sides of a diff come from: a documents folder, a git ref (its `schemas/` tree), or
 * a version in the document store. Documents are read raw (parsed JSON, not validated), so a diff
 * still explains a change that also breaks the schema.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { listDocumentFiles } from '../documents/loader'
import { isBaseFile, resolveOverlaySet } from '../../../kernel/documents/overlay-set'
import type { DocumentSnapshot } from './differ'

const IGNORED = /^(kinds|experiments)\//

/** A snapshot from a document's path and text; null when it is not a JSON document object. */
export function snapshotOf(file: string, text: string): DocumentSnapshot | null {
  const read = readSnapshot(file, text)
  return 'snapshot' in read ? read.snapshot : null
}

/** A snapshot, or why the text is not a document a diff can compare (so a diff can say so). */
export function readSnapshot(file: string, text: string): { snapshot: DocumentSnapshot } | { problem: string } {
  let source: unknown
  try {
    source = JSON.parse(text)
  } catch (error) {
    return { problem: `invalid JSON: ${(error as Error).message}` }
  }
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return { problem: 'not a JSON object' }
  const doc = source as Record<string, unknown>
  if (typeof doc.kind !== 'string') return { problem: 'no "kind"' }
  if (typeof doc.id !== 'string') return { problem: 'no "id"' }
  const parts = file.split('/')
  const jurisdiction = doc.kind === 'jurisdiction' ? doc.id : parts[0] === 'jurisdictions' && parts.length > 2 ? parts[1] : ''
  return {
    snapshot: {
      kind: doc.kind,
      id: doc.id,
      jurisdiction,
      file,
      source: doc,
      locales: Array.isArray(doc.locales) ? (doc.locales as string[]) : [],
      platforms: Array.isArray(doc.platforms) ? (doc.platforms as string[]) : [],
    },
  }
}

/**
 * The snapshots of a set of (file → text) as sites are served them: each overlay resolved
 * (shared ⊕ overlay, marked `overlayOf`; one that does not resolve is left out: the lint gate
 * reports it), plus the bases under `bases/`, which the differ uses only as what a new overlay is
 * compared with (docs/adr/0005-jurisdiction-overlays.md).
 */
export function snapshotsOfTexts(texts: Map<string, string>): DocumentSnapshot[] {
  const resolved = resolveOverlaySet(texts)
  const bases = [...texts].filter(([file]) => isBaseFile(file))
  return [...resolved.texts, ...bases].flatMap(([file, text]) => {
    const snapshot = snapshotOf(file, text)
    const base = resolved.overlays.get(file)
    return snapshot ? [base ? { ...snapshot, overlayOf: base } : snapshot] : []
  })
}

export function snapshotsFromFolder(root: string): DocumentSnapshot[] {
  return snapshotsOfTexts(new Map(listDocumentFiles(root).map((file) => [file, readFileSync(join(root, file), 'utf8')])))
}

/** The texts of a git ref's documents folder (file → text, paths relative to the folder). */
export function textsFromGit(ref: string, options: { cwd?: string; folder?: string } = {}): Map<string, string> {
  if (!/^[A-Za-z0-9_./~^@{}-]+$/.test(ref) || ref.startsWith('-')) throw new Error(`not a git ref: ${ref}`)
  const cwd = options.cwd ?? process.cwd()
  const folder = options.folder ?? 'schemas'
  const run = (args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] })
  const files = run(['ls-tree', '-r', '--name-only', `${ref}`, '--', `${folder}/`])
    .split('\n')
    .filter((f) => f.endsWith('.json') && !IGNORED.test(f.slice(folder.length + 1)))
  const texts = new Map<string, string>()
  if (files.length === 0) return texts
  // One `git cat-file --batch` for every file instead of one `git show` each.
  const batch = execFileSync('git', ['cat-file', '--batch'], { cwd, input: files.map((f) => `${ref}:${f}`).join('\n') + '\n', maxBuffer: 256 * 1024 * 1024 })
  let offset = 0
  for (const path of files) {
    const headerEnd = batch.indexOf(0x0a, offset)
    const header = batch.subarray(offset, headerEnd).toString('utf8')
    const size = Number(header.split(' ')[2])
    if (!Number.isFinite(size)) throw new Error(`git cat-file: ${header}`)
    const text = batch.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8')
    offset = headerEnd + 1 + size + 1
    texts.set(path.slice(folder.length + 1), text)
  }
  return texts
}

export function snapshotsFromGit(ref: string, options: { cwd?: string; folder?: string } = {}): DocumentSnapshot[] {
  return snapshotsOfTexts(textsFromGit(ref, options))
}

/** Resolves a store source ("store:<version id>") to snapshots; set by the store when present. */
export type StoreSource = (versionId: number) => DocumentSnapshot[]

/**
 * `folder` | `git ref` | `store:<version id>`. A path that exists is a folder; `WORKTREE` is the
 * checkout's `schemas/`; anything else is tried as a git ref.
 */
export function loadSide(spec: string, options: { cwd?: string; store?: StoreSource } = {}): DocumentSnapshot[] {
  const cwd = options.cwd ?? process.cwd()
  const store = /^store:(\d+)$/.exec(spec)
  if (store) {
    if (!options.store) throw new Error('store versions need --data <dir> (the server data folder)')
    return options.store(Number(store[1]))
  }
  const path = resolve(cwd, spec)
  if (existsSync(path) && statSync(path).isDirectory()) return snapshotsFromFolder(path)
  return snapshotsFromGit(spec, { cwd })
}
