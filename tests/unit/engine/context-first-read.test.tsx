/**
 * A node's context is current when it first reads a root in a render no store change caused
 * (issue 12, the VIP app icon): the heartbeat sets the punter and the settings, and only later the
 * header document arrives and `settings.showVipStatusAppIcon && user.vip` is evaluated for the
 * first time. That render must see the punter's values, not the guest's from before the heartbeat.
 * Rendered with react-dom in jsdom, the way the header uses `useEvaluate`.
 */
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import { useJsdom } from './jsdom'
import { createEngineStores, type UserData } from '../../../engine/core/stores'
import { contextTracker, RuntimeProvider, useEvaluate, type EngineRuntime } from '../../../engine/renderers/runtime'
import { evaluateCondition } from '../../../engine/core/context'
import { cel } from './helpers'

useJsdom()

/** As the header documents carry it (schemas/headers/*.json appIcons), compiled as served. */
const VIP_ICON = cel('settings.showVipStatusAppIcon && user.vip')

/** Evaluates the VIP condition only once "the header document" has arrived, as useAppIcon does. */
function AppIcon({ documentLoaded }: { documentLoaded: boolean }) {
  const { when } = useEvaluate()
  return <span>{documentLoaded && when(VIP_ICON) ? 'vip' : 'default'}</span>
}

function mount() {
  const stores = createEngineStores({ locale: 'en' })
  const runtime = { stores, t: (key: string) => key } as unknown as EngineRuntime
  const container = document.createElement('div')
  document.body.append(container)
  const root: Root = createRoot(container)
  const render = (documentLoaded: boolean) =>
    act(() =>
      root.render(
        <RuntimeProvider runtime={runtime}>
          <AppIcon documentLoaded={documentLoaded} />
        </RuntimeProvider>,
      ),
    )
  return { stores, render, icon: () => container.textContent, unmount: () => act(() => root.unmount()) }
}

describe('a root first read after the stores changed is read fresh', () => {
  it('the heartbeat before the header document: the VIP icon shows once the document arrives', async () => {
    const page = mount()
    await page.render(false)
    expect(page.icon()).toBe('default')
    // the heartbeat: a VIP punter who shows the VIP app icon (no node has read user or settings yet)
    await act(() => {
      page.stores.user.getState().setUser({ vip: true } as UserData)
      page.stores.settings.getState().setServerSettings({ showVipStatusAppIcon: true })
    })
    // the header document arrives: the condition is evaluated for the first time
    await page.render(true)
    expect(page.icon()).toBe('vip')
    await page.unmount()
  })

  it('a setting turned off later still turns the icon off (the root stays tracked)', async () => {
    const page = mount()
    page.stores.user.getState().setUser({ vip: true } as UserData)
    page.stores.settings.getState().setServerSettings({ showVipStatusAppIcon: true })
    await page.render(true)
    expect(page.icon()).toBe('vip')
    await act(() => page.stores.settings.getState().setServerSettings({ showVipStatusAppIcon: false }))
    expect(page.icon()).toBe('default')
    await page.unmount()
  })

  it('a store changed while no node is subscribed yet (between the first render and the subscribing effect) still makes the context stale', () => {
    const stores = createEngineStores({ locale: 'en' })
    const tracker = contextTracker(stores, undefined, undefined)
    // the first render reads the settings (false: `user` is never read, the && stops there)
    expect(evaluateCondition(VIP_ICON, tracker.get())).toBe(false)
    // the heartbeat answers before React has subscribed: nobody is listening
    stores.user.getState().setUser({ vip: true } as UserData)
    stores.settings.getState().setServerSettings({ showVipStatusAppIcon: true })
    expect(tracker.stale()).toBe(true)
    expect(evaluateCondition(VIP_ICON, tracker.get())).toBe(true)
    expect(tracker.stale()).toBe(false)
  })
})
