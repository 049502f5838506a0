/**
 * Functions still over the limit when the rule came in (issue 32), each with the length it may not
 * grow past. The list only shrinks: split a function and delete its line (the check fails on a line
 * whose function is now short or gone, so the list stays true). Keyed by file name and function
 * name, not the folder, so a file moved to another folder keeps its entry. Empty = the rule holds
 * everywhere.
 */
export const STILL_LONG: Readonly<Record<string, number>> = {
  'session.ts:createAuthController': 352,
  'server.ts:attachRealtime': 292,
  'router.ts:createAuthRouter': 231,
  'boot.ts:createPageRenderer': 227,
  'feed.ts:createFeed': 224,
  'documents.ts:createDocumentClient': 223,
  'verification.ts:createVerificationService': 200,
  'account.ts:mountAccount': 181,
  'app.ts:createApp': 157,
  'prepare.ts:signupPreparation': 151,
  'lint.ts:lintRecords': 148,
  'stores.ts:createEngineStores': 145,
  'main.ts:startServer': 114,
}
