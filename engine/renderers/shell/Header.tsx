import { Link } from 'react-router-dom'
import { useStore } from 'zustand'
import { useRuntime } from '../runtime'

export function Header() {
  const runtime = useRuntime()
  const open = useStore(runtime.stores.ui, (s) => s.leftMenuOpen)
  return (
    <header className="app-header">
      <button
        type="button"
        className="icon-button"
        aria-expanded={open}
        aria-controls="left-menu"
        aria-label={runtime.t(open ? 'shell.closeMenu' : 'shell.menu')}
        data-testid="menu-button"
        onClick={() => runtime.stores.ui.getState().toggleLeftMenu()}
      >
        <span className="burger" aria-hidden="true" />
      </button>
      <Link className="app-header__brand" to={runtime.href('/')}>
        {runtime.t('shell.brand')}
      </Link>
    </header>
  )
}
