/**
 * A changed price re-renders only its own node (issue 33 item 3): a live line of events, each with
 * its scoreboard and its main market, rendered with react-dom in jsdom, every node inside a React
 * Profiler of its own; one socket message moves one price. The oracle is React's own commit
 * record: the Profiler of that price's market commits once, no other node's commits at all (the
 * other markets, every scoreboard — the moved price's own event's too, as its score, state and
 * clock did not change).
 */
import { act, Profiler, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import { useJsdom } from './jsdom'
import { createEngineStores } from '../../../engine/core/stores'
import { RuntimeProvider, type EngineRuntime } from '../../../engine/renderers/runtime'
import { MarketNode } from '../../../engine/renderers/nodes/MarketNode'
import { ScoreboardNode } from '../../../engine/renderers/nodes/ScoreboardNode'
import { applyEventMessage, clearLive } from '../../../engine/realtime/live-store'
import type { NodeOf } from '../../../kernel/documents/types'

useJsdom()
afterEach(() => clearLive())

const EVENTS = 20
const selectionsOf = (event: number) => [1, 2, 3].map((k) => ({ id: `e${event}-s${k}`, label: String(k), price: 1.5 + k / 2, status: 'OPEN' }))
// no `state` (a scoreboard follows only a live or upcoming event) and no event on the markets: the
// nodes open no socket here; the live store is filled by hand, as the socket fills it
const eventOf = (event: number) => ({ id: `e${event}`, treeId: 1, home: `Home ${event}`, away: `Away ${event}`, score: [0, 0] })

/** Commits per node (`market e3`, `scoreboard e3`), as React's Profiler reports them. */
function mount() {
  const commits = new Map<string, number>()
  const profiled = (id: string, child: ReactNode) => (
    <Profiler key={id} id={id} onRender={(name) => commits.set(name, (commits.get(name) ?? 0) + 1)}>
      {child}
    </Profiler>
  )
  const runtime = { stores: createEngineStores({ locale: 'en' }), t: (key: string) => key, run: async () => undefined, development: false } as unknown as EngineRuntime
  const container = document.createElement('div')
  document.body.append(container)
  const root: Root = createRoot(container)
  const line = Array.from({ length: EVENTS }, (_, i) => [
    profiled(`scoreboard e${i}`, <ScoreboardNode node={{ type: 'scoreboard', event: eventOf(i) } as unknown as NodeOf<'scoreboard'>} />),
    profiled(`market e${i}`, <MarketNode node={{ type: 'market', selections: selectionsOf(i) } as unknown as NodeOf<'market'>} />),
  ])
  act(() => root.render(<RuntimeProvider runtime={runtime}>{line}</RuntimeProvider>))
  const price = (id: string) => container.querySelector(`button[data-selection-id="${id}"] .market-odds__price`)?.textContent
  return { commits, price, unmount: () => act(() => root.unmount()) }
}

describe('a live price change re-renders only its own node', () => {
  it('one moved price: its market commits once, no other market and no scoreboard commits', () => {
    const page = mount()
    // every event has been seen on the socket once (its snapshot), as on a live page
    act(() => {
      for (let i = 0; i < EVENTS; i++) applyEventMessage({ type: 'EVENT', eventId: `e${i}`, version: 1, event: { score: [0, 0], markets: [{ selections: selectionsOf(i) }] } })
    })
    page.commits.clear()

    act(() => applyEventMessage({ type: 'EVENT_UPDATE', eventId: 'e7', version: 2, selections: [{ id: 'e7-s2', price: 4.2, status: 'OPEN', previous: 2.5 }] }))

    expect(page.price('e7-s2')).toBe('4.20▲')
    expect(Object.fromEntries(page.commits)).toEqual({ 'market e7': 1 })
    page.unmount()
  })

  it('a score change re-renders that event\'s scoreboard and no market', () => {
    const page = mount()
    act(() => applyEventMessage({ type: 'EVENT', eventId: 'e4', version: 1, event: { score: [0, 0], markets: [{ selections: selectionsOf(4) }] } }))
    page.commits.clear()
    act(() => applyEventMessage({ type: 'EVENT_UPDATE', eventId: 'e4', version: 2, score: [1, 0] }))
    expect(Object.fromEntries(page.commits)).toEqual({ 'scoreboard e4': 1 })
    page.unmount()
  })
})
