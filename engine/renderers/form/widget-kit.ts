/**
 * What every widget of the form theme shares (./theme.tsx, ./phone-widget.tsx): the form's context
 * as widgets read it, the props every control carries (label links, errors, focus reporting), and
 * how a control adopts what the punter typed into the server's markup before the form was live.
 */
import { errorId, getUiOptions, helpId, type WidgetProps } from '@rjsf/utils'
import { useLayoutEffect } from 'react'
import type { Translate } from './texts'
import type { CurrencyDisplays } from '../../../kernel/core/format'

/** What the form passes to every widget and template (rjsf `formContext`). */
export interface FormContext {
  tr: Translate
  /** YYYY-MM-DD, local: the default maximum of date fields. */
  today: string
  /** Preferred phone country (ISO code), from the site. */
  phoneCountry?: string
  /** Rendered on the server, or hydrated over that markup (issue 10): no `autofocus` — in the HTML
   * the browser would focus the field at load, which counts as the punter's first use and loads the
   * form's script at once; and hydration must render what the server rendered. */
  server?: boolean
  /** Hydrated over the server's markup (issue 10): a control reports here, by its id, the value
   * the punter gave it before the form was live (the form makes it its data; see `useTypedBefore`). */
  adopt?: (id: string, value: unknown) => void
  /** The page's locale: money fields read what the punter types in it (`2,5` in es). */
  locale?: string
  /** The jurisdiction document's minimum age (`minimumAge`): a birth date's latest day (date popup). */
  minimumAge?: number
  /** The account's currency: money fields' decimals and the amount shown as it will be charged. */
  currency?: string
  /** The site's currencyDisplay: how that amount is written (kernel/core/format.ts). */
  displays?: CurrencyDisplays
  /** The documents version the texts are from: a new one re-renders every label and message in
   * place (a live form keeps its values across an operator's publish: flow-form.tsx). */
  documentsVersion?: unknown
}

export const contextOf = (props: { registry: { formContext?: unknown } }): FormContext => {
  const ctx = props.registry.formContext as FormContext | undefined
  return ctx ?? { tr: (key) => key, today: new Date().toISOString().slice(0, 10) }
}

/** ids the control is described by: its error text (only while shown), its help. */
export function describedBy(id: string, props: { rawErrors?: string[]; options?: Record<string, unknown>; uiSchema?: unknown }, extra: string[] = []): string | undefined {
  const ids = [...extra]
  if (props.rawErrors && props.rawErrors.length > 0) ids.unshift(errorId(id))
  const ui = getUiOptions(props.uiSchema as never)
  if (ui.help) ids.push(helpId(id))
  return ids.length > 0 ? ids.join(' ') : undefined
}

export const emptyTo = (value: string, options: WidgetProps['options']) => (value === '' ? options.emptyValue : value)

/**
 * A server-rendered form is plain HTML until its script has loaded (issue 10: rjsf on first use), and
 * the punter may type, choose or tick meanwhile. Hydration keeps what the control shows, but the
 * form's data does not know it, and the next render would put the empty value back. At mount, a
 * control whose DOM state differs from what the server rendered (its default) reports the value its
 * own change handler would have given, `read` being that handler's conversion. A control React
 * rendered itself has its default equal to its state, so it reports nothing.
 */
export function useTypedBefore(props: WidgetProps, read: (element: HTMLElement) => { value: unknown } | undefined) {
  const { adopt } = contextOf(props)
  useLayoutEffect(() => {
    const element = adopt ? document.getElementById(props.id) : null
    const typed = element ? read(element) : undefined
    if (typed) adopt?.(props.id, typed.value)
    // at mount only: afterwards the control is React's
  }, [])
}

/** The text of an input or textarea when it is not what the server rendered. */
export const changedText = (element: HTMLElement): string | undefined =>
  (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && element.value !== element.defaultValue ? element.value : undefined

export function commonInputProps(props: WidgetProps) {
  const { id, required, disabled, readonly, autofocus, rawErrors, htmlName } = props
  const invalid = !!rawErrors && rawErrors.length > 0
  return {
    id,
    name: htmlName || id,
    required,
    disabled: disabled || readonly,
    readOnly: readonly,
    autoFocus: autofocus && !contextOf(props).server,
    'aria-invalid': invalid || undefined,
    'aria-required': required || undefined,
    'aria-describedby': describedBy(id, props),
    onBlur: (event: { target: { value: unknown } }) => props.onBlur(id, event.target.value),
    onFocus: (event: { target: { value: unknown } }) => props.onFocus(id, event.target.value),
  }
}
