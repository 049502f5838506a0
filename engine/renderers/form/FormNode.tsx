/**
 * The `form` node: a flow document rendered step by step with rjsf and our mobile theme.
 *
 * Reached only through `React.lazy` (see `../nodes/FormNode.tsx`), so rjsf, its utils, this theme
 * and the validator module stay out of the lobby's first load.
 *
 * - Loads the flow document and, in parallel, the flow's precompiled validator module (ajv
 *   standalone code compiled by the server, imported from a same-origin URL: no eval, CSP-safe).
 * - Shows the steps in order, skipping those whose `when` is false against the context with the
 *   form values so far (`form.<field>`); "Step n of m".
 * - Validates in the browser with the precompiled validator (messages `form.error.<keyword>`),
 *   plus the default date bounds (spec §5).
 * - Submit runs the step's `submit` chain; a failed Result whose details are `{field, code}[]`
 *   (a ValidationError envelope's payload) shows on the fields as `server.error.<code>`.
 *   The last step's success runs the flow's `onComplete` chain.
 * - A field whose uiSchema `ui:when` is not true (against the context with the form values) is
 *   hidden and its value is not sent (Curaçao's nickname for the countries its policy skips).
 */
import type { IChangeEvent } from '@rjsf/core'
import type { CustomValidator, ErrorTransformer, RJSFSchema, UiSchema } from '@rjsf/utils'
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js'
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { buildContext, evaluateCondition } from '../../core/context'
import type { Result } from '../../core/contracts'
import { errorMessageKey } from '../../core/gateway'
import type { ActionChain, FlowDocument, FlowStep, NodeOf } from '../../documents/types'
import { useEvaluate, useRuntime } from '../runtime'
import { beginSubmission, endSubmission, registerFormActions } from './actions'
import { checkDefaultDateBounds, isoDate } from '../../core/date-rules'
import { fieldErrorsOf, toErrorSchema, withoutChanged, type FieldError } from './errors'
import { countryFor, isValidNational, splitPhone } from './phone'
import { createTranslate, validationMessage, type Translate } from './texts'
import { ThemedForm, type FormContext } from './theme'
import { loadValidatorModule, type ValidatorModule } from './validator-module'
import { FormPlaceholder } from '../nodes/FormPlaceholder'
import './form.css'

registerFormActions()

type Values = Record<string, unknown>
type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; flow: FlowDocument; validators: ValidatorModule }

const DEFAULTS = { constAsDefaults: 'never', emptyObjectFields: 'skipDefaults' } as const


/** The runtime's `run` as the form uses it: with form values in the context, returning the Result
 * when the runtime gives it back (older runtimes return nothing; `form.post` then reports it). */
function fieldsOf(schema: Record<string, unknown> | undefined): string[] {
  const properties = schema?.properties
  return properties && typeof properties === 'object' ? Object.keys(properties) : []
}

/** Fields whose uiSchema `ui:when` (compiled by the server) is not true against the form so far. */
function hiddenByCondition(uiSchema: unknown, fields: string[], ctx: ReturnType<typeof buildContext>): string[] {
  const options = (uiSchema ?? {}) as Record<string, Record<string, unknown> | undefined>
  return fields.filter((field) => options[field]?.['ui:when'] !== undefined && !evaluateCondition(options[field]!['ui:when'], ctx))
}

/** The step's uiSchema with the hidden fields' widgets hidden (their values are not sent). */
function withHidden(uiSchema: UiSchema, hidden: string[]): UiSchema {
  if (hidden.length === 0) return uiSchema
  const out: Record<string, unknown> = { ...uiSchema }
  for (const field of hidden) out[field] = { ...((uiSchema as Record<string, object>)[field] ?? {}), 'ui:widget': 'hidden' }
  return out as UiSchema
}

function withoutKeys(values: Values, keys: string[]): Values {
  return keys.length === 0 ? values : Object.fromEntries(Object.entries(values).filter(([k]) => !keys.includes(k)))
}

function pick(values: Values, keys: string[]): Values {
  return Object.fromEntries(Object.entries(values).filter(([k]) => keys.includes(k)))
}

