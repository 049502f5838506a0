/**
 * The i18n keys the form renderer uses, with English fallbacks shown while a locale lacks them.
 * Translations live in the translations documents (one per locale); this table is only the
 * fallback, so a missing key never shows as a raw key in a form.
 */
export const FORM_TEXTS: Record<string, string> = {
  'form.progress': 'Step {{current}} of {{total}}',
  'form.next': 'Next',
  'form.submit': 'Send',
  'form.back': 'Back',
  'form.busy': 'Sending…',
  'form.required': 'required',
  'form.done': 'Thank you! We have received your details.',
  'form.loading': 'Loading the form…',
  'form.unavailable': 'This form is not available right now. Please try again later.',
  'form.retry': 'Try again',
  'form.password.show': 'Show password',
  'form.password.hide': 'Hide password',
  'form.phone.country': 'Country code',
  'form.code.hint': 'Enter the 6-digit code',
  'form.select.placeholder': 'Choose…',
  'form.date.hint': 'Between {{min}} and {{max}}',
  'form.errorSummary': 'Please correct the highlighted fields.',
  'form.error.required': 'This field is required.',
  'form.error.type': 'This value has the wrong type.',
  'form.error.minLength': 'Enter at least {{limit}} characters.',
  'form.error.maxLength': 'Enter at most {{limit}} characters.',
  'form.error.pattern': 'This value has an invalid format.',
  'form.error.format': 'This value has an invalid format.',
  'form.error.format.email': 'Enter a valid e-mail address.',
  'form.error.format.date': 'Enter a valid date.',
  'form.error.enum': 'Choose one of the options.',
  'form.error.const': 'Please confirm to continue.',
  'form.error.minimum': 'Enter {{limit}} or more.',
  'form.error.maximum': 'Enter {{limit}} or less.',
  'form.error.formatMinimum': 'Enter a date on or after {{limit}}.',
  'form.error.formatMaximum': 'Enter a date on or before {{limit}}.',
  'form.error.unknownField': 'This field is not accepted.',
  'form.error.phone': 'Enter a valid phone number.',
  'form.error.code': 'Enter the 6-digit code.',
  'form.error.invalid': 'This value is not valid.',
  'form.error.submit': 'We could not send the form. Please try again.',
  'server.error.DUPLICATE_EMAIL': 'This e-mail address is already in use.',
  // the demo-contact flow
  'forms.contact.title': 'Contact us',
  'forms.contact.step.aboutYou': 'About you',
  'forms.contact.step.message': 'Your message',
  'forms.contact.name': 'Name',
  'forms.contact.email': 'E-mail',
  'forms.contact.topic': 'Topic',
  'forms.contact.topic.account': 'My account',
  'forms.contact.topic.payments': 'Payments',
  'forms.contact.topic.betting': 'Betting',
  'forms.contact.topic.casino': 'Casino',
  'forms.contact.topic.other': 'Something else',
  'forms.contact.message': 'Message',
  'forms.contact.consent': 'I agree that Parlay may use these details to answer me.',
  'forms.contact.send': 'Send message',
}

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

/** The message of a server field error: `server.error.<code>`, else the `form.error.<code>` text. */
export function serverFieldMessage(tr: Translate, code: string): string {
  const fallback = FORM_TEXTS[`server.error.${code}`] ?? FORM_TEXTS[`form.error.${code}`] ?? FORM_TEXTS['form.error.invalid']
  const text = tr(`server.error.${code}`, {}, '')
  if (text && text !== `server.error.${code}`) return text
  const local = tr(`form.error.${code}`, {}, '')
  return local && local !== `form.error.${code}` ? local : fallback
}
