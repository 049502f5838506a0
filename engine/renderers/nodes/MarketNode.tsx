/**
 * Price buttons of a market (issue 14, node kind `market`): each selection's label and price in
 * the punter's odds format (`formatOdds`), kept live over the socket. The node follows its event — SHORT (a line's
 * main market, as a dynamic subscription) or FULL (an event page) — through the socket manager,
 * which loads on demand the first time a page shows live prices. A moved price shows the
 * indicator the punter chose (priceChangeNotificationViewType): ARROW, TEXT_COLOR or OFF.
 * A suspended or settled selection is shown but cannot be picked; picking runs `actions` with
 * the selection as `item` (the bet slip's entry point). Every price picks (issue 31): a market
 * without `actions` adds the selection to the bet slip, or takes it out again (`betslip.toggle`).
 */
import { useEffect, useState, useSyncExternalStore } from 'react'
import { useStore } from 'zustand'
import type { NodeOf } from '../../../kernel/documents/types'
import { formatOdds, isOddsType } from '../../../kernel/core/odds'
import { betslip } from '../../core/betslip'
import { liveSelection, subscribeLive } from '../../realtime/live-store'
import { useEvaluate, useRuntime } from '../runtime'
import { useFollowEvent } from '../live-follow'

interface SelectionItem {
  id: string
  label: string
  price: number
  status: string
}

/** What a tap on a price does when the document says nothing else: the bet slip's toggle. */
const pickInSlip = (shown: SelectionItem) => [{ do: 'betslip.toggle', with: { selection: shown } }]

/** How long a moved price keeps its indicator. */
const INDICATOR_MS = 4000

const asSelections = (value: unknown): SelectionItem[] =>
  Array.isArray(value) ? value.filter((s): s is SelectionItem => Boolean(s) && typeof s.id === 'string' && typeof s.price === 'number') : []

function asEvent(value: unknown): { id: string; treeId: number } | undefined {
  const event = value as { id?: unknown; treeId?: unknown } | null
  return event && typeof event.id === 'string' && typeof event.treeId === 'number' ? { id: event.id, treeId: event.treeId } : undefined
}

function useLiveSelection(id: string) {
  return useSyncExternalStore(
    (listener) => subscribeLive(id, listener),
    () => liveSelection(id),
    () => undefined,
  )
}

/** The direction of the last move while it is fresh (the indicator fades after INDICATOR_MS).
 * Derived in the render a move causes (one commit per move): only its fading sets state. */
function useFreshMove(direction: 'up' | 'down' | undefined, moves: number): 'up' | 'down' | undefined {
  const [faded, setFaded] = useState(0)
  useEffect(() => {
    if (!moves || !direction) return
    const timer = setTimeout(() => setFaded(moves), INDICATOR_MS)
    return () => clearTimeout(timer)
  }, [moves, direction])
  return moves && faded !== moves ? direction : undefined
}

/** One price. A tap picks the selection as shown now (the live price and status, not the ones the
 * document was loaded with), so the slip asks the server for the price the punter saw. */
function OddsButton({ selection, onPick }: { selection: SelectionItem; onPick?: (shown: SelectionItem) => void }) {
  const runtime = useRuntime()
  const oddsType = useStore(runtime.stores.settings, (s) => s.server.oddsType)
  const indicator = useStore(runtime.stores.settings, (s) => s.server.priceChangeNotificationViewType)
  const locale = useStore(runtime.stores.site, (s) => s.locale)
  const live = useLiveSelection(selection.id)
  const price = live?.price ?? selection.price
  const status = live?.status ?? selection.status
  const move = useFreshMove(live?.direction, live?.moves ?? 0)
  const picked = useStore(betslip, (s) => s.picks.some((p) => p.id === selection.id))
  const shownMove = indicator === 'OFF' ? undefined : move
  const text = formatOdds(price, isOddsType(oddsType) ? oddsType : 'decimal', locale)
  return (
    <li>
      <button
        type="button"
        className="market-odds__button"
        data-selection-id={selection.id}
        data-status={status}
        data-move={shownMove}
        data-indicator={indicator}
        data-price={price}
        disabled={status !== 'OPEN'}
        aria-pressed={onPick ? picked : undefined}
        onClick={onPick ? () => onPick({ ...selection, price, status }) : undefined}
      >
        <span className="market-odds__label">{selection.label}</span>
        <span className="market-odds__price">
          {text}
          {indicator === 'ARROW' && shownMove && (
            <span className="market-odds__arrow" aria-hidden="true">
              {shownMove === 'up' ? '▲' : '▼'}
            </span>
          )}
        </span>
      </button>
    </li>
  )
}

export function MarketNode({ node }: { node: NodeOf<'market'> }) {
  const runtime = useRuntime()
  const { value } = useEvaluate()
  const selections = asSelections(value(node.selections))
  const event = asEvent(value(node.event))
  const state = (value(node.event) as { state?: string } | null)?.state
  useFollowEvent(event, node.displayMode === 'FULL' ? 'FULL' : 'SHORT', state !== 'finished')
  if (selections.length === 0) return null
  return (
    <ul className="market-odds" data-testid={node.testId} data-count={selections.length}>
      {selections.map((selection) => (
        <OddsButton key={selection.id} selection={selection} onPick={(shown) => void runtime.run(node.actions ?? pickInSlip(shown), { item: shown })} />
      ))}
    </ul>
  )
}
