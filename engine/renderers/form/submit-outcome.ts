/**
 * What a failed step submission shows (FlowForm's submit/error concern), pure: field errors
 * (`{field, code}[]` details) go to the step that shows the field, the current one first; what
 * no step shows, or a failure without field errors, becomes the form's alert text.
 */
import type { Result } from '../../../kernel/core/contracts'
import { errorMessageKey, refusalMessageKey } from '../../core/gateway'
import type { FlowStep } from '../../../kernel/documents/types'
import { fieldErrorsOf, type FieldError } from './errors'
import { fieldsOf } from './flow-steps'
import type { Translate } from './texts'
import type { ValidatorModule } from './validator-module'

export interface SubmitFailure {
  /** The field errors some visible step shows. */
  placed: FieldError[]
  /** The step of the first placed error (to go to), when there is one. */
  target?: FlowStep
  /** The form's alert text, or null when every error is on a field. */
  alert: string | null
}

/** The alert text of a failure: the text its action chose, else the refused operation's deciding
 * restriction (a restricted punter's deposit says why, and only that), else its server text (filled
 * from the payload), else the generic one. */
function alertText(failure: Extract<Result<unknown>, { ok: false }>, tr: Translate): string {
  if (failure.text) {
    const chosen = tr(failure.text.key, failure.text.values ?? {}, '')
    if (chosen && chosen !== failure.text.key) return chosen
  }
  const known = (k: string) => {
    const text = tr(k, {}, '')
    return text !== '' && text !== k
  }
  const refusal = refusalMessageKey(failure.code, failure.details, known)
  const key = refusal.startsWith('regulation.refused.') || refusal.startsWith('account.status.') ? refusal : errorMessageKey(failure.code)
  // the answer's payload fills the text (LOGIN_DENIED_BY_PERMISSION: {{disabledUntil, datetime}})
  const details = failure.details !== null && typeof failure.details === 'object' ? (failure.details as Record<string, unknown>) : {}
  const text = tr(key, details, '')
  return text && text !== key && failure.code !== 'ValidationError' ? text : tr('form.error.submit')
}

export function submitFailure(failure: Extract<Result<unknown>, { ok: false }>, step: FlowStep, visibleSteps: FlowStep[], validators: ValidatorModule, tr: Translate): SubmitFailure {
  const errors = fieldErrorsOf(failure)
  const stepOf = (e: FieldError) => (e.field === '' ? undefined : [step, ...visibleSteps].find((s) => fieldsOf(validators.schemas[s.id]).includes(e.field.split('.')[0])))
  const placed = errors.filter((e) => stepOf(e) !== undefined)
  const alert = placed.length === 0 || placed.length < errors.length ? alertText(failure, tr) : null
  return { placed, target: placed.length > 0 ? stepOf(placed[0]) : undefined, alert }
}

/** A submit answer's `reference` (e.g. a stored contact message's "C-7K3QX9M2"), when it has one. */
export const referenceOf = (value: unknown): string | null => {
  const reference = (value as { reference?: unknown } | null | undefined)?.reference
  return typeof reference === 'string' && reference.length > 0 && reference.length <= 40 ? reference : null
}

/** What a step's submit came to: its result, and the reference to show in the thank-you (undefined: keep the one shown). */
export interface SubmitAnswer {
  result: Result<unknown>
  reference?: string | null
}

/**
 * A step's submit answer: the form post the chain made (the submission's recorded answer) decides
 * when it failed (its field errors show even when the chain went on), and when it succeeded its
 * reference is shown; without a post, the chain's own result.
 */
export function submitAnswer(chain: Result<unknown>, posted: Result<unknown> | undefined): SubmitAnswer {
  if (posted && !posted.ok) return { result: posted }
  if (posted) return { result: chain, reference: referenceOf(posted.value) }
  return { result: chain }
}
