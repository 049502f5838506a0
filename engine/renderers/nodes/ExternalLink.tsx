/**
 * A link that leaves the site (https) opens in a window of its own, tracked by the page's popup
 * registry (engine/core/popup-windows.ts): a second tap brings the same site's window forward
 * instead of opening another, and references to closed windows are dropped every 30 s. The new
 * window gets no opener and no referrer (as rel="noopener noreferrer"). Under the site's
 * Cross-Origin-Opener-Policy (same-origin) the browser cuts the reference once the window shows
 * another origin: it then reads as closed, so a later tap opens a new window and the sweep drops
 * the old reference; a window of the site's own origin stays tracked and is brought forward. A modified click (new tab, download) and a
 * blocked popup keep the anchor's own behaviour.
 */
import { useSyncExternalStore, type MouseEvent, type ReactNode } from 'react'
import { createPopupRegistry, type PopupRegistry } from '../../core/popup-windows'

let registry: PopupRegistry<Window> | undefined

/** The window goes to `url` through a rel=noreferrer link of its own blank page (as the anchor did:
 * the site's address is not sent); a window already elsewhere is sent there directly. */
function leaveWithoutReferrer(opened: Window, url: string): void {
  try {
    const link = opened.document.createElement('a')
    link.href = url
    link.rel = 'noreferrer'
    opened.document.body.append(link)
    link.click()
  } catch {
    opened.location.replace(url)
  }
}

/** A window with no way back to this page, sent to `url` once it is detached. */
function openDetached(url: string, name: string): Window | null {
  const opened = window.open('', name)
  if (!opened) return null
  try {
    opened.opener = null
  } catch {
    // a window of this name already shows another origin: it has no usable opener either
  }
  leaveWithoutReferrer(opened, url)
  return opened
}

/** The page's registry (created on first use; none while rendering on the server). */
export function popupWindows(): PopupRegistry<Window> | undefined {
  if (typeof window === 'undefined') return undefined
  return (registry ??= createPopupRegistry<Window>({ open: openDetached, navigate: (w, url) => w.location.replace(url) }))
}

/** One window per site: the support site from two pages is the same window. */
export function popupPurpose(href: string): string {
  try {
    return new URL(href).host
  } catch {
    return href
  }
}

const noop = () => () => {}

export function ExternalLink({ href, className, label, children, ...data }: { href: string; className?: string; label?: string; children: ReactNode } & Record<`data-${string}`, string | undefined>) {
  const purpose = popupPurpose(href)
  const popups = popupWindows()
  const tracked = useSyncExternalStore(popups?.subscribe ?? noop, () => popups?.has(purpose) ?? false, () => false)
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!popups || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    if (popups.open(purpose, href)) event.preventDefault()
  }
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer" onClick={onClick} aria-label={label} data-window={tracked ? 'open' : undefined} {...data}>
      {children}
    </a>
  )
}
