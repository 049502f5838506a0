/**
 * The app icon follows the header document's `appIcons` (spec §6: a VIP punter's icon when
 * showVipStatusAppIcon is on): the first entry whose condition holds names the icon, and the page's
 * `<link rel="icon">` points at its file. `html[data-app-icon]` says which one is in use.
 */
import { useEffect } from 'react'
import type { HeaderDocument } from '../../../kernel/documents/types'
import { useEvaluate } from '../runtime'

const ICON_FILES: Record<string, string> = { vip: '/app-icon-vip.svg', default: '/favicon.svg' }

export function useAppIcon(doc: HeaderDocument | null): void {
  const { when } = useEvaluate()
  const icons = ((doc as { appIcons?: { name: string; when?: unknown }[] } | null)?.appIcons ?? []).filter((icon) => Object.hasOwn(ICON_FILES, icon.name))
  const name = icons.find((icon) => when(icon.when))?.name ?? 'default'
  useEffect(() => {
    if (typeof document === 'undefined') return
    document.documentElement.dataset.appIcon = name
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (link && link.getAttribute('href') !== ICON_FILES[name]) link.setAttribute('href', ICON_FILES[name]!)
  }, [name])
}
