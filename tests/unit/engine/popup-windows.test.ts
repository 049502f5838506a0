/**
 * The popup-window registry (spec §9 "popup-window reference cleanup every 30 s"), on a manual
 * clock: references to closed windows are dropped at the 30 s sweep (not before), the timer stops
 * when none is left, and a second open of the same purpose brings the open window forward.
 */
import { describe, expect, it } from 'vitest'
import { createPopupRegistry, POPUP_CLEANUP_MS, windowName, type PopupTimers } from '../../../engine/core/popup-windows'
import { manualClock } from '../../support/manual-clock'

class FakeWindow {
  closed = false
  focused = 0
  constructor(
    public url: string,
    public name: string,
  ) {}
  focus() {
    this.focused += 1
  }
}

/** setInterval on the manual clock: each run schedules the next. */
function intervalTimers(clock: ReturnType<typeof manualClock>): PopupTimers & { running: () => number } {
  let running = 0
  return {
    running: () => running,
    setInterval(fn, ms) {
      running += 1
      const handle = { cancel: () => {} }
      const tick = () => {
        handle.cancel = clock.schedule(tick, ms)
        fn()
      }
      handle.cancel = clock.schedule(tick, ms)
      return handle
    },
    clearInterval(handle) {
      running -= 1
      ;(handle as { cancel: () => void }).cancel()
    },
  }
}

function setup() {
  const clock = manualClock()
  const timers = intervalTimers(clock)
  const opened: FakeWindow[] = []
  const registry = createPopupRegistry<FakeWindow>({
    open: (url, name) => {
      const w = new FakeWindow(url, name)
      opened.push(w)
      return w
    },
    navigate: (w, url) => void (w.url = url),
    timers,
  })
  return { clock, timers, opened, registry }
}

describe('popup-window registry', () => {
  it('the cleanup period is the spec constant 30 s', () => {
    expect(POPUP_CLEANUP_MS).toBe(30 * 1000)
  })

  it('drops the reference to a closed window at the 30 s sweep, not a tick before', async () => {
    const { clock, registry } = setup()
    const w = registry.open('support', 'https://support.example/')!
    await clock.advance(5_000)
    w.closed = true
    await clock.advance(POPUP_CLEANUP_MS - 5_000 - 1)
    expect(registry.has('support')).toBe(true)
    await clock.advance(1)
    expect(registry.has('support')).toBe(false)
    expect(registry.size).toBe(0)
  })

  it('keeps an open window across sweeps and stops the timer once the last window is dropped', async () => {
    const { clock, timers, registry } = setup()
    const a = registry.open('support', 'https://support.example/')!
    const b = registry.open('help', 'https://help.example/')!
    expect(timers.running()).toBe(1)
    b.closed = true
    await clock.advance(POPUP_CLEANUP_MS)
    expect([registry.has('support'), registry.has('help'), registry.sweeping]).toEqual([true, false, true])
    await clock.advance(POPUP_CLEANUP_MS * 3)
    expect(registry.has('support')).toBe(true)
    a.closed = true
    await clock.advance(POPUP_CLEANUP_MS)
    expect(registry.sweeping).toBe(false)
    expect(timers.running()).toBe(0)
  })

  it('a second open of the same purpose focuses the open window instead of opening another', () => {
    const { opened, registry } = setup()
    const first = registry.open('support', 'https://support.example/')
    const second = registry.open('support', 'https://support.example/')
    expect(second).toBe(first)
    expect(opened).toHaveLength(1)
    expect(opened[0]!.focused).toBe(1)
    expect(opened[0]!.name).toBe(windowName('support'))
  })

  it('the same purpose at another address sends the open window there', () => {
    const { opened, registry } = setup()
    registry.open('support', 'https://support.example/')
    registry.open('support', 'https://support.example/chat')
    expect(opened.map((w) => w.url)).toEqual(['https://support.example/chat'])
  })

  it('a window closed before the sweep is replaced by a new one on the next open', () => {
    const { opened, registry, timers } = setup()
    registry.open('support', 'https://support.example/')!.closed = true
    registry.open('support', 'https://support.example/')
    expect(opened).toHaveLength(2)
    expect(timers.running()).toBe(1)
  })

  it('a refused window (popup blocker) is not tracked and starts no timer', () => {
    const clock = manualClock()
    const timers = intervalTimers(clock)
    const registry = createPopupRegistry<FakeWindow>({ open: () => null, timers })
    expect(registry.open('support', 'https://support.example/')).toBeNull()
    expect([registry.size, registry.sweeping, timers.running()]).toEqual([0, false, 0])
  })

  it('tells subscribers when a reference is added and when one is dropped', async () => {
    const { clock, registry } = setup()
    let calls = 0
    registry.subscribe(() => (calls += 1))
    registry.open('support', 'https://support.example/')!.closed = true
    await clock.advance(POPUP_CLEANUP_MS)
    expect(calls).toBe(2)
  })
})
