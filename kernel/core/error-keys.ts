/**
 * Which i18n key shows an error code (spec §8). Pure: the server's lint and the browser's gateway
 * client both read it.
 */
/** Codes that show the generic undefined-server-error text (spec §8 display rules). */
const UNDEFINED_SERVER_CODES = new Set(['EMPTY_TOKEN', 'TOKEN_NOT_FOUND', 'LOGIN_NOT_FOUND', 'INCORRECT_PUNTER_STATE', 'ERROR'])

/**
 * The i18n key that displays an error code (spec §8): EMPTY_TOKEN, TOKEN_NOT_FOUND,
 * LOGIN_NOT_FOUND, INCORRECT_PUNTER_STATE, ERROR → 'server.error.undefined'; others
 * 'server.error.{code}'; no code, or (when `hasKey` is given) a code without a text →
 * 'common.request.error'.
 */
export function errorMessageKey(code: string | undefined | null, hasKey?: (key: string) => boolean): string {
  if (!code) return 'common.request.error'
  if (UNDEFINED_SERVER_CODES.has(code)) return 'server.error.undefined'
  const key = `server.error.${code}`
  if (hasKey && !hasKey(key)) return 'common.request.error'
  return key
}
