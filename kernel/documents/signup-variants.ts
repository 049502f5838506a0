/**
 * The sign-up variants of the spec's API (§7 "Registration and bonus") as data, read by the
 * browser's `join.*` actions and by the server's sign-up router alike, so neither names a variant
 * in code. A variant is an API shape (its paths, its channel), not a policy: which variant a site
 * offers, with which flow and which checks, is its jurisdiction document's `signup` block.
 *
 * Paths are under the mobile gate. `begin`/`complete` list the versions the server answers; the
 * browser calls the first. `registrationToken`: the variant also issues a registration token
 * (begin → confirm → complete, `continue` reports the state).
 */
import variants from './signup-variants.json' with { type: 'json' }

export interface SignupVariant {
  channel: 'sms' | 'email'
  begin: string[]
  complete?: string[]
  resend?: string
  confirm?: string
  continue?: string
  /** Sets the e-mail of a started registration (variants with a registration token). */
  addEmail?: string
  registrationToken?: boolean
}

export const SIGNUP_VARIANTS: Readonly<Record<string, SignupVariant>> = variants as Record<string, SignupVariant>
export const SIGNUP_VARIANT_NAMES = Object.keys(SIGNUP_VARIANTS)

export function signupVariant(name: string): SignupVariant | undefined {
  return Object.hasOwn(SIGNUP_VARIANTS, name) ? SIGNUP_VARIANTS[name] : undefined
}
