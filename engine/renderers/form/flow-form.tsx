/**
 * The `form` node: a flow document rendered step by step with rjsf and our mobile theme.
 *
 * Reached only through `React.lazy` in the browser (the chunk entry ./FormNode.tsx, loaded by
 * `../nodes/FormNode.tsx`), so rjsf, its utils, this theme and the validator module stay out of
 * the lobby's first load. The server imports this file directly to render a page's forms
 * (engine/ssr.tsx), so it imports no stylesheet.
 *
 * - Loads the flow document and, in parallel, the flow's precompiled validator module (ajv
 *   standalone code compiled by the server, imported from a same-origin URL: no eval, CSP-safe);
 *   given both already (`prepared`), its first render is the form itself, the markup the server
 *   rendered, so React hydrates over it.
 * - Over server markup: what the punter typed before the form hydrated is adopted into the form's
 *   data, and a submit they made meanwhile (held by the page, see ../nodes/FormNode.tsx) is made
 *   again once the form is live.
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
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useStore } from 'zustand'
import { accountCurrency, buildContext } from '../../core/context'
import type { Result } from '../../../kernel/core/contracts'
import type { ActionChain, FlowDocument, FlowStep, NodeOf } from '../../../kernel/documents/types'
import { useEvaluate, useEvaluationContext, useRuntime } from '../runtime'
import { beginSubmission, endSubmission } from './actions'
import { isoDate } from '../../../kernel/core/date-rules'
import { toErrorSchema, withoutChanged, type FieldError } from './errors'
import { addFieldRuleErrors, isMoneyField } from './field-rules'
import { useFlowDraft } from './flow-draft'
import { FlowActions, FlowProgress } from './flow-parts'
import { loadPhoneRule } from './phone-loader'
import { fieldsOf, hiddenByCondition, keptValues, pick, stepAfter, visibleStepsOf, withFormValues, withHidden, withoutKeys, type Values } from './flow-steps'
import { submitFailure } from './submit-outcome'
import { createTranslate, validationMessage, type Translate } from './texts'
import { ThemedForm, type FormContext } from './theme'
import { loadValidatorModule, type ValidatorModule } from './validator-module'
import { FormPlaceholder } from '../nodes/FormPlaceholder'
import type { EngineRuntime } from '../runtime'
import { FORM_HELD, type FormProps, type PreparedForm } from '../nodes/form-ready'

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; flow: FlowDocument; validators: ValidatorModule }

const DEFAULTS = { constAsDefaults: 'never', emptyObjectFields: 'skipDefaults' } as const


/** The flow document and its validator module for this page; rejects when either cannot load. */
export async function prepareForm(flowId: string, runtime: Pick<EngineRuntime, 'load' | 'stores'>): Promise<PreparedForm> {
  const [doc, validators] = await Promise.all([runtime.load<FlowDocument>('flow', flowId), loadValidatorModule(flowId, runtime.stores)])
  if (!doc.ok) throw new Error(`flow ${flowId}: ${doc.code}`)
  const missing = doc.value.steps.filter((s) => !validators.schemas[s.id])
  if (missing.length > 0) throw new Error(`flow ${flowId}: no validator for step ${missing.map((s) => s.id).join(', ')}`)
  return { flow: doc.value, validators }
}

/** A submit answer's `reference` (e.g. a stored contact message's "C-7K3QX9M2"), when it has one. */
const referenceOf = (value: unknown): string | null => {
  const reference = (value as { reference?: unknown } | null | undefined)?.reference
  return typeof reference === 'string' && reference.length > 0 && reference.length <= 40 ? reference : null
}

