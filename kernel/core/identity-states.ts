/**
 * Which identity states count as an identified punter (spec §3 punterIdentityState, §4): limited or
 * full identification, or a successful binding. One rule for the browser's `user.identified` and
 * the server's checks (a withdrawal where the jurisdiction requires a verified identity).
 */
export const IDENTIFIED_STATES: readonly string[] = ['simple_success', 'bind', 'full', 'limited']

export const isIdentifiedState = (state: string | null | undefined): boolean => IDENTIFIED_STATES.includes(state ?? '')
