/**
 * Focus management for dialogs: focus moves into the dialog when it opens, Tab cycles inside it,
 * and focus returns to what had it before when the dialog closes (WAI-ARIA dialog pattern).
 */
import { useEffect, type RefObject } from 'react'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[inert]') && el.getClientRects().length > 0)
}

export function useFocusTrap(ref: RefObject<HTMLElement | null>, active: boolean, ready: boolean): void {
  useEffect(() => {
    if (!active) return
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    return () => {
      // restore only if focus is still inside a closing dialog or lost to <body>
      if (previous && previous.isConnected && (document.activeElement === document.body || document.activeElement === null || ref.current?.contains(document.activeElement)))
        previous.focus({ preventScroll: true })
    }
  }, [active, ref])

  useEffect(() => {
    const root = ref.current
    if (!active || !ready || !root) return
    if (!root.contains(document.activeElement)) {
      const [first] = focusables(root).filter((el) => !el.classList.contains('popup__close'))
      ;(first ?? root).focus({ preventScroll: true })
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return
      const items = focusables(root)
      if (items.length === 0) {
        event.preventDefault()
        root.focus()
        return
      }
      const first = items[0]
      const last = items[items.length - 1]
      if (event.shiftKey && (document.activeElement === first || document.activeElement === root)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault()
        first.focus()
      }
    }
    root.addEventListener('keydown', onKeyDown)
    return () => root.removeEventListener('keydown', onKeyDown)
  }, [active, ready, ref])
}
