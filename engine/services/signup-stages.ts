/**
 * The sign-up stages of spec §4 as analytics events (issue 18): load registration data; sign up
 * (start, success, failure, cancel); redirect (start, cancel); promo code check. The engine only
 * reports finished actions, screens and sessions, so the stages are read from that sequence by this
 * small state machine (framework-free, so tests feed it events directly):
 *   start   — the first step of the form is submitted (join.start finished, whatever its outcome)
 *   success — a session appeared during sign-up (the new punter is logged in), or the e-mail
 *             confirmation link logged the new punter in
 *   failure — a sign-up step failed (with its code)
 *   cancel  — after start and before success, the punter went to a screen outside /join, or reset
 *   redirect start  — after success, the after-sign-up chain or the deposit redirect ran
 *   redirect cancel — that redirect failed
 */
export interface StageEvent {
  type: 'sign up' | 'redirect' | 'load registration data' | 'promo code check'
  properties: { stage: string; outcome: string; code?: string }
}

export type SignUpSignal =
  | { type: 'action'; name: string; ok: boolean; code?: string }
  | { type: 'screen'; path: string }
  | { type: 'registered' }

const SIGN_UP_STEPS = new Set(['join.start', 'join.verifyCode', 'join.resendCode', 'join.resendEmail', 'join.switchMethod', 'join.loginByRegistrationToken', 'identity.mitIdLogin'])
const REDIRECTS = new Set(['join.afterSignUp', 'deposit.redirect'])
/** /join, with or without a locale prefix (/es/join). */
const JOIN_PATH = /^(\/[a-z]{2})?\/join(\/|$)/

const stage = (type: StageEvent['type'], name: string, outcome: string, code?: string): StageEvent => ({ type, properties: { stage: name, outcome, ...(code ? { code } : {}) } })

export function createSignUpStages(): (signal: SignUpSignal) => StageEvent[] {
  let phase: 'idle' | 'started' | 'registered' | 'redirected' = 'idle'
  return (signal) => {
    if (signal.type === 'registered') {
      // a session that appears outside a sign-up is a login, not a registration
      if (phase !== 'started') return []
      phase = 'registered'
      return [stage('sign up', 'sign up', 'success')]
    }
    if (signal.type === 'screen') {
      if (phase !== 'started' || JOIN_PATH.test(signal.path)) return []
      phase = 'idle'
      return [stage('sign up', 'sign up', 'cancel')]
    }
    const { name, ok, code } = signal
    if (name === 'join.loadSettings') return [stage('load registration data', 'load registration data', ok ? 'success' : 'failure', code)]
    if (name === 'promo.check') return [stage('promo code check', 'promo code check', ok ? 'success' : 'error', code)]
    if (name === 'join.reset' && phase === 'started') {
      phase = 'idle'
      return [stage('sign up', 'sign up', 'cancel')]
    }
    if (REDIRECTS.has(name) && (phase === 'registered' || phase === 'redirected')) {
      if (phase === 'redirected' && ok) return []
      phase = 'redirected'
      return [stage('redirect', 'redirect', ok ? 'start' : 'cancel', code)]
    }
    if (name === 'join.loginByRegistrationToken' && ok && phase === 'idle') {
      // the e-mail confirmation link opened in a new page: the sign-up ends with this login
      phase = 'registered'
      return [stage('sign up', 'sign up', 'success')]
    }
    if (!SIGN_UP_STEPS.has(name)) return []
    const events: StageEvent[] = []
    if (phase === 'idle' && name === 'join.start') {
      phase = 'started'
      events.push(stage('sign up', 'sign up', 'start'))
    }
    if (!ok) events.push(stage('sign up', 'sign up', 'failure', code))
    return events
  }
}
