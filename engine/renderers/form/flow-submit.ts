/**
 * A flow step's submit and its answer (FlowForm's submit concern): the step's `submit` chain runs
 * over the form values; a failure shows its field errors on the step that shows the field (going
 * back to it) or as the form's alert; a success goes to the next step whose `when` holds, or, after
 * the last, shows the thank-you and runs the flow's `onComplete` chain. Also the field edits that
 * clear a server error and the Back button.
 */
import type { IChangeEvent } from '@rjsf/core'
import { useCallback, useMemo, useState, type Dispatch, type RefObject, type SetStateAction } from 'react'
import { buildContext } from '../../core/context'
import type { ActionChain, FlowDocument, FlowStep } from '../../../kernel/documents/types'
import type { Result } from '../../../kernel/core/contracts'
import { useRuntime } from '../runtime'
import { beginSubmission, endSubmission } from './actions'
import { toErrorSchema, withoutChanged, type FieldError } from './errors'
import { stepAfter, withoutKeys, type Values } from './flow-steps'
import { submitAnswer, submitFailure } from './submit-outcome'
import type { Translate } from './texts'
import type { ValidatorModule } from './validator-module'

export interface FlowSubmissionOptions {
  flow: FlowDocument
  validators: ValidatorModule
  tr: Translate
  values: Values
  setValues: Dispatch<SetStateAction<Values>>
  step: FlowStep | undefined
  visibleSteps: FlowStep[]
  index: number
  fields: string[]
  stepData: Values
  hiddenFields: string[]
  setStepId: (id: string) => void
  setDone: (done: boolean) => void
  setAttempted: (attempted: boolean) => void
  /** Set when the punter moved to another step (its heading then takes the focus). */
  movedRef: RefObject<boolean>
}

export function useFlowSubmission(options: FlowSubmissionOptions) {
  const { flow, validators, tr, values, setValues, step, visibleSteps, index, fields, stepData, hiddenFields, setStepId, setDone, setAttempted, movedRef } = options
  const runtime = useRuntime()
  const [busy, setBusy] = useState(false)
  // the reference the last submit's answer carried (a stored contact message's), shown in the thank-you
  const [reference, setReference] = useState<string | null>(null)
  const [serverErrors, setServerErrors] = useState<FieldError[]>([])
  const [formError, setFormError] = useState<string | null>(null)

  const extraErrors = useMemo(() => {
    const here = serverErrors.filter((e) => fields.includes(e.field.split('.')[0]))
    return here.length > 0 ? toErrorSchema(here, tr) : undefined
  }, [serverErrors, fields, tr])

  const onChange = useCallback(
    (event: IChangeEvent) => {
      const next = (event.formData ?? {}) as Values
      setServerErrors((current) => (current.length > 0 ? withoutChanged(current, stepData, next) : current))
      setValues((current) => ({ ...current, ...next }))
    },
    [stepData],
  )

  /** A failed submit: its errors on the fields (the step showing the first one, focused) or as the alert. */
  const showFailure = (failure: Extract<Result<unknown>, { ok: false }>, current: FlowStep) => {
    const { placed, target, alert } = submitFailure(failure, current, visibleSteps, validators, tr)
    setServerErrors(placed)
    if (alert !== null) setFormError(alert)
    if (!target) return
    if (target.id !== current.id) {
      movedRef.current = false
      setStepId(target.id)
    }
    const field = placed[0].field.split('.')[0]
    setTimeout(() => document.getElementById(`root_${field}`)?.focus(), 50)
  }

  const onSubmit = useCallback(
    async (event: IChangeEvent) => {
      if (!step || busy) return
      const merged: Values = withoutKeys({ ...values, ...((event.formData ?? {}) as Values) }, hiddenFields)
      setValues(merged)
      setFormError(null)
      setServerErrors([])
      setBusy(true)
      let result: Result<unknown> = { ok: true, value: undefined }
      if (step.submit && step.submit.length > 0) {
        const submission = beginSubmission(merged)
        try {
          const answer = submitAnswer(await runtime.run(step.submit as ActionChain, { form: merged }), submission.result)
          result = answer.result
          if (answer.reference !== undefined) setReference(answer.reference)
        } finally {
          endSubmission(submission)
        }
      }
      setBusy(false)
      if (!result.ok) return showFailure(result, step)
      movedRef.current = true
      setAttempted(false)
      const next = stepAfter(flow, step, buildContext(runtime.stores, { form: merged }))
      if (next) return setStepId(next.id)
      setDone(true)
      await runtime.run(flow.onComplete, { form: merged })
    },
    [step, busy, values, runtime, tr, flow, visibleSteps, validators, hiddenFields],
  )

  const back = () => {
    if (index <= 0) return
    movedRef.current = true
    setFormError(null)
    setStepId(visibleSteps[index - 1].id)
  }

  return { busy, reference, formError, extraErrors, onChange, onSubmit, back }
}
