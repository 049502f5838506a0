/**
 * The money fields, loaded on first show (issue 10's first-load budget): a page whose bet slip is
 * empty, or that has no game or money setting, never fetches the typed-amount reading. Only
 * through ./money-fields.ts (see there why).
 */
import { lazy } from 'react'

const fields = () => import('./money-fields')

export const LazyAmountField = lazy(() => fields().then((m) => ({ default: m.AmountField })))
export const LazyMultiplierField = lazy(() => fields().then((m) => ({ default: m.MultiplierField })))
export const LazyNumberSetting = lazy(() => fields().then((m) => ({ default: m.NumberSetting })))
/** The crash game's target multiplier before the punter types one (the server's default too). */
export const INITIAL_CASH_OUT_AT = 2
