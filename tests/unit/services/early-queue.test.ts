/**
 * The services chunk loads late (issues 18 and 10): on the punter's first interaction or an idle
 * period 5 s after the load event, whichever comes first. Nothing raised before it loads is lost:
 * the in-page stub keeps screens and uncaught errors and hands them over, and an error raised
 * before the chunk loaded is still sent as an error report. A fake window and a manual clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'zustand/vanilla'
import { createServicesStub, EARLY_RECORDS_CAP, onFirstInteractionOrLater, SERVICES_LATER_MS, type LoadMoment } from '../../../engine/services/stub'
import { startServices } from '../../../engine/services/browser'
import { ERRORS_PATH } from '../../../engine/services/error-envelope'
import type { ActionEnvironment } from '../../../engine/actions/registry'
import type { ConsentState } from '../../../engine/core/consent'

const screen = (target: EventTarget, name: string) => target.dispatchEvent(new CustomEvent('parlay:screen-rendered', { detail: { screen: name, key: name, path: `/${name}` } }))
const uncaught = (target: EventTarget, error: Error) => target.dispatchEvent(Object.assign(new Event('error'), { error, message: error.message }))
const rejected = (target: EventTarget, reason: unknown) => target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }))

describe('the in-page stub keeps what happens before the services chunk loads', () => {
  it('screens, uncaught errors and rejected promises are handed over once, oldest first', () => {
    const page = new EventTarget()
    const stub = createServicesStub(page)
    screen(page, 'casino-lobby')
    uncaught(page, new TypeError('x is not a function'))
    rejected(page, new RangeError('bad range'))
    screen(page, 'promotions')
    expect(stub.handOver()).toEqual([
      { type: 'screen', detail: { screen: 'casino-lobby', key: 'casino-lobby', path: '/casino-lobby' } },
      { type: 'error', name: 'TypeError', message: 'x is not a function', stack: expect.any(String) },
      { type: 'rejection', name: 'RangeError', message: 'bad range', stack: expect.any(String) },
      { type: 'screen', detail: { screen: 'promotions', key: 'promotions', path: '/promotions' } },
    ])
    expect(stub.handOver()).toEqual([])
  })

  it('after the hand-over the stub keeps nothing more (the chunk listens itself)', () => {
    const page = new EventTarget()
    const stub = createServicesStub(page)
    stub.handOver()
    screen(page, 'casino-lobby')
    uncaught(page, new Error('late'))
    expect(stub.handOver()).toEqual([])
  })

  it(`at most ${EARLY_RECORDS_CAP} records wait: the oldest are dropped first`, () => {
    const page = new EventTarget()
    const stub = createServicesStub(page)
    for (let i = 0; i < EARLY_RECORDS_CAP + 3; i++) screen(page, `s${i}`)
    const kept = stub.handOver()
    expect(kept).toHaveLength(EARLY_RECORDS_CAP)
    expect(kept[0]).toMatchObject({ detail: { screen: 's3' } })
  })
})

function clockedPage() {
  const target = new EventTarget()
  let now = 0
  const timers: Array<{ at: number; task: () => void }> = []
  const idles: Array<() => void> = []
  const settledCallbacks: Array<() => void> = []
  const moment: LoadMoment = {
    target,
    settled: (then) => void settledCallbacks.push(then),
    setTimeout: (task, ms) => timers.push({ at: now + ms, task }),
    idle: (task) => idles.push(task),
  }
  return {
    moment,
    target,
    settle: () => settledCallbacks.splice(0).forEach((then) => then()),
    advance(ms: number) {
      now += ms
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1)
        timer.task()
      }
    },
    runIdle: () => idles.splice(0).forEach((task) => task()),
  }
}

describe('the services chunk starts on the first interaction or a later idle, whichever comes first', () => {
  for (const interaction of ['pointerdown', 'keydown', 'scroll']) {
    it(`a ${interaction} starts it at once, and only once`, () => {
      const page = clockedPage()
      page.settle()
      const start = vi.fn()
      onFirstInteractionOrLater(page.moment, start)
      page.target.dispatchEvent(new Event(interaction))
      page.target.dispatchEvent(new Event('pointerdown'))
      page.advance(SERVICES_LATER_MS)
      page.runIdle()
      expect(start).toHaveBeenCalledTimes(1)
    })
  }

  it(`without an interaction it starts at the first idle period ${SERVICES_LATER_MS / 1000} s after the page settled (loaded, first screen rendered), not before`, () => {
    const page = clockedPage()
    const start = vi.fn()
    onFirstInteractionOrLater(page.moment, start)
    page.advance(SERVICES_LATER_MS * 2)
    page.runIdle()
    expect(start).not.toHaveBeenCalled()
    page.settle()
    page.advance(SERVICES_LATER_MS - 1)
    page.runIdle()
    expect(start).not.toHaveBeenCalled()
    page.advance(1)
    expect(start).not.toHaveBeenCalled()
    page.runIdle()
    expect(start).toHaveBeenCalledTimes(1)
    page.target.dispatchEvent(new Event('keydown'))
    expect(start).toHaveBeenCalledTimes(1)
  })
})

describe('events raised before the chunk loads are flushed when it starts', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('an error raised before the chunk loaded is still sent to the error endpoint', async () => {
    const page = Object.assign(new EventTarget(), { location: { pathname: '/casino/lobby', href: 'http://site.test/casino/lobby' } })
    const sent: Array<{ url: string; body: string }> = []
    vi.stubGlobal('window', page)
    vi.stubGlobal('document', { documentElement: { dataset: {} } })
    const stub = createServicesStub(page)
    uncaught(page, new TypeError('thrown before the services loaded'))
    const state = (value: unknown) => ({ getState: () => value, subscribe: () => () => {} })
    const gateway = {
      call: async (_method: string, url: string, body: string) => {
        sent.push({ url, body })
        return { ok: true, value: null }
      },
    }
    const env = {
      gateway,
      stores: { site: state({ bootstrap: { remoteConfig: {} } }), session: state({ sessionHash: null }), user: state({ data: null }), settings: state({ server: {} }) },
    } as unknown as ActionEnvironment
    const consent = createStore<ConsentState>(() => ({ choice: null }) as ConsentState)
    startServices(env, '1.0.0', consent, stub.handOver())
    expect(sent.map((s) => s.url)).toEqual([ERRORS_PATH])
    expect(sent[0].body).toContain('thrown before the services loaded')
  })
})
