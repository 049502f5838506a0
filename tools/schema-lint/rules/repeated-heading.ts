/**
 * Rule `repeated-heading` (issue 34, "Log in" three times on the login popup): a form on a screen or
 * popup shows its flow's title as a heading unless the node says `headed: false`. Where that title
 * reads the same as the screen's or popup's own title in some locale, a punter reads the same
 * heading twice ("Sign up" / "Sign up"), and a screen reader lists it twice. The document should
 * set `headed: false` on the form; the step titles and the progress stay.
 */
import type { DocumentRecord } from '../documents/loader'
import type { Finding } from '../finding'

export const REPEATED_HEADING_RULE = 'repeated-heading'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Every headed form node of a document, with its JSON pointer. */
function headedForms(value: unknown, pointer = ''): { flow: string; pointer: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => headedForms(item, `${pointer}/${i}`))
  if (!isObject(value)) return []
  const own = value.type === 'form' && typeof value.flow === 'string' && value.headed !== false ? [{ flow: value.flow, pointer }] : []
  return [...own, ...Object.entries(value).flatMap(([key, child]) => headedForms(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`))]
}

/** locale → key → text, from the translations documents. */
function textsByLocale(records: DocumentRecord[]): Map<string, Map<string, string>> {
  const locales = new Map<string, Map<string, string>>()
  for (const record of records.filter((r) => r.kind === 'translations')) {
    const locale = ((record.source.locale as string | undefined) ?? record.id) as string
    const texts = locales.get(locale) ?? new Map<string, string>()
    for (const [key, text] of Object.entries((record.source.resources ?? {}) as Record<string, unknown>)) if (typeof text === 'string') texts.set(key, text)
    locales.set(locale, texts)
  }
  return locales
}

const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase()

export function repeatedHeadingFindings(records: DocumentRecord[]): Finding[] {
  const locales = textsByLocale(records)
  const flowTitles = new Map<string, Set<string>>()
  for (const flow of records.filter((r) => r.kind === 'flow'))
    if (typeof flow.source.title === 'string') flowTitles.set(flow.id, new Set([...(flowTitles.get(flow.id) ?? []), flow.source.title]))
  return records
    .filter((r) => (r.kind === 'screen' || r.kind === 'popup') && typeof r.source.title === 'string')
    .flatMap((record) =>
      headedForms(record.source).flatMap(({ flow, pointer }) => {
        const titleKey = record.source.title as string
        for (const flowKey of flowTitles.get(flow) ?? [])
          for (const [locale, texts] of locales) {
            const page = texts.get(titleKey)
            const form = texts.get(flowKey)
            if (page !== undefined && form !== undefined && same(page, form))
              return [
                {
                  file: record.file,
                  pointer,
                  rule: REPEATED_HEADING_RULE,
                  severity: 'error' as const,
                  message: `the form's heading (${flowKey}) reads "${form}" in ${locale}, the same as the ${record.kind}'s title (${titleKey}): set "headed": false on the form so the heading is not read twice`,
                },
              ]
          }
        return []
      }),
    )
}
