/**
 * Interaction summaries of session replay (spec §9 "click aggregation window 1 hour", spec §7
 * "interaction summaries by beacon"), framework-free: while replay records, taps are counted per
 * page and per element, over windows of at most one hour, and each window's counts go out in one
 * beacon when it closes or when the page goes away. Support and operators see which elements of a
 * page punters tap (and which they never find) without watching every replay.
 *
 * Privacy: an element is named by its `data-testid` (the document's name for it), else by its tag
 * and role — never by its text, its value or its position in a list, so no punter data is counted.
 */
export const CLICK_WINDOW_MS = 3_600_000
/** At most this many page × element pairs per window; taps on further pairs are counted as "other". */
export const MAX_CLICK_TARGETS = 300
export const OTHER_TARGET = '(other)'

export interface ClickCount {
  page: string
  target: string
  clicks: number
}

export interface ClickWindow {
  windowStart: number
  windowEnd: number
  clicks: ClickCount[]
}

export interface ClickSummary {
  /** Counts one tap; returns the window it closed, if this tap falls after the open window. */
  record(page: string, target: string): ClickWindow | null
  /** The open window's counts (and starts afresh): for the beacon when the page goes away. */
  take(): ClickWindow | null
}

export function createClickSummary(now: () => number, windowMs = CLICK_WINDOW_MS): ClickSummary {
  let start = 0
  let last = 0
  let counts = new Map<string, ClickCount>()

  function take(): ClickWindow | null {
    if (counts.size === 0) return null
    const window = { windowStart: start, windowEnd: last, clicks: [...counts.values()] }
    counts = new Map()
    return window
  }

  return {
    record(page, target) {
      const at = now()
      const closed = counts.size > 0 && at - start >= windowMs ? take() : null
      if (counts.size === 0) start = at
      last = at
      let key = `${page}\u0000${target}`
      if (!counts.has(key) && counts.size >= MAX_CLICK_TARGETS) key = `${page}\u0000${OTHER_TARGET}`
      const entry = counts.get(key) ?? { page, target: key.endsWith(OTHER_TARGET) ? OTHER_TARGET : target, clicks: 0 }
      entry.clicks += 1
      counts.set(key, entry)
      return closed
    },
    take,
  }
}

/** The name a tapped element is counted under: its (or its nearest ancestor's) data-testid, else tag[role]. */
export function clickTargetName(element: { closest(selector: string): { getAttribute(name: string): string | null } | null; tagName: string; getAttribute(name: string): string | null }): string {
  const named = element.closest('[data-testid]')?.getAttribute('data-testid')
  if (named) return named.slice(0, 100)
  const role = element.getAttribute('role')
  return `${element.tagName.toLowerCase()}${role ? `[${role}]` : ''}`.slice(0, 100)
}
