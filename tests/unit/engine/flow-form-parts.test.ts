/**
 * The pure parts FlowForm is built from: which steps show and which comes next (their `when`
 * against the form so far), and where a failed submission's errors go (the step showing the
 * field, else the form's alert).
 */
import { describe, expect, it } from 'vitest'
import { buildContext } from '../../../engine/core/context'
import type { FlowDocument, FlowStep } from '../../../kernel/documents/types'
import { stepAfter, visibleStepsOf, withFormValues } from '../../../engine/renderers/form/flow-steps'
import { referenceOf, submitAnswer, submitFailure } from '../../../engine/renderers/form/submit-outcome'
import { fieldOfWidgetId, phonesJoined } from '../../../engine/renderers/form/flow-hydration'
import type { ValidatorModule } from '../../../engine/renderers/form/validator-module'
import { cel, testEnv } from './helpers'

const steps = [
  { id: 'account', submit: [] },
  { id: 'company', when: cel('form.kind == "company"') },
  { id: 'person' },
] as unknown as FlowStep[]
const flow = { id: 'f', steps } as unknown as FlowDocument
const validators = {
  flow: 'f',
  schemas: { account: { properties: { email: {} } }, company: { properties: { vat: {} } }, person: { properties: { name: {} } } },
  validators: {},
} as unknown as ValidatorModule
const tr = (key: string) => (key === 'server.error.DUPLICATE_EMAIL' ? 'E-mail taken' : key === 'form.error.submit' ? 'Could not send' : key)

describe('step navigation', () => {
  const { stores } = testEnv()
  it('a step whose when is false is skipped', () => expect(visibleStepsOf(flow, buildContext(stores, { form: { kind: 'person' } })).map((s) => s.id)).toEqual(['account', 'person']))
  it('the next step is the first later one whose when is true', () => {
    expect(stepAfter(flow, steps[0], buildContext(stores, { form: { kind: 'company' } }))?.id).toBe('company')
    expect(stepAfter(flow, steps[0], buildContext(stores, { form: { kind: 'person' } }))?.id).toBe('person')
  })
  it('after the last step the flow is complete', () => expect(stepAfter(flow, steps[2], buildContext(stores, { form: {} }))).toBeUndefined())
})

describe('a failed submission', () => {
  it("a field error goes to the step that shows the field, and the form goes there; no alert when every error is placed", () => {
    const failure = submitFailure({ ok: false, code: 'ValidationError', details: [{ field: 'email', code: 'DUPLICATE_EMAIL' }] }, steps[2], [steps[0], steps[2]], validators, tr)
    expect(failure.placed).toEqual([{ field: 'email', code: 'DUPLICATE_EMAIL' }])
    expect(failure.target?.id).toBe('account')
    expect(failure.alert).toBeNull()
  })
  it('a failure without field errors shows its server text as the alert', () => {
    expect(submitFailure({ ok: false, code: 'DUPLICATE_EMAIL' }, steps[0], [steps[0]], validators, tr)).toEqual({ placed: [], target: undefined, alert: 'E-mail taken' })
  })
  it('an error on a field no step shows, or a code without text, shows the generic alert', () => {
    const failure = submitFailure({ ok: false, code: 'ValidationError', details: [{ field: 'unknown', code: 'X' }] }, steps[0], [steps[0]], validators, tr)
    expect(failure.placed).toEqual([])
    expect(failure.alert).toBe('Could not send')
  })
  it("a refused operation's alert is the deciding restriction's text alone, not the code's generic one", () => {
    const texts: Record<string, string> = { 'server.error.undefined': 'Something went wrong', 'regulation.refused.SUSPENDED': 'Your account is suspended' }
    const trRefusal = (key: string) => texts[key] ?? key
    const refused = { ok: false as const, code: 'INCORRECT_PUNTER_STATE', details: { operation: 'deposit', restriction: 'SUSPENDED', endDate: null } }
    expect(submitFailure(refused, steps[0], [steps[0]], validators, trRefusal).alert).toBe('Your account is suspended')
    // without a text for the restriction, the code's own text
    expect(submitFailure({ ...refused, details: { restriction: 'UNKNOWN_KIND' } }, steps[0], [steps[0]], validators, trRefusal).alert).toBe('Something went wrong')
  })
  it('a failure whose action chose its text shows that text, filled with its values', () => {
    const trChosen = (key: string, values: Record<string, unknown> = {}) => (key === 'auth.login.selfExcludedUntil' ? `refused until ${String(values.date)}` : key)
    const failure = { ok: false as const, code: 'CUSTOMER_SELFEXCLUDED', details: {}, text: { key: 'auth.login.selfExcludedUntil', values: { date: '2030-01-01' } } }
    expect(submitFailure(failure, steps[0], [steps[0]], validators, trChosen).alert).toBe('refused until 2030-01-01')
  })
})

