/**
 * The join session of a sign-up (spec §4: "A join session kept locally is valid while code expiry
 * is in the future"): tokens, phone, code expiry and resend window, in localStorage while the code
 * is valid so a reload continues the sign-up; and logging the new punter in with the answer.
 */
import { authController } from './auth'
import type { ActionEnvironment } from './registry'
import { pageLocalStorage } from '../core/web-storage'

export const JOIN_STORAGE_KEY = 'parlay.join'
/** A sign-up variant of the spec's API; its paths are data (kernel/documents/signup-variants.json). */
export type JoinVariant = string

export interface VerificationState {
  status: string
  verificationToken?: string
  registrationToken?: string
  phoneNumber?: string
  attemptVerificationCount: number
  nextVerificationAfterMillis: number
  attemptCodeCount: number
  codeExpiredAfterMillis: number
}

export interface JoinSession {
  variant: JoinVariant
  verificationToken?: string
  registrationToken?: string
  phoneNumber?: string
  email?: string
  codeExpiresAt: number
  nextSendAt: number
  attemptsLeft: number
}

export interface LoginAnswer {
  status: string
  accessToken: string
  refreshToken: string
  creationTime: number
  loginTimeout: number
  punterHash?: string
  identityState?: string
}

export const storage = pageLocalStorage

let memory: JoinSession | null = null

/** The join session, if its code is still valid. */
export function joinSession(now: number): JoinSession | null {
  if (!memory) {
    try {
      const text = storage()?.getItem(JOIN_STORAGE_KEY)
      memory = text ? (JSON.parse(text) as JoinSession) : null
    } catch {
      memory = null
    }
  }
  if (memory && memory.codeExpiresAt <= now && memory.verificationToken) clearJoinSession()
  return memory
}

export function saveJoinSession(session: JoinSession): void {
  memory = session
  try {
    storage()?.setItem(JOIN_STORAGE_KEY, JSON.stringify(session))
  } catch {
    // storage full or denied: the session lives in memory only
  }
}

export function clearJoinSession(): void {
  memory = null
  try {
    storage()?.removeItem(JOIN_STORAGE_KEY)
  } catch {
    // ignore
  }
}

export function applyState(session: JoinSession, state: VerificationState, now: number): JoinSession {
  return {
    ...session,
    codeExpiresAt: now + state.codeExpiredAfterMillis,
    nextSendAt: now + state.nextVerificationAfterMillis,
    attemptsLeft: state.attemptCodeCount,
  }
}

export async function logIn(env: ActionEnvironment, answer: LoginAnswer): Promise<void> {
  const auth = authController(env)
  auth.applyTokens({ ...answer } as Parameters<typeof auth.applyTokens>[0], env.now())
  await auth.loadUser()
}
