/**
 * The phone field (`ui:widget: phone`): a country select and the national number shown with the
 * country's mask, stored as `+<dial><national digits>`.
 *
 * The country table and rule arrive lazily (./phone-loader.ts), usually while the punter is
 * already typing: a server-rendered /join is live only after the first key (issue 10). The input
 * is therefore ONE element from the server's markup to the end: the same <select> and <input> at
 * the same places whether the rule has arrived or not (issue 31: on a direct load the rule's
 * arrival used to swap the input for another, which dropped the focus and the digits typed after
 * the first ones). Until the rule is there, what is typed is kept as typed (and the form's submit
 * waits, flow-form.tsx `holdForPhone`); when it arrives, those digits become the value.
 */
import type { WidgetProps } from '@rjsf/utils'
import { useLayoutEffect, useState } from 'react'
import { usePhoneRule } from './phone-loader'
import { changedText, commonInputProps, contextOf, useTypedBefore } from './widget-kit'

export function PhoneWidget(props: WidgetProps) {
  const { tr, phoneCountry, server } = contextOf(props)
  // hydrating over the server's markup: the first render is what the server rendered (no rule)
  const rule = usePhoneRule(Boolean(server))
  const preset = (props.options.country as string | undefined) ?? phoneCountry
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  // what was typed while the rule was not there yet (into the server's markup included)
  const [early, setEarly] = useState('')
  useTypedBefore(props, (element) => {
    const text = changedText(element)
    if (text !== undefined) setEarly(text)
    return undefined
  })
  const stored = typeof props.value === 'string' ? props.value : ''
  const split = rule?.splitPhone(stored, chosen ?? preset)
  const country = split?.country
  const maxDigits = country ? Math.max(...country.lengths) : 0
  // the rule has arrived: what was typed before becomes the value (before the next paint)
  useLayoutEffect(() => {
    if (!rule || !country || early === '') return
    const digits = rule.digitsOf(early).slice(0, maxDigits)
    if (!stored && digits) props.onChange(rule.joinPhone(country, digits))
    setEarly('')
  }, [rule])
  const national = split?.national || (rule && early ? rule.digitsOf(early).slice(0, maxDigits) : '')
  const shown = rule && country ? rule.formatNational(national, country) : early
  // from the field's id, not useId(): the same on the server and in the browser whatever wraps the
  // form (a server-rendered form is hydrated, issue 10; useId follows the tree, which differs)
  const countryLabel = `${props.id}__country`
  const common = commonInputProps(props)
  return (
    <div className="form-phone" aria-busy={rule ? undefined : true}>
      <span id={countryLabel} className="visually-hidden">
        {tr('form.phone.country')}
      </span>
      <select
        className="form-input form-phone-country"
        aria-labelledby={countryLabel}
        disabled={common.disabled || !rule}
        value={country?.code ?? preset ?? ''}
        onChange={(event) => {
          if (!rule) return
          const next = rule.countryFor(event.target.value)
          setChosen(next.code)
          props.onChange(national ? rule.joinPhone(next, national) : props.options.emptyValue)
        }}
      >
        {rule ? (
          rule.phoneCountries().map((c) => (
            <option key={c.code} value={c.code}>
              {`${c.code} +${c.dial}`}
            </option>
          ))
        ) : (
          <option value={preset ?? ''}>{preset ?? ''}</option>
        )}
      </select>
      <input
        {...common}
        className="form-input form-phone-number"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder={country ? country.mask.replace(/#/g, '0') : undefined}
        value={shown}
        // a value given before the rule (a kept draft) shows once the rule can split it; until
        // then nothing typed could be joined with it
        readOnly={common.readOnly || (!rule && stored !== '')}
        onChange={(event) => {
          if (!rule || !country) return setEarly(event.target.value)
          const digits = rule.digitsOf(event.target.value).slice(0, maxDigits)
          props.onChange(digits ? rule.joinPhone(country, digits) : props.options.emptyValue)
        }}
      />
    </div>
  )
}