export default function FormNode({ node }: { node: NodeOf<'form'> }) {
  const runtime = useRuntime()
  const evaluate = useEvaluate()
  const tr = useMemo(() => createTranslate(runtime.t), [runtime])
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let alive = true
    setLoaded({ status: 'loading' })
    Promise.all([runtime.load<FlowDocument>('flow', node.flow), loadValidatorModule(node.flow, runtime.stores)])
      .then(([doc, validators]) => {
        if (!alive) return
        if (!doc.ok) throw new Error(`flow ${node.flow}: ${doc.code}`)
        const missing = doc.value.steps.filter((s) => !validators.schemas[s.id])
        if (missing.length > 0) throw new Error(`flow ${node.flow}: no validator for step ${missing.map((s) => s.id).join(', ')}`)
        setLoaded({ status: 'ready', flow: doc.value, validators })
      })
      .catch((error: unknown) => {
        if (!alive) return
        console.warn(`[parlay:form] ${(error as Error)?.message ?? String(error)}`)
        setLoaded({ status: 'failed' })
      })
    return () => {
      alive = false
    }
  }, [runtime, node.flow, attempt, runtime.documentsVersion()])

  if (loaded.status === 'loading')
    return (
      // as tall as the first step will be: what follows the form does not jump (issue 10)
      <FormPlaceholder flowId={node.flow} className="form-flow form-loading" label={tr('form.loading')} testId={`form-${node.flow}`} />
    )
  if (loaded.status === 'failed')
    return (
      <div className="form-flow" data-testid={`form-${node.flow}`}>
        <p className="form-alert" role="alert">
          {tr('form.unavailable')}
        </p>
        <button type="button" className="form-button form-button-secondary" onClick={() => setAttempt((n) => n + 1)}>
          {tr('form.retry')}
        </button>
      </div>
    )
  const text = (t: FlowDocument['title']) => (typeof t === 'string' ? tr(t) : evaluate.text(t))
  return <FlowForm flow={loaded.flow} validators={loaded.validators} tr={tr} title={text} testId={node.testId ?? `form-${node.flow}`} />
}

interface FlowFormProps {
  flow: FlowDocument
  validators: ValidatorModule
  tr: Translate
  title: (text: FlowDocument['title']) => string
  testId: string
}

