/**
 * A flow form hydrated over the server's markup (issue 10) takes in what happened before it was
 * live: what the punter typed into its fields, a submit the page held meanwhile, and a submit made
 * while a phone field was still waiting for its rule. A form rendered in the browser finds nothing
 * typed and nothing held.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type Dispatch, type FormEvent, type RefObject, type SetStateAction } from 'react'
import { FORM_HELD } from '../nodes/form-ready'
import type { Values } from './flow-steps'
import { loadPhoneRule } from './phone-loader'

/** The form field a widget's element id names (rjsf's `root_<field>`), or '' for any other id. */
export const fieldOfWidgetId = (id: string): string => (id.startsWith('root_') ? id.slice('root_'.length) : '')

/** Whether each phone number typed (by its input's id) is the form's data yet: joined with its country, so not empty. */
export function phonesJoined(typedIds: readonly string[], values: Values): boolean {
  return typedIds.every((id) => {
    const field = fieldOfWidgetId(id)
    return typeof values[field] === 'string' && values[field] !== ''
  })
}

const submitForm = (formBox: RefObject<HTMLDivElement | null>) => formBox.current?.querySelector('form')?.requestSubmit()

/**
 * A phone field takes digits before its rule has arrived (theme.tsx), but they are the form's data
 * only once the rule has joined them with the country: a submit meanwhile waits for that, then is
 * made (else "required" on a field the punter filled). Returns the form box's submit-capture handler.
 */
export function usePhoneHold(formBox: RefObject<HTMLDivElement | null>, values: Values): (event: FormEvent) => void {
  const [waitingPhone, setWaitingPhone] = useState(false)
  const holdForPhone = (event: FormEvent) => {
    if (!formBox.current?.querySelector('.form-phone[aria-busy]')) return
    event.preventDefault()
    event.stopPropagation()
    loadPhoneRule().then(
      () => setWaitingPhone(true),
      () => undefined,
    )
  }
  useEffect(() => {
    if (!waitingPhone || formBox.current?.querySelector('.form-phone[aria-busy]')) return
    const typed = [...(formBox.current?.querySelectorAll<HTMLInputElement>('.form-phone-number') ?? [])].filter((input) => input.value !== '')
    if (!phonesJoined(typed.map((input) => input.id), values)) return
    setWaitingPhone(false)
    submitForm(formBox)
  }, [waitingPhone, values])
  return holdForPhone
}

interface HandoverOptions {
  /** The fields of the step shown first. */
  fields: string[]
  setValues: Dispatch<SetStateAction<Values>>
  formBox: RefObject<HTMLDivElement | null>
  onLive?: () => void
}

/**
 * Hydrated over the server's markup: what the punter gave the fields before the form was live (each
 * widget reports it through `adopt` from its own layout effect at mount, which runs before this
 * one: theme.tsx `useTypedBefore`) becomes the form's data before anything re-renders the fields;
 * a submit the page held meanwhile is made again once the form has re-rendered with that data.
 * Returns `adopt`, for the form context.
 */
export function useServerMarkupHandover({ fields, setValues, formBox, onLive }: HandoverOptions): (id: string, value: unknown) => void {
  const typed = useRef<Values>({})
  const [replay, setReplay] = useState(false)
  const adopt = useCallback((id: string, value: unknown) => {
    const field = fieldOfWidgetId(id)
    if (field) typed.current[field] = value
  }, [])
  useLayoutEffect(() => {
    const found = typed.current
    typed.current = {}
    const relevant = Object.fromEntries(Object.entries(found).filter(([field]) => fields.includes(field)))
    if (Object.keys(relevant).length > 0) setValues((current) => ({ ...current, ...relevant }))
    const host = formBox.current?.closest(`[${FORM_HELD}]`)
    if (host) {
      host.removeAttribute(FORM_HELD)
      setReplay(true)
    }
    onLive?.()
  }, [])
  useEffect(() => {
    if (!replay) return
    setReplay(false)
    submitForm(formBox)
  }, [replay])
  return adopt
}
