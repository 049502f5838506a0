/** The left menu (spec §2), rendered from the `left-menu` menu document; it toggles from the
 * header and closes on navigation, Escape and a tap outside. */
import { useEffect, useRef } from 'react'
import { useStore } from 'zustand'
import type { MenuDocument } from '../../../kernel/documents/types'
import { MenuItems } from '../nodes/MenuNode'
import { useEvaluate, useRuntime } from '../runtime'
import { useDocument } from '../use-document'

export function LeftMenu() {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const open = useStore(runtime.stores.ui, (s) => s.leftMenuOpen)
  const state = useDocument<MenuDocument>('menu', 'left-menu')
  const ref = useRef<HTMLElement>(null)
  const close = () => runtime.stores.ui.getState().setLeftMenu(false)

  useEffect(() => {
    if (!open) return
    ref.current?.querySelector<HTMLElement>('a, button')?.focus({ preventScroll: true })
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && runtime.stores.ui.getState().popups.length === 0) {
        close()
        document.querySelector<HTMLElement>('[aria-controls="left-menu"]')?.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [open]) // eslint-disable-line react-hooks/exhaustive-deps

  const doc = state.status === 'ready' ? state.doc : null
  return (
    <>
      {open && <button type="button" className="left-menu__scrim" aria-label={runtime.t('shell.closeMenu')} tabIndex={-1} onClick={close} />}
      <nav
        ref={ref}
        id="left-menu"
        className="left-menu"
        data-open={open}
        aria-label={doc?.title ? text(doc.title) : runtime.t('shell.mainNav')}
        data-testid="left-menu"
        inert={!open || undefined}
      >
        {doc && <MenuItems doc={doc} onNavigate={close} />}
      </nav>
    </>
  )
}