export default function FormNode({ node, prepared, onLive, overServerMarkup, today }: FormProps) {
  const runtime = useRuntime()
  const evaluate = useEvaluate()
  const tr = useMemo(() => createTranslate(runtime.t), [runtime])
  const [attempt, setAttempt] = useState(0)
  // what the current state was loaded for: a prepared form needs no second load for the same key
  const key = `${node.flow}|${attempt}|${runtime.documentsVersion()}`
  const [loaded, setLoaded] = useState<Loaded>(() => (prepared ? { status: 'ready', ...prepared } : { status: 'loading' }))
  const loadedFor = useRef(prepared ? key : '')

  useEffect(() => onLive?.(), [onLive])

  useEffect(() => {
    if (loadedFor.current === key) return
    let alive = true
    // a new documents version reloads the flow with the form left on screen: the same FlowForm then
    // takes the new flow, keeping what the punter typed and the step reached (issue 29 item 5)
    setLoaded((current) => (current.status === 'ready' ? current : { status: 'loading' }))
    prepareForm(node.flow, runtime)
      .then((ready) => {
        if (!alive) return
        loadedFor.current = key
        setLoaded({ status: 'ready', ...ready })
      })
      .catch((error: unknown) => {
        if (!alive) return
        console.warn(`[parlay:form] ${(error as Error)?.message ?? String(error)}`)
        setLoaded((current) => (current.status === 'ready' ? current : { status: 'failed' }))
      })
    return () => {
      alive = false
    }
  }, [runtime, node.flow, key])

  if (loaded.status === 'loading')
    return (
      // as tall as the first step will be: what follows the form does not jump (issue 10)
      <FormPlaceholder flowId={node.flow} className="form-flow form-loading" label={tr('form.loading')} testId={`form-${node.flow}`} headed={node.headed !== false} />
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
  return <FlowForm flow={loaded.flow} validators={loaded.validators} tr={tr} title={text} headed={node.headed !== false} testId={node.testId ?? `form-${node.flow}`} onLive={onLive} overServerMarkup={overServerMarkup} today={today} />
}

interface FlowFormProps {
  flow: FlowDocument
  validators: ValidatorModule
  tr: Translate
  title: (text: FlowDocument['title']) => string
  /** Shows the flow's title (false where the page or popup around it already does). */
  headed: boolean
  testId: string
  onLive?: () => void
  overServerMarkup?: boolean
  today?: string
}

function FlowForm({ flow, validators, tr, title, headed, testId, onLive, overServerMarkup, today }: FlowFormProps) {
  const runtime = useRuntime()
  const [values, setValues] = useState<Values>({})
  const [stepId, setStepId] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState(false)
  // the reference the last submit's answer carried (a stored contact message's), shown in the thank-you
  const [reference, setReference] = useState<string | null>(null)
  const [serverErrors, setServerErrors] = useState<FieldError[]>([])
  const [formError, setFormError] = useState<string | null>(null)
  const [attempted, setAttempted] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const movedRef = useRef(false)
  const formBox = useRef<HTMLDivElement>(null)
  const [replay, setReplay] = useState(false)
  // money fields read typed amounts in the page's locale and the account's currency
  const locale = useStore(runtime.stores.site, (s) => s.locale)
  const currency = useStore(runtime.stores.user, (s) => accountCurrency(s.data))

  // a published change of the flow drops only the values of fields it removed
  useEffect(() => setValues((current) => keptValues(current, flow)), [flow])
  // the steps shown follow the stores their `when` reads, not only the values typed: an action of
  // the submit chain (password.recover) sets the screen data that makes the next step appear
  const pageContext = useEvaluationContext()
  const visibleSteps = useMemo(() => visibleStepsOf(flow, withFormValues(pageContext, values)), [flow, values, pageContext])

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

  // progress kept across a reload (keepProgress flows; ./flow-draft.ts), before the typed values below
  useFlowDraft({
    flow,
    site: runtime.stores.site.getState().bootstrap?.site.jurisdiction ?? '',
    values,
    stepId: step?.id,
    done,
    restore: (draft) => {
      setValues((current) => ({ ...draft.values, ...current }))
      setStepId(draft.stepId)
    },
  })

  // Hydrated over the server's markup (issue 10): what the punter gave the fields before the form
  // was live (each widget reports it from its own layout effect at mount, which runs before this
  // one: theme.tsx `useTypedBefore`) becomes the form's data before anything re-renders the fields;
  // a submit the page held meanwhile is made again once the form has re-rendered with that data.
  // A form rendered in the browser finds nothing typed and nothing held.
  const typed = useRef<Values>({})
  const adopt = useCallback((id: string, value: unknown) => {
    const field = id.startsWith('root_') ? id.slice('root_'.length) : ''
    if (field) typed.current[field] = value
  }, [])
  useLayoutEffect(() => {
    const found = typed.current
    typed.current = {}
    const relevant = Object.fromEntries(Object.entries(found).filter(([field]) => fields.includes(field)))
    if (Object.keys(relevant).length > 0) setValues((current) => ({ ...current, ...relevant }))
    const host = formBox.current?.closest(`[${FORM_HELD}]`)
    if (host) {
      host.removeAttribute(FORM_HELD)
      setReplay(true)
    }
    onLive?.()
  }, [])
  // A phone field takes digits before its rule has arrived (theme.tsx), but they are the form's data
  // only once the rule has joined them with the country: a submit meanwhile waits for that, then is
  // made (else "required" on a field the punter filled).
  const [waitingPhone, setWaitingPhone] = useState(false)
  const holdForPhone = (event: FormEvent) => {
    if (!formBox.current?.querySelector('.form-phone[aria-busy]')) return
    event.preventDefault()
    event.stopPropagation()
    loadPhoneRule().then(
      () => setWaitingPhone(true),
      () => undefined,
    )
  }
  useEffect(() => {
    if (!waitingPhone || formBox.current?.querySelector('.form-phone[aria-busy]')) return
    const typed = [...(formBox.current?.querySelectorAll<HTMLInputElement>('.form-phone-number') ?? [])].filter((input) => input.value !== '')
    const joined = typed.every((input) => {
      const field = input.id.startsWith('root_') ? input.id.slice('root_'.length) : ''
      return typeof values[field] === 'string' && values[field] !== ''
    })
    if (!joined) return
    setWaitingPhone(false)
    formBox.current?.querySelector('form')?.requestSubmit()
  }, [waitingPhone, values])

  useEffect(() => {
    if (!replay) return
    setReplay(false)
    formBox.current?.querySelector('form')?.requestSubmit()
  }, [replay])

  // the form stays mounted across a documents change: a new version re-renders its texts
  const documentsVersion = runtime.documentsVersion()
  const formContext: FormContext = useMemo(() => {
    const bootstrap = runtime.stores.site.getState().bootstrap
    // the site's preset phone country is its jurisdiction document's (schemas/jurisdictions/*/jurisdiction.json)
    return { tr, today: today ?? isoDate(Date.now()), phoneCountry: bootstrap?.site.country, minimumAge: bootstrap?.site.minimumAge, server: overServerMarkup, adopt, locale, currency: currency || undefined, displays: bootstrap?.site.currencyDisplay, documentsVersion }
  }, [tr, runtime.stores, overServerMarkup, adopt, today, locale, currency, documentsVersion])

  const transformErrors: ErrorTransformer = useCallback(
    (errors, ui) =>
      errors
        // a money field's unread text: the field rule says why, not "must be a number"
        .filter((e) => !(e.name === 'type' && isMoneyField(ui, e.property)))
        .map((e) => ({ ...e, message: validationMessage(tr, e.name ?? 'invalid', (e.params ?? {}) as Record<string, unknown>) })),
    [tr],
  )

  const hiddenFields = useMemo(() => hiddenByCondition(step?.uiSchema, fields, buildContext(runtime.stores, { form: values })), [step, fields, values, runtime.stores])
  const uiSchema = useMemo(() => withHidden((step?.uiSchema ?? {}) as UiSchema, hiddenFields), [step, hiddenFields])
  const customValidate: CustomValidator = useCallback(
    (formData, errors) =>
      addFieldRuleErrors(
        { schema: (schema ?? {}) as Record<string, unknown>, uiSchema, fields, data: (formData ?? {}) as Values, today: formContext.today, phoneCountry: formContext.phoneCountry, locale: formContext.locale, currency: formContext.currency, tr },
        errors,
      ),
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
          else if (submission.result) setReference(referenceOf(submission.result.value))
        } finally {
          endSubmission(submission)
        }
      }
      setBusy(false)
      if (!result.ok) {
        const { placed, target, alert } = submitFailure(result, step, visibleSteps, validators, tr)
        setServerErrors(placed)
        if (alert !== null) setFormError(alert)
        if (target) {
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
      const next = stepAfter(flow, step, buildContext(runtime.stores, { form: merged }))
      if (next) {
        setStepId(next.id)
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
        <p className="form-done" role="status" data-testid="form-done" data-reference={reference ?? undefined}>
          {reference ? tr('form.done.reference', { reference }) : tr('form.done')}
        </p>
      </section>
    )
  if (!step || !schema || !validator) return null

  const stepTitle = step.title ? title(step.title) : ''
  // one heading per title: the flow's (unless the page or popup shows it), then the step's own
  // (a step without one does not repeat the flow's); the form is labelled by the innermost
  const flowHeading = headed ? heading : ''
  const labelledBy = stepTitle ? `${testId}-title` : flowHeading ? `${testId}-flow-title` : undefined
  const submitLabel = step.submitLabel ? title(step.submitLabel) : tr(isLast ? 'form.submit' : 'form.next')
  return (
    <section className="form-flow" data-testid={testId} data-step={step.id} aria-labelledby={labelledBy} aria-label={labelledBy ? undefined : heading || undefined}>
      {flowHeading ? (
        <h2 className="form-title" id={`${testId}-flow-title`} tabIndex={-1} ref={stepTitle ? undefined : headingRef}>
          {flowHeading}
        </h2>
      ) : null}
      <FlowProgress index={index} total={visibleSteps.length} tr={tr} />
      {stepTitle ? (
        <h3 className="form-step-title" id={`${testId}-title`} tabIndex={-1} ref={headingRef}>
          {stepTitle}
        </h3>
      ) : null}
      {formError ? (
        <p className="form-alert" role="alert" data-testid="form-alert">
          {formError}
        </p>
      ) : null}
      <div aria-busy={busy || undefined} ref={formBox} onSubmitCapture={holdForPhone}>
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
        <FlowActions canGoBack={index > 0} busy={busy} submitLabel={submitLabel} onBack={back} tr={tr} />
      </ThemedForm>
      </div>
    </section>
  )
}
