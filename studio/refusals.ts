/**
 * A refused action in words an operator acts on (issue 29 item 7): the server's error code says
 * what happened, this says why and what to do, followed by the code and its details for support.
 */
import { errorText, type Answer } from './api'

const WORDS: ReadonlyMap<string, string> = new Map([
  ['FORBIDDEN_FOR_ROLE', 'Your role may not do this.'],
  ['OUT_OF_SCOPE', 'Your account is limited to other jurisdictions: this document is not yours to change.'],
  ['SELF_APPROVAL', 'A second person must do this: you cannot review your own change.'],
  ['NOT_AUTHOR', 'Only the author of this draft may do this.'],
  ['INVALID_STATE', 'Someone changed this meanwhile: reload it to see its state now.'],
  ['DRAFT_CONFLICT', 'Someone saved this draft since you opened it: reload it before saving.'],
  ['STALE_DRAFT', 'The published document moved on since this draft was made: make a new draft from the live one.'],
  ['NOT_APPROVED', 'It is not approved yet.'],
  ['LINT_FAILED', 'The gate found errors: fix them and submit again.'],
  ['NOTHING_CHANGED', 'Nothing changed against the published document.'],
  ['IN_RELEASE', 'This draft is part of a release: act on the release instead.'],
  ['CSRF_TOKEN_INVALID', 'Your session changed: reload the page.'],
  ['ValidationError', 'Something in the form is not valid.'],
])

/** "Why, in words (CODE: details)"; an unknown code shows as the server sent it. */
export function refusalText(answer: Answer<unknown>): string {
  const words = answer.errorCode ? WORDS.get(answer.errorCode) : undefined
  return words ? `${words} (${errorText(answer)})` : errorText(answer)
}
