/**
 * The phone rule (kernel/core/phone-rule.ts, with libphonenumber's metadata, ~25 KB brotli) loads
 * when a phone widget mounts, not with the form or the lobby. Until it arrives the widget is
 * read-only and the form's own phone check is skipped (there is no value to check yet); the server
 * checks every number with the same module.
 */
import { useEffect, useState } from 'react'
import { loadOnce } from '../../core/load-once'

type PhoneRule = typeof import('../../../kernel/core/phone-rule')

let loaded: PhoneRule | undefined

/** Loads the rule once; a failed chunk load is forgotten, so the next widget that mounts tries again. */
export const loadPhoneRule: () => Promise<PhoneRule> = loadOnce(() => import('../../../kernel/core/phone-rule').then((rule) => (loaded = rule)))

/** The rule if it has arrived (the form's synchronous check). */
export const phoneRuleIfLoaded = (): PhoneRule | undefined => loaded

/** The rule once it has arrived; starts loading it. `afterMount`: the first render goes without
 * it even when it is loaded (hydrating the server's markup, which was rendered without it). */
export function usePhoneRule(afterMount = false): PhoneRule | undefined {
  const [rule, setRule] = useState(afterMount ? undefined : loaded)
  useEffect(() => {
    if (rule) return
    if (loaded) return setRule(loaded)
    let live = true
    loadPhoneRule().then(
      (next) => live && setRule(next),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [rule])
  return rule
}
