/**
 * A number or money setting (the `setting` node's number and money controls; ./SettingNode.tsx),
 * in a chunk of its own with the typed-amount reading it needs.
 */
import { useState } from 'react'
import { currencyDecimals, majorToMinor, minorToMajor } from '../../../kernel/core/amount-input'
import type { CurrencyDisplays } from '../../../kernel/core/format'
import type { NodeOf } from '../../../kernel/documents/types'
import { AmountLine, useTypedAmount } from '../amount-field'

type SettingNodeDocument = NodeOf<'setting'>

/**
 * A number saved when the punter leaves the field or presses Enter. It is read in the page's
 * locale (kernel/core/amount-input.ts: `2,5` in es, never `1.000` as 1); a `money` setting in the
 * account's currency, with its decimals and the amount shown as it will be used. Unreadable or
 * out of range is refused with why, never saved rounded.
 */
export default function NumberSetting(props: {
  node: SettingNodeDocument
  id: string
  shown: unknown
  common: { id: string; disabled: boolean; 'aria-describedby'?: string }
  label: string
  hint: React.ReactNode
  statusLine: React.ReactNode
  save: (value: unknown) => Promise<void>
  /** The page's locale and the account's currency (a money setting's). */
  locale: string
  currency: string | undefined
  /** The site's currencyDisplay (kernel/core/format.ts). */
  displays?: CurrencyDisplays
  t: (key: string, values?: Record<string, unknown>) => string
}) {
  const { node, shown, locale, t } = props
  const money = node.control === 'money'
  const currency = money ? props.currency : undefined
  const stored = typeof shown === 'number' && Number.isFinite(shown) ? majorToMinor(shown, currencyDecimals(currency)) : null
  const [pending, setPending] = useState<number | null | undefined>(undefined)
  const field = useTypedAmount(pending === undefined ? stored : pending, locale, currency, false)
  const [outOfRange, setOutOfRange] = useState(false)
  const major = field.reading?.ok ? minorToMajor(field.reading.minor, field.decimals) : null
  const commit = () => {
    if (pending === undefined || field.reading === null || !field.reading.ok || major === null) return
    const inRange = (node.min === undefined || major >= node.min) && (node.max === undefined || major <= node.max)
    setOutOfRange(!inRange)
    if (!inRange) return
    setPending(undefined)
    if (major !== shown) void props.save(major)
  }
  const lineId = `${props.id}-amount`
  return (
    <div className="setting" data-control={node.control} data-testid={node.testId} data-key={node.key}>
      <label className="setting__label" htmlFor={props.id}>
        {props.label}
      </label>
      <input
        {...props.common}
        className="setting__number"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        aria-invalid={outOfRange || field.reading?.ok === false || undefined}
        aria-describedby={[props.common['aria-describedby'], lineId].filter(Boolean).join(' ')}
        value={field.text}
        onChange={(e) => {
          setOutOfRange(false)
          const read = field.type(e.currentTarget.value)
          setPending(read?.ok ? read.minor : null)
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit()
        }}
      />
      <AmountLine id={lineId} reading={money || field.reading?.ok === false ? field.reading : null} locale={locale} currency={currency} displays={props.displays} decimals={field.decimals} preview={(amount) => t('amount.preview', { amount })} t={t} testId="amount-line" />
      {outOfRange && (
        <span className="setting__error" role="alert">
          {t('settings.invalidNumber', { min: node.min ?? 0, max: node.max ?? '' })}
        </span>
      )}
      {props.hint}
      {props.statusLine}
    </div>
  )
}