describe('steps follow the page context, not only the typed values', () => {
  it('a step whose when reads the screen data appears once an action has set that data', () => {
    const { stores } = testEnv()
    const gated = { id: 'g', steps: [{ id: 'contact' }, { id: 'code', when: cel("has(data.recovery) && data.recovery.channel == 'sms'") }] } as unknown as FlowDocument
    const before = buildContext(stores)
    expect(visibleStepsOf(gated, withFormValues(before, {})).map((s) => s.id)).toEqual(['contact'])
    stores.screenData.getState().setData('recovery', { channel: 'sms' })
    expect(visibleStepsOf(gated, withFormValues(buildContext(stores), { login: '+5999' })).map((s) => s.id)).toEqual(['contact', 'code'])
  })
  it('the form values replace the context form and every other root reads through', () => {
    const { stores } = testEnv()
    const ctx = withFormValues(buildContext(stores, { form: { stale: true } }), { fresh: 1 })
    expect(ctx.form).toEqual({ fresh: 1 })
    expect(Object.keys(ctx).sort()).toEqual(Object.keys(buildContext(stores)).sort())
  })
})

describe('a submit answer: the form post decides a failure, and its reference is shown', () => {
  const chainOk = { ok: true as const, value: undefined }
  it('a failed form post is the answer even when the chain went on', () => {
    const posted = { ok: false as const, code: 'VALIDATION_ERROR', details: [{ field: 'email', code: 'TAKEN' }] }
    expect(submitAnswer(chainOk, posted)).toEqual({ result: posted })
  })
  it('a successful form post keeps the chain result and shows the reference it carried', () => {
    expect(submitAnswer(chainOk, { ok: true, value: { reference: 'C-7K3QX9M2' } })).toEqual({ result: chainOk, reference: 'C-7K3QX9M2' })
    // an answer without a usable reference clears the one shown
    expect(submitAnswer(chainOk, { ok: true, value: { reference: 'x'.repeat(41) } })).toEqual({ result: chainOk, reference: null })
  })
  it('without a form post the chain result is the answer and the reference shown is kept', () => {
    const chainFailed = { ok: false as const, code: 'NETWORK_ERROR' }
    expect(submitAnswer(chainFailed, undefined)).toEqual({ result: chainFailed })
    expect(submitAnswer(chainOk, undefined).reference).toBeUndefined()
  })
  it('a reference is a non-empty string of at most 40 characters', () => {
    expect([referenceOf({ reference: 'R-1' }), referenceOf({ reference: '' }), referenceOf({ reference: 7 }), referenceOf(null), referenceOf({ reference: 'y'.repeat(40) })]).toEqual(['R-1', null, null, null, 'y'.repeat(40)])
  })
})

describe('a submit held for a phone rule is made once every typed number is the form data', () => {
  it('reads the field from the widget id rjsf gives it', () => {
    expect([fieldOfWidgetId('root_phone'), fieldOfWidgetId('phone'), fieldOfWidgetId('root_')]).toEqual(['phone', '', ''])
  })
  it('waits while a typed number is not yet joined with its country', () => {
    expect(phonesJoined(['root_phone'], {})).toBe(false)
    expect(phonesJoined(['root_phone'], { phone: '' })).toBe(false)
    expect(phonesJoined(['root_phone', 'root_phone2'], { phone: '+59995551234' })).toBe(false)
    expect(phonesJoined(['root_phone', 'root_phone2'], { phone: '+59995551234', phone2: '+34612345678' })).toBe(true)
    expect(phonesJoined([], {})).toBe(true)
  })
})
