/**
 * One place that asks for a translation key. Its own file so translations.ts (which checks the
 * uses) and error-texts.ts (which finds the server's error answers as uses) both import it.
 */

/** One place that asks for a key. `values` undefined: the caller's values are not known. */
export interface KeyUse {
  key: string
  /** A key built in code from this prefix (`t(`form.error.${code}`, …)`): the use applies to every
   * key that starts with it. */
  prefix?: string
  file: string
  pointer: string
  values?: readonly string[]
  /** Lint.ts already checks this use's key for presence (document Text fields). */
  presenceCheckedElsewhere?: boolean
}
