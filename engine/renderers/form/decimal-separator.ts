/**
 * rjsf's `getDecimalSeparator` (in @rjsf/utils 6) with its answer kept per language list: rjsf
 * calls it on every render of a number field and in `asNumber`/`getInputProps`, and each call built
 * a new `Intl.NumberFormat(navigator.languages)` — ~190–400 ms of one task when `/join`'s sign-up
 * form first rendered at 4× CPU (issue 10, traced). Same answer, computed once per language list.
 * The client build puts this module in place of rjsf's own (vite.config.ts).
 */
const known = new Map<string, string>()

/** The decimal separator of these languages (default: the browser's), '.' when unknown. */
export default function getDecimalSeparator(languages?: string | readonly string[]): string {
  const locales = languages ?? (typeof navigator !== 'undefined' ? navigator.languages : undefined)
  if (!locales) return '.'
  const key = typeof locales === 'string' ? locales : locales.join(',')
  let separator = known.get(key)
  if (separator === undefined) {
    try {
      separator = new Intl.NumberFormat(locales as string | string[]).formatToParts(1.1).find((part) => part.type === 'decimal')?.value || '.'
    } catch {
      separator = '.'
    }
    known.set(key, separator)
  }
  return separator
}
