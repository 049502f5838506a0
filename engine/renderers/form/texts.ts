/**
 * The form renderer's translate helpers; the fallback table is kernel/core/form-texts.ts.
 */
import { FORM_TEXTS } from '../../../kernel/core/form-texts'

/** `{{name}}` interpolation for the fallback texts (i18next does it for translated ones). */
export function interpolate(text: string, values: Record<string, unknown> = {}): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_m, name: string) => (values[name] === undefined ? '' : String(values[name])))
}

export type Translate = (key: string, values?: Record<string, unknown>, fallback?: string) => string

/**
 * Wraps the engine's translate: the translated text when the locale has the key, otherwise the
 * English fallback from FORM_TEXTS (or the given one), otherwise the key itself.
 */
export function createTranslate(t: (key: string, options?: Record<string, unknown>) => string): Translate {
  return (key, values = {}, fallback) => {
    const text = t(key, values)
    if (text !== key && text !== '') return text
    const def = fallback ?? FORM_TEXTS[key]
    return def === undefined ? key : interpolate(def, values)
  }
}

/** The message of a validation error: `form.error.<keyword>` (format errors per format first). */
export function validationMessage(tr: Translate, keyword: string, params: Record<string, unknown> = {}): string {
  if (keyword === 'format' && typeof params.format === 'string') {
    const specific = `form.error.format.${params.format}`
    const text = tr(specific, params, FORM_TEXTS[specific] ?? '')
    if (text && text !== specific) return text
  }
  return tr(`form.error.${keyword}`, params, FORM_TEXTS[`form.error.${keyword}`] ?? FORM_TEXTS['form.error.invalid'])
}

/** The message of a server field error: `server.error.<code>`, else the `form.error.<code>` text,
 * filled with what the error carries beside its field and code (`limit` of a minimum: issue 31's
 * "Enter or more." was this text shown without it). */
export function serverFieldMessage(tr: Translate, code: string, values: Record<string, unknown> = {}): string {
  const fallback = FORM_TEXTS[`server.error.${code}`] ?? FORM_TEXTS[`form.error.${code}`] ?? FORM_TEXTS['form.error.invalid']
  const text = tr(`server.error.${code}`, values, '')
  if (text && text !== `server.error.${code}`) return text
  const local = tr(`form.error.${code}`, values, '')
  return local && local !== `form.error.${code}` ? local : interpolate(fallback, values)
}
