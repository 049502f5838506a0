/**
 * The bet slip collapsed (issue 31 item 1): a bar fixed at the bottom of a betting page, one tap
 * from the full slip. It says how many picks, single or accumulator, the combined price and —
 * once there is a stake — the potential win, and whether something waits for the punter (a moved
 * price to accept, a suspended pick, two picks of one match). Small and in the first-load script;
 * the full slip loads on demand.
 */
import { useStore } from 'zustand'
import { betslip, slipBlock } from '../../core/betslip'
import { useRuntime } from '../runtime'
import type { SlipFigures } from './slip-figures'
import { slipBlockText } from './slip-texts'

export function SlipBar({ figures, onOpen, sheetId }: { figures: SlipFigures; onOpen: () => void; sheetId: string }) {
  const runtime = useRuntime()
  const picks = useStore(betslip, (s) => s.picks)
  const stake = useStore(betslip, (s) => s.stake)
  const block = slipBlock(picks, figures.mode)
  const attention = block === 'PRICES_CHANGED' || block === 'RELATED' || block === 'INACTIVE'
  return (
    <button type="button" className="betslip-bar" data-testid="betslip-bar" aria-expanded="false" aria-controls={sheetId} data-attention={attention || undefined} onClick={onOpen}>
      <span className="betslip-bar__count" aria-hidden="true">
        {picks.length}
      </span>
      <span className="betslip-bar__summary">
        <span className="betslip-bar__title">
          {runtime.t('betslip.bar.picks', { count: picks.length })} · {runtime.t(figures.kind === 'single' ? 'betslip.single' : 'betslip.accumulator')}
        </span>
        <span className="betslip-bar__detail">
          {attention ? slipBlockText(runtime.t, block) : `@ ${figures.price}${stake ? ` · ${runtime.t('betslip.potentialWin')} ${figures.winText}` : ''}`}
        </span>
      </span>
      <span className="betslip-bar__open">{runtime.t('betslip.open')}</span>
    </button>
  )
}
