/**
 * Focus after navigation (issue 29 item 7): a view that opens moves the keyboard and screen
 * reader to its heading (tabIndex -1), as a page load would, so nobody is left on a nav button.
 */
import { useEffect, useRef } from 'react'

export function useFocusOnOpen<T extends HTMLElement>(key?: unknown) {
  const ref = useRef<T>(null)
  useEffect(() => {
    ref.current?.focus()
  }, [key])
  return ref
}
