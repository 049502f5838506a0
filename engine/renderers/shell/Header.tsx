/**
 * The page header (issue 9, spec §2): the menu button, the brand and the account area, which comes
 * from the `header` document — a guest sees Log in and Sign up; a punter the balance (when the
 * server-side setting showCurrentBalance allows), a deposit button and the avatar that opens the
 * profile panel. While a stored session is restoring (or the document loads) a neutral placeholder
 * of the same size holds the place, never the guest buttons.
 */
import { Link } from 'react-router-dom'
import { useStore } from 'zustand'
import { currencyCode, formatMoney } from '../../../kernel/core/format'
import { HEADER_ITEM_NAMES } from '../../../kernel/documents/names'
import type { HeaderDocument, HeaderItem } from '../../../kernel/documents/types'
import { useCurrencyDisplays, useEvaluate, useRuntime } from '../runtime'
import { useDocument } from '../use-document'
import { AVATAR_BUTTON_ID, Avatar, PROFILE_PANEL_ID, ProfilePanel, useProfilePanel, type ProfilePanelControl } from './ProfilePanel'
import { useSessionStatus } from './session-status'
import { useAppIcon } from './app-icon'
import { usePunterSocket } from '../punter-socket'
import { usePunterMessages } from '../punter-messages'
import { usePunterBets } from '../punter-bets'

const KNOWN_ITEMS = new Set<string>(HEADER_ITEM_NAMES)

function MenuButton() {
  const runtime = useRuntime()
  const open = useStore(runtime.stores.ui, (s) => s.leftMenuOpen)
  return (
    <button
      type="button"
      className="icon-button"
      aria-expanded={open}
      aria-controls="left-menu"
      aria-label={runtime.t(open ? 'shell.closeMenu' : 'shell.menu')}
      data-testid="menu-button"
      onClick={() => {
        runtime.stores.ui.getState().closeProfile()
        runtime.stores.ui.getState().toggleLeftMenu()
      }}
    >
      <span className="burger" aria-hidden="true" />
    </button>
  )
}

function Balance({ item }: { item: HeaderItem }) {
  const { ctx, text } = useEvaluate()
  usePunterSocket() // the balance follows accountUpdate: a win, a cash-out, another tab or device
  const currency = currencyCode(ctx.user.currency)
  const shown = formatMoney(ctx.user.balance, ctx.site.locale, currency, useCurrencyDisplays())
  // a long amount ("NGN 50,000.00") is drawn smaller on small phones, so the brand beside it stays whole
  return (
    <span className="header-balance" data-header-item={item.name} data-testid="header-balance" data-length={shown.length > 10 ? 'long' : undefined}>
      <span className="visually-hidden">{text(item.label)} </span>
      <data value={String(ctx.user.balance)} data-personal>{shown}</data>
    </span>
  )
}

/** The inbox link with its unread count (spec §3 Messages): the count follows the server. */
function MessagesItem({ item }: { item: HeaderItem }) {
  const runtime = useRuntime()
  const { ctx, text } = useEvaluate()
  const unread = ctx.user.unreadMessages
  return (
    <Link
      className="header-button header-button--ghost header-messages"
      to={runtime.href(item.to ?? '/account/messages')}
      data-header-item={item.name}
      data-testid="header-messages"
      aria-label={`${text(item.label)}${unread > 0 ? `, ${runtime.t('messages.unread', { count: unread })}` : ''}`}
    >
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="m3 7 9 6 9-6" />
      </svg>
      {unread > 0 && (
        <span className="header-messages__count" data-testid="header-unread" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  )
}

function AvatarButton({ item, doc, control }: { item: HeaderItem; doc: HeaderDocument; control: ProfilePanelControl }) {
  const { ctx, text } = useEvaluate()
  const name = ctx.user.nickname || ctx.user.firstName
  return (
    <button
      type="button"
      id={AVATAR_BUTTON_ID}
      className="avatar-button"
      aria-label={text(item.label)}
      aria-haspopup="dialog"
      aria-expanded={control.expanded}
      aria-controls={PROFILE_PANEL_ID}
      data-header-item={item.name}
      onClick={() => (control.expanded ? control.hide() : control.show())}
    >
      <Avatar doc={doc} initial={name.slice(0, 1).toUpperCase()} />
    </button>
  )
}

/**
 * The deposit button's label next to a "+" that stands alone on small phones, where the balance, the
 * label in some languages ("Depositar", "Пополнить") and the inbox would cut the brand: the label
 * stays the button's accessible name there (visually hidden), so a screen reader still says "Deposit".
 */
function ActionLabel({ item, label }: { item: HeaderItem; label: string }) {
  if (item.name !== 'deposit') return <>{label}</>
  return (
    <>
      <span className="header-button__plus" aria-hidden="true">
        +
      </span>
      <span className="header-button__label">{label}</span>
    </>
  )
}

function ActionItem({ item }: { item: HeaderItem }) {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const className = `header-button header-button--${item.variant ?? 'secondary'}`
  const label = <ActionLabel item={item} label={text(item.label)} />
  if (item.to)
    return (
      <Link className={className} to={runtime.href(item.to)} data-header-item={item.name}>
        {label}
      </Link>
    )
  return (
    <button type="button" className={className} data-header-item={item.name} onClick={() => void runtime.run(item.actions)}>
      {label}
    </button>
  )
}

function AccountItems({ doc, control }: { doc: HeaderDocument; control: ProfilePanelControl }) {
  const { when } = useEvaluate()
  const items = doc.items.filter((item) => KNOWN_ITEMS.has(item.name) && when(item.when))
  return (
    <>
      {items.map((item, index) => {
        const key = `${item.name}-${index}`
        if (item.name === 'balance') return <Balance key={key} item={item} />
        if (item.name === 'profile') return <AvatarButton key={key} item={item} doc={doc} control={control} />
        if (item.name === 'messages') return <MessagesItem key={key} item={item} />
        return <ActionItem key={key} item={item} />
      })}
    </>
  )
}

export function Header() {
  const runtime = useRuntime()
  const status = useSessionStatus()
  const state = useDocument<HeaderDocument>('header', 'header')
  const control = useProfilePanel(runtime)
  const doc = state.status === 'ready' ? state.doc : null
  const settled = doc !== null && status !== 'restoring'
  useAppIcon(doc)
  usePunterMessages() // active messages once per session, new ones over the punter socket
  usePunterBets() // the bets page's cash-out offers and lists follow the punter socket
  return (
    <>
      <header className="app-header">
        <MenuButton />
        <Link className="app-header__brand" to={runtime.href('/')}>
          {runtime.t('shell.brand')}
        </Link>
        <div className="app-header__account" data-testid="header-account" data-session={status} aria-busy={!settled || undefined}>
          {settled ? (
            <AccountItems doc={doc} control={control} />
          ) : (
            state.status !== 'error' && (
              <span className="header-placeholder" data-testid="header-placeholder">
                <span className="visually-hidden">{runtime.t('header.loading')}</span>
              </span>
            )
          )}
        </div>
      </header>
      {doc && status === 'punter' && <ProfilePanel doc={doc} control={control} />}
    </>
  )
}
