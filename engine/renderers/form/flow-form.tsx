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
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react'
import { useStore } from 'zustand'
import { accountCurrency, buildContext } from '../../core/context'
import type { FlowDocument, FlowStep } from '../../../kernel/documents/types'
import { useEvaluate, useEvaluationContext, useRuntime } from '../runtime'
import { isoDate } from '../../../kernel/core/date-rules'
import { addFieldRuleErrors, isMoneyField } from './field-rules'
import { useFlowDraft } from './flow-draft'
import { FlowActions, FlowProgress } from './flow-parts'
import { usePhoneHold, useServerMarkupHandover } from './flow-hydration'
import { useFlowSubmission } from './flow-submit'
import { fieldsOf, hiddenByCondition, keptValues, pick, visibleStepsOf, withFormValues, withHidden, type Values } from './flow-steps'
import { createTranslate, validationMessage, type Translate } from './texts'
import { ThemedForm, type FormContext } from './theme'
import { loadValidatorModule, type ValidatorModule } from './validator-module'
import { FormPlaceholder } from '../nodes/FormPlaceholder'
import type { EngineRuntime } from '../runtime'
import type { FormProps, PreparedForm } from '../nodes/form-ready'

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

/**
 * The steps shown, in order: those whose `when` holds against the stores it reads, not only the
 * values typed (an action of the submit chain, password.recover, sets the screen data that makes
 * the next step appear); the current one is the step chosen, else the first.
 */
function useVisibleSteps(flow: FlowDocument, values: Values, stepId: string | null) {
  const pageContext = useEvaluationContext()
  const visibleSteps = useMemo(() => visibleStepsOf(flow, withFormValues(pageContext, values)), [flow, values, pageContext])
  const step: FlowStep | undefined = visibleSteps.find((s) => s.id === stepId) ?? visibleSteps[0]
  const index = step ? visibleSteps.indexOf(step) : -1
  return { visibleSteps, step, index, isLast: index === visibleSteps.length - 1 }
}

/** The current step's schema, its precompiled validator, its fields and their values. */
function useStepSchema(validators: ValidatorModule, step: FlowStep | undefined, values: Values) {
  const schema = step ? (validators.schemas[step.id] as RJSFSchema) : undefined
  const validator = useMemo(() => (schema ? createPrecompiledValidator(validators.validators, schema) : undefined), [validators, schema])
  const fields = useMemo(() => fieldsOf(schema as Record<string, unknown> | undefined), [schema])
  const stepData = useMemo(() => pick(values, fields), [values, fields])
  return { schema, validator, fields, stepData }
}

/**
 * What the widgets read: the texts, today, the site's preset phone country (its jurisdiction
 * document's, schemas/jurisdictions/…) and minimum age, and the page's locale and the account's
 * currency (money fields read typed amounts in them). The form stays mounted across a documents
 * change: a new version re-renders its texts.
 */
function useFlowFormContext(tr: Translate, adopt: FormContext['adopt'], overServerMarkup: boolean | undefined, today: string | undefined): FormContext {
  const runtime = useRuntime()
  const locale = useStore(runtime.stores.site, (s) => s.locale)
  const currency = useStore(runtime.stores.user, (s) => accountCurrency(s.data))
  const documentsVersion = runtime.documentsVersion()
  return useMemo(() => {
    const bootstrap = runtime.stores.site.getState().bootstrap
    return { tr, today: today ?? isoDate(Date.now()), phoneCountry: bootstrap?.site.country, minimumAge: bootstrap?.site.minimumAge, server: overServerMarkup, adopt, locale, currency: currency || undefined, displays: bootstrap?.site.currencyDisplay, documentsVersion }
  }, [tr, runtime.stores, overServerMarkup, adopt, today, locale, currency, documentsVersion])
}

interface StepRules {
  tr: Translate
  schema: RJSFSchema | undefined
  uiSchema: UiSchema
  fields: string[]
  formContext: FormContext
}

/** The browser's checks beyond the schema: messages in the punter's language, and the field rules (./field-rules.ts). */
function useStepValidation({ tr, schema, uiSchema, fields, formContext }: StepRules) {
  const transformErrors: ErrorTransformer = useCallback(
    (errors, ui) =>
      errors
        // a money field's unread text: the field rule says why, not "must be a number"
        .filter((e) => !(e.name === 'type' && isMoneyField(ui, e.property)))
        .map((e) => ({ ...e, message: validationMessage(tr, e.name ?? 'invalid', (e.params ?? {}) as Record<string, unknown>) })),
    [tr],
  )
  const customValidate: CustomValidator = useCallback(
    (formData, errors) =>
      addFieldRuleErrors(
        { schema: (schema ?? {}) as Record<string, unknown>, uiSchema, fields, data: (formData ?? {}) as Values, today: formContext.today, phoneCountry: formContext.phoneCountry, locale: formContext.locale, currency: formContext.currency, tr },
        errors,
      ),
    [schema, fields, uiSchema, formContext, tr],
  )
  return { transformErrors, customValidate }
}

