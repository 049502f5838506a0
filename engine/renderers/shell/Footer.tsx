/** The footer (spec §2), from the `footer` document; login-only links hidden for guests. */
import { Link } from 'react-router-dom'
import { FOOTER_ITEM_NAMES } from '../../documents/kinds'
import type { FooterDocument, FooterItem } from '../../documents/types'
import { useVisibleItems } from '../nodes/MenuNode'
import { useEvaluate, useRuntime } from '../runtime'
import { useDocument } from '../use-document'

const KNOWN = new Set<string>(FOOTER_ITEM_NAMES)

function FooterLinks({ doc }: { doc: FooterDocument }) {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const items = useVisibleItems<FooterItem>(doc.items, KNOWN, doc.id)
  return (
    <>
      <nav aria-label={runtime.t('shell.footerNav')}>
        <ul className="app-footer__links">
          {items.map((item, index) => (
            <li key={`${item.name}-${index}`}>
              {item.to && /^https:\/\//.test(item.to) ? (
                <a href={item.to} target="_blank" rel="noopener noreferrer">
                  {text(item.label)}
                </a>
              ) : item.to ? (
                <Link to={runtime.href(item.to)} data-footer-item={item.name}>
                  {text(item.label)}
                </Link>
              ) : (
                <button type="button" className="menu-list__link" onClick={() => void runtime.run(item.actions)}>
                  {text(item.label)}
                </button>
              )}
            </li>
          ))}
        </ul>
      </nav>
      {doc.notice && <p className="app-footer__notice">{text(doc.notice)}</p>}
    </>
  )
}

export function Footer() {
  const state = useDocument<FooterDocument>('footer', 'footer')
  return <footer className="app-footer">{state.status === 'ready' && <FooterLinks doc={state.doc} />}</footer>
}
