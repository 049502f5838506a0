/**
 * The windows the site opens (spec §9 "popup-window reference cleanup every 30 s"): one registry
 * keeps a reference per purpose (the support site, a help page…), so a second tap on the same link
 * brings the open window forward instead of opening another, and every 30 s it drops references to
 * windows the punter closed — the timer runs only while a window is tracked, so nothing leaks.
 * Pure: the window opener and the timers are injected (tests drive them with a manual clock).
 */

/** Popup-window reference cleanup period (spec §9). */
export const POPUP_CLEANUP_MS = 30_000

/** What the registry needs of a window (a WindowProxy, also across origins). */
export interface WindowLike {
  readonly closed: boolean
  focus(): void
}

export interface PopupTimers {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

export interface PopupRegistryDeps<W extends WindowLike> {
  /** Opens `url` in a new window named `name`; null when the browser refused (a popup blocker). */
  open(url: string, name: string): W | null
  /** Sends an already open window to another address (same purpose, new page). */
  navigate?(window: W, url: string): void
  timers?: PopupTimers
}

export interface PopupRegistry<W extends WindowLike> {
  /** The purpose's open window, brought forward (and sent to `url` if it shows another page), or a new one. */
  open(purpose: string, url: string): W | null
  /** Whether a reference for the purpose is held (a closed window stays until the next sweep). */
  has(purpose: string): boolean
  /** How many references are held. */
  readonly size: number
  /** Whether the cleanup timer runs. */
  readonly sweeping: boolean
  /** Drops the references to closed windows (what the timer runs every 30 s). */
  sweep(): void
  /** Called after every change of the references; returns the unsubscribe. */
  subscribe(listener: () => void): () => void
}

const defaultTimers: PopupTimers = {
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
}

/** A window name for a purpose: letters, digits, dash and underscore only (never `_blank`/`_self`). */
export function windowName(purpose: string): string {
  return `parlay-${purpose.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 60)}`
}

export function createPopupRegistry<W extends WindowLike>(deps: PopupRegistryDeps<W>): PopupRegistry<W> {
  const timers = deps.timers ?? defaultTimers
  const windows = new Map<string, { window: W; url: string }>()
  const listeners = new Set<() => void>()
  let timer: unknown = undefined
  const changed = () => listeners.forEach((listener) => listener())

  function stopWhenEmpty() {
    if (windows.size > 0 || timer === undefined) return
    timers.clearInterval(timer)
    timer = undefined
  }

  function sweep() {
    let dropped = false
    for (const [purpose, entry] of windows)
      if (entry.window.closed) dropped = windows.delete(purpose) || dropped
    stopWhenEmpty()
    if (dropped) changed()
  }

  function open(purpose: string, url: string): W | null {
    const held = windows.get(purpose)
    if (held && !held.window.closed) {
      if (held.url !== url) {
        deps.navigate?.(held.window, url)
        held.url = url
      }
      held.window.focus()
      return held.window
    }
    const opened = deps.open(url, windowName(purpose))
    if (!opened) return null
    windows.set(purpose, { window: opened, url })
    if (timer === undefined) timer = timers.setInterval(sweep, POPUP_CLEANUP_MS)
    changed()
    return opened
  }

  return {
    open,
    sweep,
    has: (purpose) => windows.has(purpose),
    get size() {
      return windows.size
    },
    get sweeping() {
      return timer !== undefined
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
