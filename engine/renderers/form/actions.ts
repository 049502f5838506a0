/**
 * Form actions, registered into the page's action registry when the forms chunk loads.
 *
 * `form.post {url, body?}` posts to a same-origin API through the engine's gateway (spec §7
 * headers, §8 error extraction). Without `body` it posts the values of the form being submitted,
 * so a flow step can say just `{"do": "form.post", "with": {"url": "/api/demo/contact"}}`.
 * A ValidationError answer's `payload` ({field, code}[]) arrives as the Result's `details`, and
 * the form shows it on the fields.
 */
import type { Result } from '../../../kernel/core/contracts'
import { actionRegistry, defineAction, registerActions } from '../../actions/registry'
import { definitions } from '../../../kernel/actions/form'
import { documentsUpload } from './upload-action'

interface Submission {
  values: Record<string, unknown>
  result?: Result<unknown>
}

let current: Submission | null = null

/** Marks the start of a step submission (the values `form.post` sends by default). */
export function beginSubmission(values: Record<string, unknown>): Submission {
  current = { values }
  return current
}

export function endSubmission(submission: Submission): void {
  if (current === submission) current = null
}

const SAME_ORIGIN_API = /^\/(api|mobile-gate|client-gate|uniweb-gate)\/[A-Za-z0-9/_.-]*$/

export const formPost = defineAction(definitions, {
  name: 'form.post',
  async handler({ url, body }, env) {
    if (!SAME_ORIGIN_API.test(url)) return { ok: false, code: 'INVALID_PARAMS', message: `form.post: ${url} is not a same-origin API path` }
    const submission = current
    const result = await env.gateway.call('POST', url, body ?? submission?.values ?? {})
    if (submission) submission.result = result
    return result
  },
})

export const formActions = [formPost, documentsUpload]

let registered = false
/** Registers the form actions once (idempotent). */
export function registerFormActions(): void {
  if (registered) return
  registered = true
  registerActions(formActions, actionRegistry)
}
