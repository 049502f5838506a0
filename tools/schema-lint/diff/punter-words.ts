/**
 * A finding in the words a punter reads (issue 29 item 2): "Spain sign-up (email): field countryId
 * no longer required" becomes, for Spanish, "… field “País” no longer required", and "text
 * lobby.casino.banner → promo.cashback.body" becomes the two texts themselves. The finding keeps
 * its ids (they are what the reviewer comments on and what a fingerprint follows); this is the line
 * beside it, one per locale the document reaches. Texts documents are left alone: their findings
 * already quote the texts.
 */
import type { DiffFinding } from './differ'

/** Text keys as the documents write them: dotted words ("signup.field.country", "promos.until"). */
const KEY = /\b[a-z][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)+\b/g

const quoted = (text: string) => `“${text}”`
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The text key a form field is labelled with (its `title` in a step schema), in any step. */
export function fieldLabelKey(source: Record<string, unknown> | undefined, field: string): string | undefined {
  const steps = Array.isArray(source?.steps) ? source.steps : []
  for (const step of steps) {
    const properties = isObject(step) && isObject(step.schema) && isObject(step.schema.properties) ? step.schema.properties : undefined
    const title = properties && isObject(properties[field]) ? properties[field].title : undefined
    if (typeof title === 'string') return title
  }
  return undefined
}

/**
 * The finding's message with each field name and text key replaced by what `texts` (one locale's)
 * says; undefined when nothing in it is a field or a key with a text. `sources` are the document's
 * versions (after, then before) where a field's label is looked up.
 */
export function inPunterWords(finding: Pick<DiffFinding, 'message' | 'document'>, sources: (Record<string, unknown> | undefined)[], texts: Readonly<Record<string, string>>): string | undefined {
  if (finding.document.kind === 'translations') return undefined
  const label = (field: string) => {
    for (const source of sources) {
      const key = fieldLabelKey(source, field)
      if (key && texts[key] !== undefined) return texts[key]
    }
    return undefined
  }
  const said = finding.message
    .replace(/\bfield ([A-Za-z0-9_-]+)/g, (whole, field: string) => {
      const text = label(field)
      return text === undefined ? whole : `field ${quoted(text)}`
    })
    .replace(KEY, (key) => (texts[key] === undefined ? key : quoted(texts[key])))
  return said === finding.message ? undefined : said
}
