/**
 * Resolves the overlays of a document set (docs/adr/0005-jurisdiction-overlays.md): every file that
 * is an overlay (`"$overlay": "<shared file>"`) is replaced by shared ⊕ overlay, as the text a
 * whole copy in its place would have; the files under `bases/` (shared documents that no site
 * serves by itself, only through a jurisdiction's overlay) leave the served set. Everything else
 * passes through untouched, so a set without overlays is served exactly as before.
 *
 * The loader (files), the document store (published versions) and the differ all resolve through
 * here, so the served set, the lint gate and the review read the same resolved documents.
 */
import type { DocumentProblem } from './problem'
import { isPlainObject, mergePatch, OVERLAY_KEY, type PatchProblem } from './overlay-merge'

/** Shared documents only overlays use: never served by themselves. */
export const BASES_FOLDER = 'bases/'

export interface ResolvedSet {
  /** file → the text to read as that file's document: served files only (no bases, no broken overlays). */
  texts: Map<string, string>
  /** overlay file → the shared file it builds on. */
  overlays: Map<string, string>
  problems: DocumentProblem[]
}

export const isBaseFile = (file: string) => file.startsWith(BASES_FOLDER)
/** A cheap test before parsing: only texts that mention the key can be overlays. */
const mayBeOverlay = (text: string) => text.includes(`"${OVERLAY_KEY}"`)

/** The `$schema` a document at `file` points at (the kinds folder is at the documents root). */
export const kindSchemaPath = (file: string, kind: string) => `${'../'.repeat(file.split('/').length - 1)}kinds/${kind}.schema.json`

/** The jurisdiction whose folder holds a file, or '' (shared). */
export function jurisdictionOfFile(file: string): string {
  const parts = file.split('/')
  return parts[0] === 'jurisdictions' && parts.length > 2 ? parts[1] : ''
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown
    return isPlainObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** The shared file an overlay text names, or undefined when the text is not an overlay. */
export function overlayBaseOf(text: string): string | undefined {
  if (!mayBeOverlay(text)) return undefined
  const base = parseObject(text)?.[OVERLAY_KEY]
  return typeof base === 'string' ? base : undefined
}

/** Why an overlay cannot build on this base, or undefined when it can. */
function refusal(file: string, overlay: Record<string, unknown>, baseFile: string, base: Record<string, unknown> | undefined): string | undefined {
  if (!jurisdictionOfFile(file) || file.endsWith('/jurisdiction.json')) return 'only a jurisdiction’s document (under jurisdictions/<id>/, not its jurisdiction.json) can be an overlay'
  if (jurisdictionOfFile(baseFile)) return `${baseFile} is a jurisdiction’s document: an overlay builds on a shared document (or one under bases/)`
  if (!base) return `its shared document ${baseFile} is not in the set (or is not a JSON object)`
  if (base[OVERLAY_KEY] !== undefined) return `${baseFile} is itself an overlay: overlays do not chain`
  if (overlay.kind !== base.kind || overlay.id !== base.id)
    return `its kind and id (${String(overlay.kind)} ${JSON.stringify(overlay.id)}) must be those of ${baseFile} (${String(base.kind)} ${JSON.stringify(base.id)})`
  if (overlay.locales !== undefined || overlay.platforms !== undefined) return 'an overlay cannot change locales or platforms: overlay that variant’s own shared document'
  return undefined
}

/** shared ⊕ overlay as a document object, or the problems that stop it (pointers into the overlay file). */
export function resolveOverlay(file: string, overlay: Record<string, unknown>, baseFile: string, base: Record<string, unknown> | undefined): { ok: true; document: Record<string, unknown> } | { ok: false; problems: PatchProblem[] } {
  const why = refusal(file, overlay, baseFile, base)
  if (why) return { ok: false, problems: [{ pointer: `/${OVERLAY_KEY}`, message: why }] }
  const { [OVERLAY_KEY]: _base, $schema: _schema, ...patch } = overlay
  const problems: PatchProblem[] = []
  const merged = mergePatch(base, patch, '', problems) as Record<string, unknown>
  if (problems.length > 0) return { ok: false, problems }
  // The `$schema` a whole copy at this path would have: the resolved document reads as one.
  const schema = kindSchemaPath(file, String(base!.kind))
  return { ok: true, document: Object.hasOwn(merged, '$schema') ? { ...merged, $schema: schema } : { $schema: schema, ...merged } }
}

/** Resolves every overlay of a set of (file → text); see the file comment. */
export function resolveOverlaySet(texts: Map<string, string>): ResolvedSet {
  const out = new Map<string, string>()
  const overlays = new Map<string, string>()
  const problems: DocumentProblem[] = []
  for (const [file, text] of texts) {
    if (isBaseFile(file)) {
      if (!parseObject(text)) problems.push({ file, pointer: '', message: 'a base document must be a JSON object' })
      continue
    }
    const baseFile = overlayBaseOf(text)
    if (baseFile === undefined) {
      out.set(file, text)
      continue
    }
    overlays.set(file, baseFile)
    const baseText = texts.get(baseFile)
    const result = resolveOverlay(file, parseObject(text)!, baseFile, baseText === undefined ? undefined : parseObject(baseText))
    if (result.ok) out.set(file, JSON.stringify(result.document))
    else problems.push(...result.problems.map((p) => ({ file, ...p })))
  }
  return { texts: out, overlays, problems }
}
