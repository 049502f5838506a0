/**
 * One pick in the full bet slip: the outcome in full (it wraps, never cut, so the punter always
 * sees what they picked), the match under it (cut if it must be), the price now in the punter's
 * odds format with the move shown as their indicator setting says (ARROW: ▲/▼ beside it,
 * TEXT_COLOR: the price coloured, OFF: nothing), the agreed price struck through while a new one
 * waits to be accepted, and why the pick stops the slip (same match, suspended, gone).
 */
import { useEffect, useState } from 'react'
import { betslip, currentPrice, type PickInactive, type SlipPick } from '../../core/betslip'
import type { EngineRuntime } from '../runtime'
import type { SlipFigures } from './slip-figures'

/** How long a move keeps its indicator (as on the price buttons). */
const INDICATOR_MS = 4000

function useFreshMove(pick: SlipPick): 'up' | 'down' | undefined {
  const [shown, setShown] = useState<'up' | 'down' | undefined>(undefined)
  useEffect(() => {
    if (!pick.moves || !pick.move) return
    setShown(pick.move)
    const timer = setTimeout(() => setShown(undefined), INDICATOR_MS)
    return () => clearTimeout(timer)
  }, [pick.moves, pick.move])
  return shown
}

function inactiveText(t: (key: string) => string, inactive: PickInactive): string {
  if (inactive === 'SUSPENDED') return t('betslip.inactive.SUSPENDED')
  if (inactive === 'SETTLED') return t('betslip.inactive.SETTLED')
  return t('betslip.inactive.UNAVAILABLE')
}

export function SlipPickRow({ runtime, pick, figures, related, asking }: { runtime: EngineRuntime; pick: SlipPick; figures: SlipFigures; related: boolean; asking: boolean }) {
  const fresh = useFreshMove(pick)
  const now = currentPrice(pick)
  // while a new price waits for the punter, its direction against the agreed one stays shown
  const move = asking && now !== pick.price ? (now > pick.price ? 'up' : 'down') : fresh
  const shownMove = figures.indicator === 'OFF' ? undefined : move
  return (
    <li className="betslip__pick" data-testid="betslip-pick" data-selection-id={pick.id} data-inactive={pick.inactive} data-related={related || undefined} data-asking={asking || undefined}>
      <span className="betslip__what">
        <span className="betslip__outcome">{pick.label}</span>
        {pick.event && <span className="betslip__event">{pick.event}</span>}
        {related && (
          <span className="betslip__flag" data-testid="betslip-related">
            {runtime.t('betslip.sameMatch')}
          </span>
        )}
        {pick.inactive && (
          <span className="betslip__inactive" role="status">
            {inactiveText(runtime.t, pick.inactive)}
          </span>
        )}
      </span>
      <span className="betslip__price" data-testid="betslip-price" data-price={now} data-move={shownMove} data-indicator={figures.indicator}>
        {asking && now !== pick.price && (
          <s className="betslip__was" data-testid="betslip-was">
            {figures.odds(pick.price)}
          </s>
        )}
        <span className="betslip__now">{figures.odds(now)}</span>
        {figures.indicator === 'ARROW' && shownMove && (
          <span className="betslip__arrow" aria-label={runtime.t(shownMove === 'up' ? 'betslip.priceUp' : 'betslip.priceDown')}>
            {shownMove === 'up' ? '▲' : '▼'}
          </span>
        )}
      </span>
      <button type="button" className="betslip__remove" aria-label={runtime.t('betslip.remove')} onClick={() => betslip.getState().remove(pick.id)}>
        ×
      </button>
    </li>
  )
}
