/**
 * The one door to the typed-money chunk (issue 28 item 6): the fields that read what a punter types
 * (./amount-field.tsx, ./nodes/setting-number.tsx) and the reading itself (kernel/core/amount-input.ts).
 * The page loads it on first use (./amount-field-lazy.ts) and the forms chunk imports it, both only
 * through this module: anything else importing those files directly made the bundler split React
 * and the engine's core out of the first-load script into extra chunks (issue 10's budget).
 */
export { AmountField, AmountLine, MultiplierField, useTypedAmount, type AmountReading } from './amount-field'
export { default as NumberSetting } from './nodes/setting-number'
export { amountErrorText, currencyDecimals, majorToMinor, minorToMajor, parseMoneyInput } from '../../kernel/core/amount-input'
