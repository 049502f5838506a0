/**
 * The account status's own rule for a money action (kernel/punters/account-statuses.ts,
 * docs/adr/0088-account-statuses.md): a status that closes the action refuses it with its code —
 * CUSTOMER_SELFEXCLUDED for the self-exclusion statuses, INCORRECT_PUNTER_STATE for the rest —
 * and names itself in the payload (`status`), so the page shows the status's own text. Statuses
 * that carry a restriction are left to ./restrictions.ts (the jurisdiction decides those); a state
 * not in the list is refused (fail closed).
 */
import { accountStatusOf, statusRefusalCode, type Allowed } from '../../kernel/punters/account-statuses'

export type MoneyAction = Exclude<keyof Allowed, 'login'>

export interface StatusRefusal {
  ok: false
  httpStatus: 403
  code: 'CUSTOMER_SELFEXCLUDED' | 'INCORRECT_PUNTER_STATE'
  payload: { operation: string; restriction: null; endDate: null; status: string }
}

/** The refusal of `action` for a punter in `state`, or undefined when the status allows it (or a restriction decides). */
export function statusRefusal(state: string, action: MoneyAction, operation: string = action): StatusRefusal | undefined {
  const status = accountStatusOf(state)
  // a restriction's money actions are the jurisdiction's to close; a withdrawal is the status's own
  if (status && ((status.restriction && action !== 'withdraw') || status.may[action])) return undefined
  const code = status ? statusRefusalCode(status) : 'INCORRECT_PUNTER_STATE'
  return { ok: false, httpStatus: 403, code, payload: { operation, restriction: null, endDate: null, status: status?.state ?? state } }
}
