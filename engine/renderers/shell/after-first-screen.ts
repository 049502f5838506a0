/**
 * "After the first paint" for work the first screen does not need (issue 10): the experiment
 * client, the domain actions, the service worker. Runs a task once the first screen has rendered
 * — the screen body's performance mark (ScreenRoute) or the rendered-screen event (any settled
 * page, error pages included) — and the page is idle, so it never competes with the first paint.
 * Each waiting task gets an idle period of its own: the experiment client, the services chunk and
 * the service worker in one callback made one long task after the first paint (issue 10's TBT).
 */
const FIRST_RENDER_MARK = 'parlay:first-render' // ScreenRoute's FIRST_RENDER_MARK
const SCREEN_RENDERED_EVENT = 'parlay:screen-rendered' // rendered-signal's event

type IdleWindow = Window & { requestIdleCallback?: (task: (deadline: IdleTime) => void, options?: { timeout: number }) => number }

/** What an idle period has left (requestIdleCallback's deadline). */
export interface IdleTime {
  timeRemaining(): number
}

/** Runs a task when the main thread is idle (at the latest after 3 s); given the idle deadline
 * when the browser has one. */
export function whenIdle(task: (deadline?: IdleTime) => void): void {
  const idle = (window as IdleWindow).requestIdleCallback
  if (idle) idle((deadline) => task(deadline), { timeout: 3000 })
  else window.setTimeout(() => task(), 200)
}

let rendered = false
const waiting: Array<() => void> = []

function firstScreenRendered(): void {
  if (rendered) return
  rendered = true
  window.removeEventListener(SCREEN_RENDERED_EVENT, firstScreenRendered)
  observer?.disconnect()
  for (const task of waiting.splice(0)) whenIdle(() => task())
}

let observer: PerformanceObserver | undefined
function listen(): void {
  if (typeof window === 'undefined' || observer || rendered) return
  window.addEventListener(SCREEN_RENDERED_EVENT, firstScreenRendered)
  if (typeof PerformanceObserver === 'function') {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(FIRST_RENDER_MARK).length > 0) firstScreenRendered()
    })
    observer.observe({ type: 'mark', buffered: true })
  }
}

export function afterFirstScreen(task: () => void): void {
  if (typeof window === 'undefined') return
  if (rendered) return whenIdle(() => task())
  waiting.push(task)
  listen()
}

type YieldingWindow = Window & { scheduler?: { yield?: () => Promise<void> } }

/**
 * Ends the current task and resumes in a new one at once (issue 10: the boot's steps each ran in
 * the entry module's task, one task of 450–760 ms at 4× CPU; a task boundary between them lets the
 * browser paint and answer input in between). `scheduler.yield()` where the browser has it (the
 * continuation goes ahead of other queued tasks), else a message to the page itself (no 4 ms
 * timer clamp). Outside a browser it is a resolved promise.
 */
export function nextTask(): Promise<void> {
  if (typeof window === 'undefined') return Promise.resolve()
  const scheduler = (window as YieldingWindow).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => window.setTimeout(resolve, 0))
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve()
    channel.port2.postMessage(null)
  })
}
