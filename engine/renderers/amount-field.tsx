/**
 * A money amount the punter types (issue 28 item 6): a text field with the decimal keyboard, read
 * in the page's locale and the account's currency by kernel/core/amount-input.ts, and under it
 * what was read — formatted as it will be charged ("2,50 € will be placed") — or why it was
 * refused. The bet slip's stake, the game's stake and money settings use it; forms use the same
 * reading through their `money` widget (form/theme.tsx). A chunk of its own, loaded when a field
 * first shows (./amount-field-lazy.ts): the first load of a page carries none of it (issue 10).
 */
import { useId, useState, type ReactNode } from 'react'
import { amountErrorText, currencyDecimals, formatTypedAmount, majorToMinor, minorToMajor, parseMoneyInput, parseTypedAmount, type AmountInputError } from '../../kernel/core/amount-input'
import { formatMoney, type CurrencyDisplays } from '../../kernel/core/format'

export type AmountReading = { ok: true; minor: number } | { ok: false; error: AmountInputError | 'ZERO' } | null

/** Reads a typed amount; empty is no amount (null), not a refusal; `positive` refuses zero. */
export function readAmount(text: string, locale: string, currency: string | undefined, positive: boolean): AmountReading {
  if (text.trim() === '') return null
  const read = parseMoneyInput(text, locale, currency)
  return read.ok && positive && read.minor === 0 ? { ok: false, error: 'ZERO' } : read
}

/**
 * The field's text and reading. `value` is the amount in minor units held outside (a store, a
 * form); while it is the one the punter's text gave, the text stays as typed ("2,5"), and when it
 * changes from outside (a quick-stake button) the field shows it written for this locale.
 */
export function useTypedAmount(value: number | null, locale: string, currency: string | undefined, positive: boolean) {
  const decimals = currencyDecimals(currency)
  const [typed, setTyped] = useState<{ text: string; minor: number | null } | null>(null)
  const own = typed !== null && typed.minor === value ? typed : null
  const text = own ? own.text : value === null ? '' : formatTypedAmount(value, locale, decimals)
  const reading: AmountReading = own ? readAmount(own.text, locale, currency, positive) : value === null ? null : { ok: true, minor: value }
  const type = (next: string): AmountReading => {
    const read = readAmount(next, locale, currency, positive)
    setTyped({ text: next, minor: read?.ok ? read.minor : null })
    return read
  }
  return { text, reading, type, decimals }
}

/** The line under a money field: the amount as it will be charged, or why the text was refused. */
export function AmountLine(props: { id: string; reading: AmountReading; locale: string; currency: string | undefined; displays?: CurrencyDisplays; decimals: number; preview: (formatted: string) => string; t: (key: string, values?: Record<string, unknown>) => string; testId?: string }) {
  const { reading, locale, currency, decimals } = props
  let body: ReactNode = null
  if (reading?.ok) body = props.preview(formatMoney(reading.minor / 10 ** decimals, locale, currency, props.displays))
  else if (reading) {
    const { key, values } = amountErrorText(reading.error, locale, decimals)
    body = props.t(key, values)
  }
  return (
    <span className="amount-field__line" id={props.id} aria-live="polite" data-testid={props.testId} data-state={reading === null ? 'empty' : reading.ok ? 'read' : 'refused'} data-minor={reading?.ok ? reading.minor : undefined}>
      {body}
    </span>
  )
}

export interface AmountFieldProps {
  label: string
  /** The amount in major units (as the stores and the gateway hold it), null for none. */
  value: number | null
  /** Called with each reading, in major units (exact for what was read), or null while the text is empty or refused. */
  onAmount: (major: number | null) => void
  locale: string
  currency: string | undefined
  /** The site's currencyDisplay: how the line writes the amount (kernel/core/format.ts). */
  displays?: CurrencyDisplays
  /** The line shown for a readable amount, given it formatted ("2,50 € will be placed"). */
  preview: (formatted: string) => string
  t: (key: string, values?: Record<string, unknown>) => string
  positive?: boolean
  disabled?: boolean
  testId?: string
  className?: string
}

export function AmountField(props: AmountFieldProps) {
  const id = useId()
  const decimals = currencyDecimals(props.currency)
  const { text, reading, type } = useTypedAmount(props.value === null ? null : majorToMinor(props.value, decimals), props.locale, props.currency, props.positive ?? true)
  return (
    <span className={`amount-field ${props.className ?? ''}`}>
      <label className="amount-field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="amount-field__input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={text}
        disabled={props.disabled}
        aria-invalid={reading?.ok === false || undefined}
        aria-describedby={`${id}-line`}
        data-testid={props.testId}
        onChange={(e) => {
          const read = type(e.currentTarget.value)
          props.onAmount(read?.ok ? minorToMajor(read.minor, decimals) : null)
        }}
      />
      <AmountLine id={`${id}-line`} reading={reading} locale={props.locale} currency={props.currency} displays={props.displays} decimals={decimals} preview={props.preview} t={props.t} testId={props.testId ? `${props.testId}-line` : undefined} />
    </span>
  )
}

/** The crash game's target multiplier: two decimals, within these bounds (the server's too). */
export const CASH_OUT_AT = { minimum: 1.01, maximum: 1000 }

/** The typed target multiplier in the page's locale (`2,5` in es), null when unreadable or out of bounds. */
export function readMultiplier(typed: string, locale: string): number | null {
  const read = parseTypedAmount(typed, locale, 2)
  const value = read.ok ? read.minor / 100 : NaN
  return value >= CASH_OUT_AT.minimum && value <= CASH_OUT_AT.maximum ? value : null
}

/** A multiplier typed in the page's locale; `onValue` gets it, or null while it is unreadable. */
export function MultiplierField(props: { label: string; locale: string; initial: number; onValue: (value: number | null) => void; t: AmountFieldProps['t'] }) {
  const [text, setText] = useState(() => formatTypedAmount(Math.round(props.initial * 100), props.locale, 2))
  const value = readMultiplier(text, props.locale)
  const range = { min: formatTypedAmount(CASH_OUT_AT.minimum * 100, props.locale, 2), max: formatTypedAmount(CASH_OUT_AT.maximum * 100, props.locale, 2) }
  return (
    <label className="game__target">
      {props.label}
      <input
        type="text"
        inputMode="decimal"
        autoComplete="off"
        data-testid="game-cash-out-at"
        aria-invalid={value === null || undefined}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value)
          props.onValue(readMultiplier(e.currentTarget.value, props.locale))
        }}
      />
      {value === null && (
        <span className="game__error" role="alert">
          {props.t('game.cashOutAt.invalid', range)}
        </span>
      )}
    </label>
  )
}
