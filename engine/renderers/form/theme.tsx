/**
 * Parlay's mobile rjsf theme: our own widgets and templates.
 *
 * Accessibility: every control has a real <label>; the error text has the id rjsf's `errorId()`
 * gives and is linked by `aria-describedby` (with `aria-invalid`) only while it is shown; targets
 * are at least 44 px (form.css); inputs carry `inputmode` / `autocomplete` so phones show the
 * right keyboard and offer autofill. Labels, option names and help are i18n keys.
 */
import { withTheme, type ThemeProps } from '@rjsf/core'
import {
  descriptionId,
  errorId,
  helpId,
  getUiOptions,
  type DescriptionFieldProps,
  type FieldHelpProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type RegistryWidgetsType,
  type WidgetProps,
} from '@rjsf/utils'
import { useState, type ChangeEvent } from 'react'
import { dateBounds } from '../../../kernel/core/date-rules'
import { AmountLine, currencyDecimals, majorToMinor, minorToMajor, useTypedAmount, type AmountReading } from '../money-fields'
import { rememberFile, UPLOAD_RULES } from './files'
import { PhoneWidget } from './phone-widget'
import { SelectPopupWidget } from './select-popup'
import { CalendarPopupWidget } from './calendar-popup'
import { DatePopupWidget } from './date-popup'
import { changedText, commonInputProps, contextOf, describedBy, emptyTo, useTypedBefore } from './widget-kit'

export type { FormContext } from './widget-kit'

function placeholderOf(props: WidgetProps): string | undefined {
  if (!props.placeholder) return undefined
  return contextOf(props).tr(props.placeholder)
}

type InputMode = 'text' | 'email' | 'tel' | 'numeric' | 'decimal' | 'url' | 'search'
function TextInput(props: WidgetProps & { inputType?: string; mode?: InputMode; auto?: string }) {
  const { value, options, schema } = props
  const ui = options as Record<string, unknown>
  useTypedBefore(props, (element) => {
    const text = changedText(element)
    return text === undefined ? undefined : { value: emptyTo(text, options) }
  })
  return (
    <input
      {...commonInputProps(props)}
      className="form-input"
      type={props.inputType ?? 'text'}
      inputMode={(ui.inputMode as InputMode | undefined) ?? props.mode}
      autoComplete={(ui.autocomplete as string | undefined) ?? props.auto}
      placeholder={placeholderOf(props)}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(event: ChangeEvent<HTMLInputElement>) => props.onChange(emptyTo(event.target.value, options))}
    />
  )
}

function TextWidget(props: WidgetProps) {
  if (props.schema.type === 'number' || props.schema.type === 'integer')
    return <NumberWidget {...props} />
  return <TextInput {...props} />
}

/** Numbers (spec §5): decimal comma accepted, no thousands separator, clamped on commit. */
function NumberWidget(props: WidgetProps) {
  const { value, options, schema, onChange } = props
  const [text, setText] = useState(value === undefined || value === null ? '' : String(value).replace('.', ','))
  useTypedBefore(props, (element) => {
    const typed = changedText(element)
    if (typed === undefined) return undefined
    const next = typed.replace(/[^\d,.-]/g, '')
    setText(next)
    const n = Number(next.replace(',', '.'))
    return { value: next === '' ? options.emptyValue : Number.isFinite(n) ? n : next }
  })
  const commit = (raw: string) => {
    const normalized = raw.replace(',', '.').trim()
    if (normalized === '') return onChange(options.emptyValue)
    let n = Number(normalized)
    if (!Number.isFinite(n)) return onChange(normalized)
    if (typeof schema.minimum === 'number') n = Math.max(n, schema.minimum)
    if (typeof schema.maximum === 'number') n = Math.min(n, schema.maximum)
    if (schema.type === 'integer') n = Math.trunc(n)
    else n = Math.round(n * 100) / 100
    setText(String(n).replace('.', ','))
    onChange(n)
  }
  return (
    <input
      {...commonInputProps(props)}
      onBlur={(event) => {
        commit(event.target.value)
        props.onBlur(props.id, event.target.value)
      }}
      className="form-input"
      type="text"
      inputMode={schema.type === 'integer' ? 'numeric' : 'decimal'}
      autoComplete={(options.autocomplete as string | undefined) ?? 'off'}
      value={text}
      onChange={(event) => {
        const next = event.target.value.replace(/[^\d,.-]/g, '')
        setText(next)
        const n = Number(next.replace(',', '.'))
        onChange(next === '' ? options.emptyValue : Number.isFinite(n) ? n : next)
      }}
    />
  )
}

