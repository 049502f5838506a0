/**
 * The field rules a flow form checks in the browser beside the precompiled validator (FlowForm's
 * field concern): the default date bounds (spec §5), phone numbers against the one phone rule
 * (kernel/core/phone-rule.ts, once its lazy chunk has arrived: see phone-loader.ts), and money
 * amounts whose typed text could not be read (kernel/core/amount-input.ts: why, in the locale).
 * Adds each problem to rjsf's error object, with the validation texts.
 */
import type { UiSchema } from '@rjsf/utils'
import { amountErrorText, currencyDecimals, parseMoneyInput } from '../money-fields'
import { checkDefaultDateBounds } from '../../../kernel/core/date-rules'
import type { Values } from './flow-steps'
import { phoneRuleIfLoaded } from './phone-loader'
import { validationMessage, type Translate } from './texts'

type Errors = Record<string, { addError(message: string): void } | undefined>
type Bounds = { properties?: Record<string, { formatMinimum?: string; formatMaximum?: string }> }

export interface FieldRuleInput {
  schema: Record<string, unknown>
  uiSchema: UiSchema
  fields: string[]
  data: Values
  today: string
  phoneCountry?: string
  /** The page's locale and the account's currency, for money fields. */
  locale?: string
  currency?: string
  tr: Translate
}

const uiOf = (uiSchema: UiSchema | undefined, field: string) => (uiSchema as Record<string, Record<string, unknown> | undefined> | undefined)?.[field]

/** Whether the field at an error's property (".amount") is a money field (`ui:widget: money`). */
export function isMoneyField(uiSchema: UiSchema | undefined, property: string | undefined): boolean {
  const field = (property ?? '').replace(/^\./, '')
  return uiOf(uiSchema, field)?.['ui:widget'] === 'money'
}

/** A money field holds text only when the punter's text could not be read: say why. */
function addMoneyErrors(input: FieldRuleInput, errors: Errors): void {
  const locale = input.locale ?? 'en'
  for (const field of input.fields) {
    const value = input.data[field]
    if (uiOf(input.uiSchema, field)?.['ui:widget'] !== 'money' || typeof value !== 'string') continue
    const read = parseMoneyInput(value, locale, input.currency)
    const { key, values } = amountErrorText(read.ok ? 'NOT_A_NUMBER' : read.error, locale, currencyDecimals(input.currency))
    errors[field]?.addError(input.tr(key, values))
  }
}

function addDateErrors(input: FieldRuleInput, errors: Errors): void {
  for (const problem of checkDefaultDateBounds(input.schema, input.data, input.today)) {
    const bounds = (input.schema as Bounds).properties?.[problem.field]
    const limit = problem.code === 'formatMinimum' ? (bounds?.formatMinimum ?? '2000-01-01') : (bounds?.formatMaximum ?? input.today)
    errors[problem.field]?.addError(validationMessage(input.tr, problem.code, { limit }))
  }
}

function addPhoneErrors(input: FieldRuleInput, errors: Errors): void {
  const rule = phoneRuleIfLoaded()
  if (!rule) return
  for (const field of input.fields) {
    const ui = uiOf(input.uiSchema, field)
    const value = input.data[field]
    if (ui?.['ui:widget'] !== 'phone' || typeof value !== 'string' || !value) continue
    const { country, national } = rule.splitPhone(value, input.phoneCountry)
    if (!rule.isValidNational(national, country)) errors[field]?.addError(validationMessage(input.tr, 'phone'))
  }
}

/** Adds the date-bound, phone and money problems of the step's data to rjsf's errors; returns them. */
export function addFieldRuleErrors<E>(input: FieldRuleInput, errors: E): E {
  addDateErrors(input, errors as unknown as Errors)
  addPhoneErrors(input, errors as unknown as Errors)
  addMoneyErrors(input, errors as unknown as Errors)
  return errors
}
