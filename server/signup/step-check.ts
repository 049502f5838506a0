/**
 * The step check (issue 31 item 5: age and DNI errors appeared only after the last step). When the
 * punter leaves a step of the sign-up form, the flow's `join.checkStep` asks
 *
 *   POST {mobile}/account/signup/check-step {variant, step, data}
 *
 * and the server runs on that step's fields exactly what the final submit runs (./prepare.ts):
 * the step's schema, then the rules JSON Schema cannot say — the minimum age of the
 * jurisdiction's document from birthDay, the checks it names (Spain's DNI/NIE `spanishDocument`),
 * the phone, the password, names, the promo code for the chosen country. Errors on fields of
 * other steps are not reported (the form's other fields are only context), and nothing is stored.
 *
 * Duplicates (a phone or e-mail another punter has) are left to the final submit: a check that
 * answered them per step would tell anyone whether an address has an account, at no cost.
 */
import type { Request, Response } from 'express'
import { sendOk } from '../http/envelope'
import { validateFlowStep, type FlowLike } from '../validators'
import type { SignupKit } from './kit'
import type { SignupPreparation } from './prepare'

export function stepCheck(kit: SignupKit, preparation: SignupPreparation) {
  const { deps, fail, failFields } = kit
  return (req: Request, res: Response) => {
    const { variant, step: stepId, data } = req.body as { variant: string; step: string; data: Record<string, unknown> }
    const flow = preparation.flowFor(req, variant)
    if (!flow) return fail(res, 'FORBIDDEN')
    const step = flow.steps.find((s) => s.id === stepId)
    if (!step) return failFields(res, [{ field: 'step', code: 'enum' }])
    const fields = Object.keys((step.schema.properties as Record<string, unknown> | undefined) ?? {})
    const now = deps.now()
    const slice = Object.fromEntries(Object.entries(data).filter(([key]) => fields.includes(key)))
    const schemaErrors = validateFlowStep(flow as unknown as FlowLike, step.id, slice, { now })
    if (schemaErrors.length > 0) return failFields(res, schemaErrors)
    const ours = (field: string) => fields.includes(field.split('.')[0])
    // a field of this step left empty is the schema's business (optional, or already refused)
    const given = Object.fromEntries(Object.entries(data).filter(([key, value]) => !ours(key) || (value !== undefined && value !== '')))
    const errors = preparation.dataRuleErrors(req, given, now).errors.filter((error) => ours(error.field) && given[error.field.split('.')[0]] !== undefined)
    if (errors.length > 0) return failFields(res, errors)
    sendOk(res, { valid: true })
  }
}