/**
 * A money amount (`ui:widget: money`, issue 28 item 6): typed in the page's locale and read by
 * kernel/core/amount-input.ts into the account currency's minor units, then given to the form in
 * major units; under the field the amount as it will be charged, or why the text was refused.
 * Refused text stays in the form data as text, so the step cannot be submitted: the field rule
 * (field-rules.ts) says why there, in place of the schema's type error.
 */
function MoneyWidget(props: WidgetProps) {
  const { value, options, schema, onChange } = props
  const { tr, locale = 'en', currency, displays } = contextOf(props)
  const decimals = currencyDecimals(currency)
  const positive = schema.exclusiveMinimum === 0
  const amount = useTypedAmount(typeof value === 'number' && Number.isFinite(value) ? majorToMinor(value, decimals) : null, locale, currency, positive)
  const formValue = (text: string, read: AmountReading) => (read === null ? options.emptyValue : read.ok ? minorToMajor(read.minor, decimals) : text)
  useTypedBefore(props, (element) => {
    const typed = changedText(element)
    return typed === undefined ? undefined : { value: formValue(typed, amount.type(typed)) }
  })
  const preview = typeof options.preview === 'string' ? options.preview : 'amount.preview'
  const shownByForm = (props.rawErrors ?? []).length > 0
  const common = commonInputProps(props)
  return (
    <>
      <input
        {...common}
        aria-describedby={[common['aria-describedby'], `${props.id}-amount`].filter(Boolean).join(' ')}
        className="form-input form-money"
        type="text"
        inputMode="decimal"
        autoComplete={(options.autocomplete as string | undefined) ?? 'off'}
        value={amount.text}
        onChange={(event) => onChange(formValue(event.target.value, amount.type(event.target.value)))}
      />
      <AmountLine
        id={`${props.id}-amount`}
        reading={shownByForm && amount.reading?.ok === false ? null : amount.reading}
        locale={locale}
        currency={currency}
        displays={displays}
        decimals={decimals}
        preview={(formatted) => tr(preview, { amount: formatted })}
        t={(key, values) => tr(key, values)}
        testId="form-money-line"
      />
    </>
  )
}

function EmailWidget(props: WidgetProps) {
  return <TextInput {...props} inputType="email" mode="email" auto="email" />
}

function TextareaWidget(props: WidgetProps) {
  const { value, options, schema } = props
  useTypedBefore(props, (element) => {
    const text = changedText(element)
    return text === undefined ? undefined : { value: emptyTo(text, options) }
  })
  return (
    <textarea
      {...commonInputProps(props)}
      className="form-input form-textarea"
      rows={typeof options.rows === 'number' ? options.rows : 5}
      placeholder={placeholderOf(props)}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(event) => props.onChange(emptyTo(event.target.value, options))}
    />
  )
}

function PasswordWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const [shown, setShown] = useState(false)
  const { value, options } = props
  useTypedBefore(props, (element) => {
    const text = changedText(element)
    return text === undefined ? undefined : { value: emptyTo(text, options) }
  })
  return (
    <div className="form-password">
      <input
        {...commonInputProps(props)}
        className="form-input"
        type={shown ? 'text' : 'password'}
        autoComplete={(options.autocomplete as string | undefined) ?? 'current-password'}
        autoCapitalize="none"
        spellCheck={false}
        value={value === undefined || value === null ? '' : String(value)}
        onChange={(event) => props.onChange(emptyTo(event.target.value, options))}
      />
      <button
        type="button"
        className="form-password-toggle"
        aria-controls={props.id}
        aria-pressed={shown}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? tr('form.password.hide') : tr('form.password.show')}
      </button>
    </div>
  )
}

