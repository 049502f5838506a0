import { useEffect } from 'react'
import { NavLink } from 'react-router-dom'
import { defaultRoot } from '../../../kernel/core/locale-path'
import { report } from '../../core/report'
import { MENU_ITEM_NAMES } from '../../../kernel/documents/names'
import type { MenuDocument, MenuItem, NodeOf } from '../../../kernel/documents/types'
import { useDocument } from '../use-document'
import { useEvaluate, useRuntime } from '../runtime'
import { pageLocalStorage } from '../../core/web-storage'
import { ExternalLink } from './ExternalLink'

const KNOWN = new Set<string>(MENU_ITEM_NAMES)
const reported = new Set<string>()

/** The items a punter may see: known names (an unknown one is an error, spec §2: reported and
 * skipped), login-only ones only when logged in, and those whose `when` holds. */
export function useVisibleItems<I extends { name: string; when?: unknown; loginOnly?: boolean }>(items: readonly I[] | undefined, known: ReadonlySet<string>, documentId: string): I[] {
  const { ctx, when } = useEvaluate()
  const unknown = (items ?? []).filter((item) => !known.has(item.name)).map((item) => item.name)
  useEffect(() => {
    for (const name of unknown) {
      const key = `${documentId}:${name}`
      if (reported.has(key)) continue
      reported.add(key)
      report({ kind: 'document', message: `menu "${documentId}": unknown item name "${name}" skipped`, detail: { name } })
    }
  }, [unknown.join('|'), documentId]) // eslint-disable-line react-hooks/exhaustive-deps
  return (items ?? []).filter((item) => known.has(item.name) && (!item.loginOnly || ctx.session.loggedIn) && when(item.when))
}

/** Where an item leads: its `to`; the `lobby` item without one goes to the default root. */
export function itemTarget(item: { name: string; to?: string }, mainProduct: string | undefined): string | undefined {
  if (item.to) return item.to
  if (item.name === 'lobby') return defaultRoot(pageLocalStorage(), mainProduct)
  return undefined
}

export function MenuItems({ doc, className, onNavigate }: { doc: MenuDocument; className?: string; onNavigate?: () => void }) {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const items = useVisibleItems<MenuItem>(doc.items, KNOWN, doc.id)
  const mainProduct = runtime.stores.site.getState().bootstrap?.site.mainProduct
  return (
    <ul className={className ?? 'menu-list'}>
      {items.map((item, index) => {
        const to = itemTarget(item, mainProduct)
        const label = text(item.label)
        const key = `${item.name}-${index}`
        if (to && /^https:\/\//.test(to))
          return (
            <li key={key}>
              <ExternalLink className="menu-list__link" href={to} data-menu-item={item.name}>
                {label}
              </ExternalLink>
            </li>
          )
        if (to)
          return (
            <li key={key}>
              <NavLink className="menu-list__link" to={runtime.href(to)} end data-menu-item={item.name} onClick={() => onNavigate?.()}>
                {label}
              </NavLink>
            </li>
          )
        return (
          <li key={key}>
            <button
              type="button"
              className="menu-list__link"
              data-menu-item={item.name}
              onClick={() => {
                onNavigate?.()
                void runtime.run(item.actions)
              }}
            >
              {label}
            </button>
          </li>
        )
      })}
    </ul>
  )
}

/** A menu document rendered inline inside a screen. */
export function MenuNode({ node }: { node: NodeOf<'menu'> }) {
  const state = useDocument<MenuDocument>('menu', node.menu)
  if (state.status !== 'ready') return null
  return (
    <nav aria-label={node.menu} data-testid={node.testId}>
      <MenuItems doc={state.doc} className="menu-list menu-list--inline" />
    </nav>
  )
}