function FlowForm({ flow, validators, tr, title, testId }: FlowFormProps) {
  const runtime = useRuntime()
  const [values, setValues] = useState<Values>({})
  const [stepId, setStepId] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState(false)
  const [serverErrors, setServerErrors] = useState<FieldError[]>([])
  const [formError, setFormError] = useState<string | null>(null)
  const [attempted, setAttempted] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const movedRef = useRef(false)

  const visibleSteps = useMemo(() => {
    const ctx = buildContext(runtime.stores, { form: values })
    return flow.steps.filter((s) => evaluateCondition(s.when, ctx))
  }, [flow, values, runtime.stores])

  const step: FlowStep | undefined = visibleSteps.find((s) => s.id === stepId) ?? visibleSteps[0]
  const index = step ? visibleSteps.indexOf(step) : -1
  const isLast = index === visibleSteps.length - 1

  useEffect(() => {
    if (movedRef.current) headingRef.current?.focus()
  }, [step?.id, done])

  const schema = step ? (validators.schemas[step.id] as RJSFSchema) : undefined
  const validator = useMemo(() => (schema ? createPrecompiledValidator(validators.validators, schema) : undefined), [validators, schema])
  const fields = useMemo(() => fieldsOf(schema as Record<string, unknown> | undefined), [schema])
  const stepData = useMemo(() => pick(values, fields), [values, fields])

  const formContext: FormContext = useMemo(() => {
    const bootstrap = runtime.stores.site.getState().bootstrap
    const jurisdictionCountry: Record<string, string> = { russia: 'RU', belarus: 'BY', spain: 'ES', italy: 'IT', denmark: 'DK', curacao: 'CW', alderney: 'GG' }
    return { tr, today: isoDate(Date.now()), phoneCountry: jurisdictionCountry[bootstrap?.site.jurisdiction ?? ''] }
  }, [tr, runtime.stores])

  const transformErrors: ErrorTransformer = useCallback(
    (errors) => errors.map((e) => ({ ...e, message: validationMessage(tr, e.name ?? 'invalid', (e.params ?? {}) as Record<string, unknown>) })),
    [tr],
  )

  const hiddenFields = useMemo(() => hiddenByCondition(step?.uiSchema, fields, buildContext(runtime.stores, { form: values })), [step, fields, values, runtime.stores])
  const uiSchema = useMemo(() => withHidden((step?.uiSchema ?? {}) as UiSchema, hiddenFields), [step, hiddenFields])
  const customValidate: CustomValidator = useCallback(
    (formData, errors) => {
      const data = (formData ?? {}) as Values
      for (const problem of checkDefaultDateBounds((schema ?? {}) as Record<string, unknown>, data, formContext.today)) {
        const bounds = (schema as { properties?: Record<string, { formatMinimum?: string; formatMaximum?: string }> }).properties?.[problem.field]
        const limit = problem.code === 'formatMinimum' ? (bounds?.formatMinimum ?? '2000-01-01') : (bounds?.formatMaximum ?? formContext.today)
        ;(errors as unknown as Record<string, { addError(m: string): void }>)[problem.field]?.addError(validationMessage(tr, problem.code, { limit }))
      }
      for (const field of fields) {
        const ui = (uiSchema as Record<string, Record<string, unknown> | undefined>)[field]
        const value = data[field]
        if (ui?.['ui:widget'] === 'phone' && typeof value === 'string' && value) {
          const { country, national } = splitPhone(value, formContext.phoneCountry)
          if (!isValidNational(national, countryFor(country.code)))
            (errors as unknown as Record<string, { addError(m: string): void }>)[field]?.addError(validationMessage(tr, 'phone'))
        }
      }
      return errors
    },
    [schema, fields, uiSchema, formContext, tr],
  )

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
          result = await runtime.run(step.submit as ActionChain, { form: merged })
          if (submission.result && !submission.result.ok) result = submission.result
        } finally {
          endSubmission(submission)
        }
      }
      setBusy(false)
      if (!result.ok) {
        const errors = fieldErrorsOf(result)
        // each field error goes to the step that shows the field (the current one first)
        const stepOf = (e: FieldError) =>
          e.field === '' ? undefined : [step, ...visibleSteps].find((s) => fieldsOf(validators.schemas[s.id]).includes(e.field.split('.')[0]))
        const placed = errors.filter((e) => stepOf(e) !== undefined)
        setServerErrors(placed)
        if (placed.length === 0 || placed.length < errors.length) {
          const key = errorMessageKey(result.code)
          // the answer's payload fills the text (LOGIN_DENIED_BY_PERMISSION: {{disabledUntil, datetime}})
          const details = result.details !== null && typeof result.details === 'object' ? (result.details as Record<string, unknown>) : {}
          const text = tr(key, details, '')
          setFormError(text && text !== key && result.code !== 'ValidationError' ? text : tr('form.error.submit'))
        }
        if (placed.length > 0) {
          const target = stepOf(placed[0])!
          if (target.id !== step.id) {
            movedRef.current = false
            setStepId(target.id)
          }
          const field = placed[0].field.split('.')[0]
          setTimeout(() => document.getElementById(`root_${field}`)?.focus(), 50)
        }
        return
      }
      movedRef.current = true
      setAttempted(false)
      const ctx = buildContext(runtime.stores, { form: merged })
      const remaining = flow.steps.slice(flow.steps.indexOf(step) + 1).filter((s) => evaluateCondition(s.when, ctx))
      if (remaining.length > 0) {
        setStepId(remaining[0].id)
        return
      }
      setDone(true)
      await runtime.run(flow.onComplete, { form: merged })
    },
    [step, busy, values, runtime, tr, flow, visibleSteps, validators, hiddenFields],
  )

  const onError = useCallback(() => setAttempted(true), [])

  const back = () => {
    if (index <= 0) return
    movedRef.current = true
    setFormError(null)
    setStepId(visibleSteps[index - 1].id)
  }

  const heading = flow.title ? title(flow.title) : ''
  if (done)
    return (
      <section className="form-flow" data-testid={testId} aria-labelledby={`${testId}-done`}>
        <h2 className="form-title" id={`${testId}-done`} tabIndex={-1} ref={headingRef}>
          {heading || tr('form.done')}
        </h2>
        <p className="form-done" role="status" data-testid="form-done">
          {tr('form.done')}
        </p>
      </section>
    )
  if (!step || !schema || !validator) return null

  const stepTitle = step.title ? title(step.title) : ''
  const submitLabel = step.submitLabel ? title(step.submitLabel) : tr(isLast ? 'form.submit' : 'form.next')
  return (
    <section className="form-flow" data-testid={testId} data-step={step.id} aria-labelledby={`${testId}-title`}>
      {heading ? <h2 className="form-title">{heading}</h2> : null}
      {visibleSteps.length > 1 ? (
        <div className="form-progress" data-testid="form-progress">
          <p>{tr('form.progress', { current: index + 1, total: visibleSteps.length })}</p>
          <div className="form-progress-bar" aria-hidden="true">
            <span style={{ width: `${Math.round(((index + 1) / visibleSteps.length) * 100)}%` }} />
          </div>
        </div>
      ) : null}
      <h3 className="form-step-title" id={`${testId}-title`} tabIndex={-1} ref={headingRef}>
        {stepTitle || heading}
      </h3>
      {formError ? (
        <p className="form-alert" role="alert" data-testid="form-alert">
          {formError}
        </p>
      ) : null}
      <div aria-busy={busy || undefined}>
      <ThemedForm
        key={`${flow.id}/${step.id}`}
        schema={schema}
        uiSchema={uiSchema}
        formData={stepData}
        validator={validator}
        formContext={formContext}
        transformErrors={transformErrors}
        customValidate={customValidate}
        extraErrors={extraErrors}
        // a consent's `const: true` must never pre-tick the box
        experimental_defaultFormStateBehavior={DEFAULTS}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
        liveValidate={attempted ? 'onChange' : undefined}
        onChange={onChange}
        onSubmit={(e: IChangeEvent, _ev: FormEvent) => void onSubmit(e)}
        onError={onError}
        className="form"
      >
        <div className="form-actions">
          {index > 0 ? (
            <button type="button" className="form-button form-button-secondary" onClick={back} disabled={busy}>
              {tr('form.back')}
            </button>
          ) : null}
          <button type="submit" className="form-button form-button-primary" disabled={busy} aria-busy={busy || undefined} data-testid="form-submit">
            {busy ? tr('form.busy') : submitLabel}
          </button>
        </div>
      </ThemedForm>
      </div>
    </section>
  )
}