/** Date (spec §5): stored YYYY-MM-DD; min 2000-01-01 and max today unless the schema says otherwise. */
function DateWidget(props: WidgetProps) {
  const { today, tr } = contextOf(props)
  const bounds = dateBounds(props.schema as Record<string, unknown>, today)
  const hint = `${props.id}__hint`
  const { value, options } = props
  useTypedBefore(props, (element) => {
    const text = changedText(element)
    return text === undefined ? undefined : { value: emptyTo(text, options) }
  })
  return (
    <>
      <input
        {...commonInputProps(props)}
        aria-describedby={describedBy(props.id, props, [hint])}
        className="form-input form-date"
        type="date"
        min={bounds.min}
        max={bounds.max}
        autoComplete={(options.autocomplete as string | undefined) ?? 'off'}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => props.onChange(emptyTo(event.target.value, options))}
      />
      <p className="form-hint" id={hint}>
        {tr('form.date.hint', { min: bounds.min, max: bounds.max })}
      </p>
    </>
  )
}

/** A native select: the phone's own accessible picker sheet. Option labels are i18n keys. */
function SelectWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const { options, value } = props
  const enumOptions = options.enumOptions ?? []
  const index = enumOptions.findIndex((o) => o.value === value)
  useTypedBefore(props, (element) => {
    if (!(element instanceof HTMLSelectElement) || [...element.options].every((option) => option.selected === option.defaultSelected)) return undefined
    const i = element.value === '' ? -1 : Number(element.value)
    return { value: i === -1 ? options.emptyValue : enumOptions[i]?.value }
  })
  return (
    <select
      {...commonInputProps(props)}
      className="form-input form-select"
      value={index === -1 ? '' : String(index)}
      onChange={(event) => {
        const i = event.target.value === '' ? -1 : Number(event.target.value)
        props.onChange(i === -1 ? options.emptyValue : enumOptions[i].value)
      }}
    >
      <option value="">{tr(typeof props.placeholder === 'string' && props.placeholder ? props.placeholder : 'form.select.placeholder')}</option>
      {enumOptions.map((option, i) => (
        <option key={String(option.value)} value={String(i)} disabled={Array.isArray(options.enumDisabled) && options.enumDisabled.includes(option.value)}>
          {tr(String(option.label))}
        </option>
      ))}
    </select>
  )
}

/** A consent checkbox: the whole row is the label (44 px target). */
function CheckboxWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const { value, label, schema, required } = props
  const text = tr(label || String(schema.title ?? ''))
  const common = commonInputProps(props)
  useTypedBefore(props, (element) => (element instanceof HTMLInputElement && element.checked !== element.defaultChecked ? { value: element.checked } : undefined))
  return (
    <label className="form-checkbox" htmlFor={props.id}>
      <input
        {...common}
        required={required && (schema.const === true || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === true))}
        type="checkbox"
        checked={value === true}
        onBlur={() => props.onBlur(props.id, value)}
        onFocus={() => props.onFocus(props.id, value)}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <span className="form-checkbox-text">
        {text}
        {required ? <span className="form-required" aria-hidden="true"> *</span> : null}
      </span>
    </label>
  )
}

