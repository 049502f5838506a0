/**
 * "This browser holds a punter session": a cookie with no secret in it, only so the server knows
 * not to render a guest's first screen for a punter (issue 10). The session itself lives in the
 * browser's storage, which the server never sees; without the hint a punter's reload showed the
 * guest header (Log in, Join) from the server's markup until the app had restored the session —
 * on a slow phone a second or two of "you are logged out". With it the server sends the boot
 * shell (brand bar, busy) as before server rendering, and the app shows the punter's header.
 * Not a credential: the value is "1"; a forged or stale hint only costs that page its server
 * rendering. Functional, so outside the consent choice (it stores nothing about the punter).
 */
import type { EngineStores, SessionState } from '../core/stores'

import { hasPunterHint, PUNTER_HINT_COOKIE } from '../../kernel/auth/punter-cookie'

export { hasPunterHint, PUNTER_HINT_COOKIE }

export interface HintJar {
  write(cookie: string): void
}

const browserJar: HintJar = {
  write: (cookie) => {
    try {
      document.cookie = cookie
    } catch {
      // cookies disabled: the server renders the guest's first screen, as without the hint
    }
  },
}

/** Keeps the hint in step with the session store: set while a session is held (restoring or
 * live), cleared once the page is a guest's (logout, an expired session that failed to restore). */
export function followPunterHint(stores: EngineStores, jar: HintJar = browserJar): () => void {
  let last: boolean | undefined
  const write = (state: SessionState) => {
    const held = state.status !== 'guest'
    if (held === last) return
    last = held
    jar.write(held ? `${PUNTER_HINT_COOKIE}=1; Path=/; SameSite=Lax; Max-Age=31536000` : `${PUNTER_HINT_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`)
  }
  write(stores.session.getState())
  return stores.session.subscribe(write)
}
