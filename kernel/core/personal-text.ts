/**
 * Which rendered texts are the punter's own data, for session replay's medium masking (spec §9:
 * "default mask level medium"): inputs are masked by the recorder, labels and titles stay readable
 * so support can follow the page, and a text that interpolates a value computed from the context
 * (a balance, an e-mail, a nickname, an account number, a count of the punter's bets) is marked
 * `data-personal` and recorded as asterisks. Static texts never carry punter data, so nothing is
 * lost by leaving them readable.
 */
import type { Binding, Text } from '../documents/types'

const isBinding = (value: unknown): boolean => typeof value === 'object' && value !== null && '$' in value

/** Does this text show a value computed from the context (so possibly the punter's data)? */
export function carriesData(text: Text | Binding | undefined): boolean {
  if (text === undefined || typeof text === 'string') return false
  if (isBinding(text)) return true
  if (!('key' in text)) return false
  if (isBinding(text.count)) return true
  return Object.values(text.values ?? {}).some(isBinding)
}