function FlowForm({ flow, validators, tr, title, headed, testId, onLive, overServerMarkup, today }: FlowFormProps) {
  const runtime = useRuntime()
  const [values, setValues] = useState<Values>({})
  const [stepId, setStepId] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  const [attempted, setAttempted] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const movedRef = useRef(false)
  const formBox = useRef<HTMLDivElement>(null)

  // a published change of the flow drops only the values of fields it removed
  useEffect(() => setValues((current) => keptValues(current, flow)), [flow])
  const { visibleSteps, step, index, isLast } = useVisibleSteps(flow, values, stepId)
  useEffect(() => {
    if (movedRef.current) headingRef.current?.focus()
  }, [step?.id, done])
  const { schema, validator, fields, stepData } = useStepSchema(validators, step, values)

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
  const holdForPhone = usePhoneHold(formBox, values)
  const adopt = useServerMarkupHandover({ fields, setValues, formBox, onLive })
  const formContext = useFlowFormContext(tr, adopt, overServerMarkup, today)

  const hiddenFields = useMemo(() => hiddenByCondition(step?.uiSchema, fields, buildContext(runtime.stores, { form: values })), [step, fields, values, runtime.stores])
  const uiSchema = useMemo(() => withHidden((step?.uiSchema ?? {}) as UiSchema, hiddenFields), [step, hiddenFields])
  const { transformErrors, customValidate } = useStepValidation({ tr, schema, uiSchema, fields, formContext })
  const submission = useFlowSubmission({ flow, validators, tr, values, setValues, step, visibleSteps, index, fields, stepData, hiddenFields, setStepId, setDone, setAttempted, movedRef })
  const onError = useCallback(() => setAttempted(true), [])

  const heading = flow.title ? title(flow.title) : ''
  if (done) return <FlowDone testId={testId} heading={heading} reference={submission.reference} headingRef={headingRef} tr={tr} />
  if (!step || !schema || !validator) return null
  const submitLabel = step.submitLabel ? title(step.submitLabel) : tr(isLast ? 'form.submit' : 'form.next')
  return (
    <StepFrame testId={testId} step={step} heading={heading} stepTitle={step.title ? title(step.title) : ''} headed={headed} headingRef={headingRef} formError={submission.formError} progress={<FlowProgress index={index} total={visibleSteps.length} tr={tr} />}>
      <div aria-busy={submission.busy || undefined} ref={formBox} onSubmitCapture={holdForPhone}>
      <ThemedForm
        key={`${flow.id}/${step.id}`}
        schema={schema}
        uiSchema={uiSchema}
        formData={stepData}
        validator={validator}
        formContext={formContext}
        transformErrors={transformErrors}
        customValidate={customValidate}
        extraErrors={submission.extraErrors}
        // a consent's `const: true` must never pre-tick the box
        experimental_defaultFormStateBehavior={DEFAULTS}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
        liveValidate={attempted ? 'onChange' : undefined}
        onChange={submission.onChange}
        onSubmit={(e: IChangeEvent, _ev: FormEvent) => void submission.onSubmit(e)}
        onError={onError}
        className="form"
      >
        <FlowActions canGoBack={index > 0} busy={submission.busy} submitLabel={submitLabel} onBack={submission.back} tr={tr} />
      </ThemedForm>
      </div>
    </StepFrame>
  )
}

/** The thank-you after the last step, with the reference the submit's answer carried. */
function FlowDone({ testId, heading, reference, headingRef, tr }: { testId: string; heading: string; reference: string | null; headingRef: RefObject<HTMLHeadingElement | null>; tr: Translate }) {
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
}

interface StepFrameProps {
  testId: string
  step: FlowStep
  /** The flow's title, and the step's own ('' without one). */
  heading: string
  stepTitle: string
  headed: boolean
  headingRef: RefObject<HTMLHeadingElement | null>
  formError: string | null
  progress: ReactNode
  children: ReactNode
}

/**
 * A step around its fields. One heading per title: the flow's (unless the page or popup shows it),
 * then the step's own (a step without one does not repeat the flow's); the form is labelled by the
 * innermost, and the innermost heading takes the focus when the punter moves to the step.
 */
function StepFrame({ testId, step, heading, stepTitle, headed, headingRef, formError, progress, children }: StepFrameProps) {
  const flowHeading = headed ? heading : ''
  const labelledBy = stepTitle ? `${testId}-title` : flowHeading ? `${testId}-flow-title` : undefined
  return (
    <section className="form-flow" data-testid={testId} data-step={step.id} aria-labelledby={labelledBy} aria-label={labelledBy ? undefined : heading || undefined}>
      {flowHeading ? (
        <h2 className="form-title" id={`${testId}-flow-title`} tabIndex={-1} ref={stepTitle ? undefined : headingRef}>
          {flowHeading}
        </h2>
      ) : null}
      {progress}
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
      {children}
    </section>
  )
}