/** A 6-digit one-time code. */
function CodeWidget(props: WidgetProps) {
  const { value, options } = props
  const length = typeof options.length === 'number' ? options.length : 6
  useTypedBefore(props, (element) => {
    const text = changedText(element)
    return text === undefined ? undefined : { value: emptyTo(text.replace(/\D/g, '').slice(0, length), options) }
  })
  return (
    <input
      {...commonInputProps(props)}
      className="form-input form-code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern={`\\d{${length}}`}
      maxLength={length}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => props.onChange(emptyTo(event.target.value.replace(/\D/g, '').slice(0, length), options))}
    />
  )
}

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, hidden, required, displayLabel, uiSchema, schema, classNames } = props
  const { tr } = contextOf(props)
  if (hidden) return <div hidden>{children}</div>
  if (id === 'root' || schema.type === 'object') return <div className={classNames}>{children}</div>
  const ui = getUiOptions(uiSchema)
  const isCheckbox = schema.type === 'boolean' && ui.widget !== 'select' && ui.widget !== 'radio'
  const errors = (rawErrors ?? []).filter(Boolean)
  return (
    <div className={`form-field${errors.length ? ' form-field-invalid' : ''}`} data-field={id.replace(/^root_/, '')}>
      {displayLabel && !isCheckbox && label ? (
        <label className="form-label" htmlFor={id}>
          {tr(label)}
          {required ? <span className="form-required" aria-hidden="true"> *</span> : null}
        </label>
      ) : null}
      {children}
      {errors.length > 0 ? (
        <p className="form-error" id={errorId(id)}>
          {errors.join(' ')}
        </p>
      ) : null}
      {props.rawHelp ? (
        <p className="form-hint" id={helpId(id)}>
          {tr(props.rawHelp)}
        </p>
      ) : null}
    </div>
  )
}

function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  return <div className="form-fields">{props.properties.filter((p) => !p.hidden).map((p) => p.content)}</div>
}

function DescriptionFieldTemplate(props: DescriptionFieldProps) {
  const { tr } = contextOf(props)
  if (!props.description) return null
  return (
    <p className="form-hint" id={descriptionId(props.id)}>
      {typeof props.description === 'string' ? tr(props.description) : props.description}
    </p>
  )
}

/** A file to upload (`ui:widget: file`): the File stays in ./files.ts, the value is its name. */
function FileWidget(props: WidgetProps) {
  const { tr } = contextOf(props)
  const [size, setSize] = useState<number | null>(null)
  const ui = props.options as Record<string, unknown>
  const accept = typeof ui.accept === 'string' ? ui.accept : [...UPLOAD_RULES.types, ...UPLOAD_RULES.extensions].join(',')
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    rememberFile(props.id, file)
    setSize(file ? file.size : null)
    props.onChange(file ? file.name : props.options.emptyValue)
  }
  // a file chosen before the form was live is still in the input
  useTypedBefore(props, (element) => {
    const file = element instanceof HTMLInputElement ? element.files?.[0] : undefined
    if (!file) return undefined
    rememberFile(props.id, file)
    setSize(file.size)
    return { value: file.name }
  })
  const { onBlur: _blur, onFocus: _focus, ...common } = commonInputProps(props)
  return (
    <div className="form-file">
      <input {...common} className="form-input form-file-input" type="file" accept={accept} onChange={onChange} />
      {props.value && size !== null ? (
        <p className="form-file-chosen" data-testid="file-chosen">
          {tr('form.file.chosen', { name: String(props.value), size: (size / (1024 * 1024)).toFixed(1) })}
        </p>
      ) : null}
    </div>
  )
}

const Nothing = () => null
const HelpNothing = (_props: FieldHelpProps) => null

export const widgets: RegistryWidgetsType = {
  TextWidget,
  EmailWidget,
  PasswordWidget,
  TextareaWidget,
  DateWidget,
  SelectWidget,
  CheckboxWidget,
  UpDownWidget: NumberWidget,
  phone: PhoneWidget,
  PhoneWidget,
  code: CodeWidget,
  CodeWidget,
  file: FileWidget,
  FileWidget,
  money: MoneyWidget,
  MoneyWidget,
  selectPopup: SelectPopupWidget,
  SelectPopupWidget,
  calendarPopup: CalendarPopupWidget,
  CalendarPopupWidget,
  datePopup: DatePopupWidget,
  DatePopupWidget,
}

export const theme: ThemeProps = {
  widgets,
  templates: {
    FieldTemplate,
    ObjectFieldTemplate,
    DescriptionFieldTemplate,
    TitleFieldTemplate: Nothing,
    FieldErrorTemplate: Nothing,
    FieldHelpTemplate: HelpNothing,
    ErrorListTemplate: Nothing,
  },
}

/** The themed rjsf Form. */
export const ThemedForm = withTheme(theme)
