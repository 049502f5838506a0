/**
 * The footer (spec §2): its 23 items from the `footer` document, login-only ones hidden for
 * guests; "manage cookies" runs its actions (it reopens the consent banner). The document's
 * cookieConsent page settings drive the consent banner, mounted here beside the footer. Under the
 * links: the page settings' payment systems, compliance marks and social networks (spec §3), each a
 * badge named by its label, a link to its page when it has one.
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

type FooterBadge = NonNullable<FooterDocument['badges']>[number]
const BADGE_GROUPS = ['payment', 'compliance', 'social'] as const

function Badge({ badge }: { badge: FooterBadge }) {
  const { text } = useEvaluate()
  const label = text(badge.label)
  const mark = (
    <span className="app-footer__mark" aria-hidden="true">
      {typeof badge.mark === 'string' ? badge.mark : text(badge.mark)}
    </span>
  )
  if (badge.href)
    return (
      <ExternalLink href={badge.href} className="app-footer__badge" label={label} data-badge={badge.id}>
        {mark}
      </ExternalLink>
    )
  return (
    <span className="app-footer__badge" role="img" aria-label={label} data-badge={badge.id}>
      {mark}
    </span>
  )
}

function FooterBadges({ badges }: { badges: readonly FooterBadge[] }) {
  const runtime = useRuntime()
  return (
    <div className="app-footer__badges" data-testid="footer-badges">
      {BADGE_GROUPS.map((group) => {
        const inGroup = badges.filter((b) => b.group === group)
        if (inGroup.length === 0) return null
        return (
          <section key={group} aria-labelledby={`footer-badges-${group}`} data-badge-group={group}>
            <h2 className="app-footer__badges-title" id={`footer-badges-${group}`}>
              {runtime.t(`footer.badges.${group}`)}
            </h2>
            <ul className="app-footer__badge-list">
              {inGroup.map((badge) => (
                <li key={badge.id}>
                  <Badge badge={badge} />
                </li>
              ))}
            </ul>
          </section>
        )
      })}
    </div>
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
      {doc.badges && doc.badges.length > 0 && <FooterBadges badges={doc.badges} />}
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
