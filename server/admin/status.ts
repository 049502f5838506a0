/**
 * The HTTP status of each refusal code of the admin API (drafts, review, releases). Maps, not object
 * literals: a key a request names ("constructor", "__proto__") is never found on a prototype.
 */
export const ADMIN_STATUS: ReadonlyMap<string, number> = new Map<string, number>([
  ['NOT_FOUND', 404],
  ['INVALID_FILE', 400],
  ['INVALID_STATE', 409],
  ['NOT_AUTHOR', 403],
  ['SELF_APPROVAL', 403],
  ['LINT_FAILED', 422],
  ['STALE_DRAFT', 409],
  ['NOT_APPROVED', 409],
  ['SET_INVALID', 422],
  ['NOTHING_CHANGED', 409],
  ['IN_RELEASE', 409],
  ['DRAFT_CONFLICT', 409],
  ['INVALID_EXPIRY', 400],
])
