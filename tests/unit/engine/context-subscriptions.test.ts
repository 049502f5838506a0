/**
 * First load (issue 10): a node that evaluates expressions re-renders only when a store behind
 * what it has read changes. The node's context is an external store (`contextTracker`, what
 * `useEvaluationContext` hands to useSyncExternalStore): a new snapshot means a re-render.
 */
import { describe, expect, it } from 'vitest'
import { createEngineStores } from '../../../engine/core/stores'
import { contextTracker } from '../../../engine/renderers/runtime'

function subscribed() {
  const stores = createEngineStores({ locale: 'en' })
  const tracker = contextTracker(stores, undefined, undefined)
  let notified = 0
  const stop = tracker.subscribe(() => notified++)
  return { stores, tracker, stop, notifications: () => notified }
}

describe("a node's context changes only with the stores it reads", () => {
  it('a node that read the session gets a new context when the session changes', () => {
    const { stores, tracker, stop } = subscribed()
    const first = tracker.get()
    expect(first.session.loggedIn).toBe(false)
    stores.session.getState().setStatus('restoring')
    const next = tracker.get()
    expect(next).not.toBe(first)
    expect(next.session.status).toBe('restoring')
    stop()
  })

  it('a popup opening (ui store) or screen data the node never read keeps its context', () => {
    const { stores, tracker, stop, notifications } = subscribed()
    const first = tracker.get()
    void first.session.loggedIn
    stores.ui.getState().openPopup({ id: 'login' })
    stores.screenData.getState().setData('games', [1, 2, 3])
    expect(notifications()).toBe(2)
    expect(tracker.get()).toBe(first)
    stop()
  })

  it('once the node reads the screen data, a change to it gives a new context with the new value', () => {
    const { stores, tracker, stop } = subscribed()
    const first = tracker.get()
    expect(first.data.games).toBeUndefined()
    expect(tracker.get()).toBe(first) // reading a root after the render never forces a second render
    stores.screenData.getState().setData('games', [1])
    expect(tracker.get().data.games).toEqual([1])
    stop()
  })

  it('a change to the site (locale, bootstrap) reaches every node, read or not', () => {
    const { stores, tracker, stop } = subscribed()
    const first = tracker.get()
    stores.site.getState().setLocale('ru')
    expect(tracker.get()).not.toBe(first)
    expect(tracker.get().site.locale).toBe('ru')
    stop()
  })

  it('the context still reads like a plain object (spread, keys, JSON)', () => {
    const { tracker, stop } = subscribed()
    const context = tracker.get()
    expect(Object.keys(context)).toEqual(expect.arrayContaining(['site', 'session', 'user', 'data', 'route', 'now']))
    expect({ ...context }.session.loggedIn).toBe(false)
    expect(JSON.parse(JSON.stringify(context)).session.status).toBe('guest')
    stop()
  })
})
