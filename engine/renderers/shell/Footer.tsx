/**
 * The footer (spec §2): its 23 items from the `footer` document, login-only ones hidden for
 * guests; "manage cookies" runs its actions (it reopens the consent banner). The document's
 * cookieConsent page settings drive the consent banner, mounted here beside the footer.
 */
import { Link } from 'react-router-dom'
import { FOOTER_ITEM_NAMES } from '../../../kernel/documents/names'
import type { FooterDocument, FooterItem } from '../../../kernel/documents/types'
import { ExternalLink } from '../nodes/ExternalLink'
import { useVisibleItems } from '../nodes/MenuNode'
import { useEvaluate, useRuntime } from '../runtime'
import { useDocument } from '../use-document'
import { CookieConsent } from './CookieConsent'

const KNOWN = new Set<string>(FOOTER_ITEM_NAMES)

function FooterLink({ item }: { item: FooterItem }) {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const label = text(item.label)
  if (item.to && /^https:\/\//.test(item.to))
    return (
      <ExternalLink href={item.to} data-footer-item={item.name}>
        {label}
      </ExternalLink>
    )
  if (item.to)
    return (
      <Link to={runtime.href(item.to)} data-footer-item={item.name}>
        {label}
      </Link>
    )
  return (
    <button type="button" className="app-footer__action" data-footer-item={item.name} onClick={() => void runtime.run(item.actions)}>
      {label}
    </button>
  )
}

function FooterLinks({ doc }: { doc: FooterDocument }) {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const items = useVisibleItems<FooterItem>(doc.items, KNOWN, doc.id)
  return (
    <>
      <nav aria-label={runtime.t('shell.footerNav')}>
        <ul className="app-footer__links" data-testid="footer-links">
          {items.map((item, index) => (
            <li key={`${item.name}-${index}`}>
              <FooterLink item={item} />
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
  const doc = state.status === 'ready' ? state.doc : null
  return (
    <>
      <footer className="app-footer">{doc && <FooterLinks doc={doc} />}</footer>
      {state.status !== 'loading' && <CookieConsent settings={doc?.cookieConsent} policy={doc?.cookieConsent?.policy} />}
    </>
  )
}
