/**
 * Turns jurisdictions' whole copies into overlays where that keeps every site's resolved document
 * identical (issue 29; docs/adr/0005-jurisdiction-overlays.md). Pure over a (file → text) set, so
 * the CLI (tools/overlays-convert.ts) writes its result and a test runs it on the documents as they
 * were before the conversion.
 *
 * - A copy of a shared document (same kind, id, locales and platforms) becomes an overlay on it.
 * - Copies with no shared document, at the same path in two or more jurisdictions (the sign-up
 *   flows), get a base under `bases/`: what they all have in common. Nobody is served the base by
 *   itself, so a site without a copy still has none; each copy becomes an overlay on the base.
 * - A copy stays whole when no patch gives it back exactly (the reason is reported).
 */
import { isPlainObject, listKeyOf } from '../../kernel/documents/overlay-merge'
import { overlayDocumentOf } from '../../kernel/documents/overlay-diff'
import { BASES_FOLDER, isBaseFile, jurisdictionOfFile, kindSchemaPath, overlayBaseOf, resolveOverlaySet } from '../../kernel/documents/overlay-set'

export interface ConversionOutcome {
  file: string
  outcome: 'overlay' | 'whole' | 'base'
  /** The shared document or base an overlay builds on. */
  base?: string
  reason?: string
  /** Bytes of the file before and after. */
  bytes: [number, number]
}

type Doc = Record<string, unknown>

const parse = (text: string): Doc | undefined => {
  try {
    const value = JSON.parse(text) as unknown
    return isPlainObject(value) ? value : undefined
  } catch {
    return undefined
  }
}
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
const identity = (doc: Doc) => JSON.stringify([doc.kind, doc.id, doc.locales ?? [], doc.platforms ?? []])
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
const pathInJurisdiction = (file: string) => file.split('/').slice(2).join('/')

/** The value most of them have (ties: the first): where versions differ, the base keeps it so the key keeps its place. */
function mostCommon(values: unknown[]): unknown {
  const counts = values.map((v) => values.filter((w) => sameJson(v, w)).length)
  return values[counts.indexOf(Math.max(...counts))]
}

/**
 * What every value has in common: equal values; the keys all objects have (each with its common
 * part); the items all lists keyed alike have; the items all lists of plain values share (maybe
 * none: each site then lists its own, its countries say). Where nothing else is common, the most
 * common value, so a merge puts every key back in its place.
 */
export function commonPart(values: unknown[]): unknown {
  if (values.every((v) => sameJson(v, values[0]))) return values[0]
  if (values.every(isPlainObject)) {
    const out: Doc = {}
    for (const key of Object.keys(values[0] as Doc)) if (values.every((v) => Object.hasOwn(v as Doc, key))) out[key] = commonPart(values.map((v) => (v as Doc)[key]))
    return out
  }
  const key = listKeyOf(values[0])
  if (key && values.every((v) => listKeyOf(v) === key)) {
    const lists = values as Doc[][]
    const ids = lists[0].map((item) => item[key] as string).filter((id) => lists.every((list) => list.some((item) => item[key] === id)))
    return ids.map((id) => commonPart(lists.map((list) => list.find((item) => item[key] === id))))
  }
  if (values.every((v) => Array.isArray(v) && v.every((item) => !isPlainObject(item) && !Array.isArray(item)))) {
    return (values[0] as unknown[]).filter((item) => (values as unknown[][]).every((list) => list.some((other) => sameJson(item, other))))
  }
  return mostCommon(values)
}

function overlayText(file: string, baseFile: string, base: Doc, copy: Doc): { ok: true; text: string } | { ok: false; reason: string } {
  const result = overlayDocumentOf(file, baseFile, base, copy)
  return result.ok ? { ok: true, text: pretty(result.document) } : result
}

function baseFor(group: [string, Doc][], existing: Map<string, string>): { file: string; doc: Doc; created: boolean } {
  const file = `${BASES_FOLDER}${pathInJurisdiction(group[0][0])}`
  const known = existing.get(file)
  if (known !== undefined && parse(known)) return { file, doc: parse(known)!, created: false }
  const common = commonPart(group.map(([, doc]) => doc)) as Doc
  const { $schema: _schema, description: _description, ...rest } = common
  const description = `Base of the jurisdictions' ${String(common.kind)} ${String(common.id)}: what their versions share. No site is served it by itself; each jurisdiction's overlay builds on it.`
  return { file, doc: { $schema: kindSchemaPath(file, String(common.kind)), ...(rest.kind !== undefined ? { kind: rest.kind, id: rest.id } : {}), description, ...rest }, created: true }
}

/** Converts the copies of a set; returns the new set and what happened to each file it looked at. */
export function convertCopies(texts: Map<string, string>): { texts: Map<string, string>; outcomes: ConversionOutcome[] } {
  const out = new Map(texts)
  const outcomes: ConversionOutcome[] = []
  const shared = new Map<string, string>()
  for (const [file, text] of texts) {
    const doc = parse(text)
    if (doc && !jurisdictionOfFile(file) && !isBaseFile(file) && !overlayBaseOf(text)) shared.set(identity(doc), file)
  }
  const copies = [...texts].flatMap(([file, text]) => {
    const doc = parse(text)
    return jurisdictionOfFile(file) && !file.endsWith('/jurisdiction.json') && doc && !overlayBaseOf(text) ? [[file, doc] as [string, Doc]] : []
  })
  const convert = (file: string, baseFile: string, base: Doc, copy: Doc) => {
    const result = overlayText(file, baseFile, base, copy)
    const before = texts.get(file)!.length
    if (result.ok) out.set(file, result.text)
    outcomes.push(result.ok ? { file, outcome: 'overlay', base: baseFile, bytes: [before, result.text.length] } : { file, outcome: 'whole', base: baseFile, reason: result.reason, bytes: [before, before] })
  }
  const groups = new Map<string, [string, Doc][]>()
  for (const [file, copy] of copies) {
    const sharedFile = shared.get(identity(copy))
    if (sharedFile) convert(file, sharedFile, parse(texts.get(sharedFile)!)!, copy)
    else groups.set(`${identity(copy)}|${pathInJurisdiction(file)}`, [...(groups.get(`${identity(copy)}|${pathInJurisdiction(file)}`) ?? []), [file, copy]])
  }
  for (const group of groups.values()) {
    if (group.length < 2) {
      outcomes.push({ file: group[0][0], outcome: 'whole', reason: 'no shared document, and no other jurisdiction has this document to share a base with', bytes: [texts.get(group[0][0])!.length, texts.get(group[0][0])!.length] })
      continue
    }
    const base = baseFor(group, texts)
    if (base.created) {
      out.set(base.file, pretty(base.doc))
      outcomes.push({ file: base.file, outcome: 'base', bytes: [0, pretty(base.doc).length] })
    }
    for (const [file, copy] of group) convert(file, base.file, base.doc, copy)
  }
  return { texts: out, outcomes: outcomes.sort((a, b) => a.file.localeCompare(b.file)) }
}

/** Every served document of a set, resolved, by file (the conversion's check and its test). */
export function servedDocuments(texts: Map<string, string>): Map<string, unknown> {
  const resolved = resolveOverlaySet(texts)
  return new Map([...resolved.texts].map(([file, text]) => [file, JSON.parse(text) as unknown]))
}
