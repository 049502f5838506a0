/**
 * The profile panel the header's avatar opens (issue 9, spec §2): the punter's avatar, name and
 * account number, the account links and logout, all from the `header` document's `profile`.
 * Choosing a link closes it after 400 ms (spec §2/§9, the ui store's injected timer); while it
 * closes it is inert and slides away. A dialog: focus moves in, Tab stays in, Escape closes and
 * focus goes back to the avatar.
 */
import { useEffect, useRef, useState } from 'react'
import { NavLink } from 'react-router-dom'
import { useStore } from 'zustand'
import { PROFILE_LINK_NAMES } from '../../../kernel/documents/names'
import type { HeaderDocument, ProfileLink } from '../../../kernel/documents/types'
import { useVisibleItems } from '../nodes/MenuNode'
import { useFocusTrap } from '../popups/focus-trap'
import { useEvaluate, useRuntime, type EngineRuntime } from '../runtime'

const KNOWN_LINKS = new Set<string>(PROFILE_LINK_NAMES)
export const PROFILE_PANEL_ID = 'profile-panel'
export const AVATAR_BUTTON_ID = 'profile-avatar'

export interface ProfilePanelControl {
  /** The panel is on screen (also while it closes). */
  open: boolean
  /** On screen and not closing: what aria-expanded says. */
  expanded: boolean
  show(): void
  /** Starts the 400 ms close; focus goes back to the avatar now if it was in the panel. */
  hide(): void
}

/** Open/closing state of the panel, shared by the avatar button and the panel. */
export function useProfilePanel(runtime: EngineRuntime): ProfilePanelControl {
  const ui = runtime.stores.ui
  const open = useStore(ui, (s) => s.profileOpen)
  const [closing, setClosing] = useState(false)
  useEffect(() => {
    if (!open) setClosing(false)
  }, [open])
  return {
    open,
    expanded: open && !closing,
    show() {
      setClosing(false)
      ui.getState().setLeftMenu(false)
      ui.getState().openProfile()
    },
    hide() {
      if (document.getElementById(PROFILE_PANEL_ID)?.contains(document.activeElement)) document.getElementById(AVATAR_BUTTON_ID)?.focus({ preventScroll: true })
      setClosing(true)
      ui.getState().closeProfile()
    },
  }
}

/** The avatar the document picks: the first whose condition holds (VIP before the default). */
export function useAvatar(doc: HeaderDocument): { name: string; label: string } {
  const { when, text } = useEvaluate()
  const avatar = (doc.profile.avatars ?? []).find((candidate) => when(candidate.when))
  return avatar ? { name: avatar.name, label: text(avatar.label) } : { name: 'default', label: '' }
}

export function Avatar({ doc, initial, large }: { doc: HeaderDocument; initial: string; large?: boolean }) {
  const avatar = useAvatar(doc)
  return (
    <span className={large ? 'avatar avatar--large' : 'avatar'} data-avatar={avatar.name} data-testid={large ? 'profile-avatar-large' : 'avatar'} data-personal aria-hidden="true">
      {initial || '•'}
      {avatar.name === 'vip' && <span className="avatar__badge">{avatar.label}</span>}
    </span>
  )
}

function PanelLink({ link, onChoose }: { link: ProfileLink; onChoose(): void }) {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const label = text(link.label)
  if (link.to)
    return (
      <NavLink className="menu-list__link" to={runtime.href(link.to)} end data-profile-link={link.name} onClick={onChoose}>
        {label}
      </NavLink>
    )
  return (
    <button
      type="button"
      className="menu-list__link"
      data-profile-link={link.name}
      onClick={() => {
        onChoose()
        void runtime.run(link.actions)
      }}
    >
      {label}
    </button>
  )
}

function useEscapeCloses(active: boolean, runtime: EngineRuntime, hide: () => void) {
  useEffect(() => {
    if (!active) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && runtime.stores.ui.getState().popups.length === 0) hide()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [active]) // eslint-disable-line react-hooks/exhaustive-deps
}

export function ProfilePanel({ doc, control }: { doc: HeaderDocument; control: ProfilePanelControl }) {
  const runtime = useRuntime()
  const { text } = useEvaluate()
  const ref = useRef<HTMLDivElement>(null)
  const links = useVisibleItems<ProfileLink>(doc.profile.links, KNOWN_LINKS, doc.id)
  useFocusTrap(ref, control.expanded, true)
  useEscapeCloses(control.expanded, runtime, control.hide)
  if (!control.open) return null
  const title = text(doc.profile.title)
  return (
    <>
      <button type="button" className="profile-panel__scrim" aria-label={runtime.t('profile.close')} tabIndex={-1} onClick={control.hide} />
      <div
        ref={ref}
        id={PROFILE_PANEL_ID}
        className="profile-panel"
        role="dialog"
        aria-modal="true"
        aria-label={runtime.t('profile.title')}
        data-testid="profile-panel"
        data-closing={!control.expanded}
        inert={!control.expanded || undefined}
        tabIndex={-1}
      >
        <div className="profile-panel__head">
          <Avatar doc={doc} initial={title.slice(0, 1).toUpperCase()} large />
          <div className="profile-panel__who">
            <p className="profile-panel__name" data-testid="profile-name" data-personal>
              {title}
            </p>
            {doc.profile.subtitle && (
              <p className="profile-panel__account" data-testid="profile-account-number" data-personal>
                {text(doc.profile.subtitle)}
              </p>
            )}
          </div>
          <button type="button" className="icon-button profile-panel__close" aria-label={runtime.t('profile.close')} onClick={control.hide}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <ul className="menu-list">
          {links.map((link, index) => (
            <li key={`${link.name}-${index}`}>
              <PanelLink link={link} onChoose={control.hide} />
            </li>
          ))}
        </ul>
      </div>
    </>
  )
}
