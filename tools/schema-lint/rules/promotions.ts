/**
 * Promotion rules no JSON Schema can say: a promotion ends after it starts, and it has its texts in
 * every locale of every site it targets (a punter never sees a promotion in a language the site
 * does not speak, nor a blank card). Sites are the jurisdiction documents in the same set, so a
 * promotion for "every site" needs the union of their locales.
 */
import type { DocumentRecord } from '../documents/loader'
import type { Finding } from '../finding'

export const PROMOTION_RULE = 'promotion'

interface PromotionSource {
  startsAt?: string
  endsAt?: string
  jurisdictions?: string[]
  texts?: Record<string, unknown>
}

/** jurisdiction id → the locales its site declares. */
function siteLocales(records: DocumentRecord[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const record of records)
    if (record.kind === 'jurisdiction' && Array.isArray(record.source.locales)) out.set(String(record.source.id), record.source.locales as string[])
  return out
}

export function promotionFindings(records: DocumentRecord[]): Finding[] {
  const findings: Finding[] = []
  const sites = siteLocales(records)
  for (const record of records.filter((r) => r.kind === 'promotion')) {
    const promotion = record.source as PromotionSource
    const add = (pointer: string, message: string) => findings.push({ file: record.file, pointer, message, rule: PROMOTION_RULE, severity: 'error' })
    const start = Date.parse(promotion.startsAt ?? '')
    const end = Date.parse(promotion.endsAt ?? '')
    if (Number.isFinite(start) && Number.isFinite(end) && end <= start) add('/endsAt', `the promotion ends (${promotion.endsAt}) before or when it starts (${promotion.startsAt})`)
    const targets = promotion.jurisdictions ?? [...sites.keys()]
    const texts = promotion.texts ?? {}
    for (const jurisdiction of targets) {
      const locales = sites.get(jurisdiction)
      if (!locales) {
        add('/jurisdictions', `no site has the jurisdiction ${JSON.stringify(jurisdiction)}`)
        continue
      }
      for (const locale of locales)
        if (!(locale in texts)) add('/texts', `no ${locale} texts: the ${jurisdiction} site speaks ${locale}`)
    }
  }
  // one finding per missing locale, not one per site that speaks it
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = `${f.file}|${f.pointer}|${f.message.replace(/: the .*$/, '')}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
