/**
 * The full bet slip (issue 31 item 1): a bottom sheet over the page. The picks scroll in its
 * middle; its foot never scrolls away — what stops the slip (a moved price to accept, two picks of
 * one match, a suspended pick, prices being checked), the stake typed in the page's locale with
 * quick stakes in the account's currency, the total price and the potential win, and the one
 * button: Place, or "Accept changes" while a moved price waits for the punter (their odds-change
 * setting decides which moves wait), or "Log in to bet" for a guest. Loaded on first open.
 */
import { Suspense, useEffect, useId, useRef } from 'react'
import { useStore } from 'zustand'
import { errorMessageKey } from '../../core/gateway'
import { betslip, needsAcceptance, relatedPickIds, slipBlock } from '../../core/betslip'
import { quickStakes } from '../../core/quick-stakes'
import { LazyAmountField } from '../amount-field-lazy'
import { useFocusTrap } from '../popups/focus-trap'
import type { EngineRuntime } from '../runtime'
import type { SlipFigures } from './slip-figures'
import { slipBlockText } from './slip-texts'
import { SlipPickRow } from './SlipPickRow'

/** What every part of the sheet gets from the betslip node (never imported: see ./slip-parts.ts). */
interface Parts {
  runtime: EngineRuntime
  figures: SlipFigures
}

function SlipButton({ runtime, figures }: Parts) {
  const slip = useStore(betslip)
  const guest = useStore(runtime.stores.session, (s) => !s.accessToken)
  const block = slipBlock(slip.picks, figures.mode)
  if (guest)
    return (
      <button type="button" className="button betslip__main" data-testid="betslip-place" onClick={() => void runtime.run([{ do: 'nav.go', with: { to: '/login' } }])}>
        {runtime.t('betslip.loginToBet')}
      </button>
    )
  if (block === 'PRICES_CHANGED')
    return (
      <button type="button" className="button betslip__main" data-testid="betslip-accept" onClick={() => betslip.getState().acceptPrices()}>
        {runtime.t('betslip.accept')}
      </button>
    )
  return (
    <button type="button" className="button betslip__main" data-testid="betslip-place" disabled={block !== null || !slip.stake || slip.status === 'placing'} onClick={() => void runtime.run([{ do: 'betslip.place' }])}>
      {runtime.t(block === 'CHECKING' ? 'betslip.block.CHECKING' : 'betslip.place')}
    </button>
  )
}

function SlipStake({ runtime, figures, stakes }: Parts & { stakes?: readonly number[] }) {
  const stake = useStore(betslip, (s) => s.stake)
  const bounds = useStore(runtime.stores.site, (s) => s.bootstrap?.site.betStake)
  const tooLow = stake !== null && bounds && stake < bounds.minimum
  const tooHigh = stake !== null && bounds && stake > bounds.maximum
  return (
    <>
      <Suspense fallback={<span className="amount-field betslip__stake" />}>
        <LazyAmountField
          className="betslip__stake"
          label={runtime.t('betslip.stake')}
          value={stake}
          onAmount={(next) => betslip.getState().setStake(next)}
          locale={figures.locale}
          currency={figures.currency}
          displays={figures.displays}
          preview={(amount) => runtime.t('betslip.willBePlaced', { amount })}
          t={runtime.t}
          testId="betslip-stake"
        />
      </Suspense>
      {(tooLow || tooHigh) && (
        <p className="betslip__error" role="alert" data-testid="betslip-stake-bound">
          {runtime.t(errorMessageKey(tooLow ? 'STAKE_TOO_LOW' : 'STAKE_TOO_HIGH'), { limit: tooLow ? bounds.minimum : bounds.maximum, currency: figures.currency ?? '' })}
        </p>
      )}
      <div className="betslip__shortcuts" data-testid="betslip-quick-stakes">
        {quickStakes(bounds, stakes).map((amount) => (
          <button key={amount} type="button" className="button" data-variant="secondary" data-amount={amount} onClick={() => betslip.getState().setStake(amount)}>
            {figures.money(amount)}
          </button>
        ))}
      </div>
    </>
  )
}

function SlipFoot({ runtime, figures, stakes }: Parts & { stakes?: readonly number[] }) {
  const slip = useStore(betslip)
  const block = slipBlock(slip.picks, figures.mode)
  const notice = block === 'EMPTY' || block === null ? '' : slipBlockText(runtime.t, block)
  return (
    <div className="betslip-sheet__foot">
      <p className="betslip__notice" role="status" data-testid="betslip-notice" data-block={block ?? undefined} hidden={!notice}>
        {notice}
      </p>
      <SlipStake runtime={runtime} figures={figures} stakes={stakes} />
      <p className="betslip__total">
        <span>
          {runtime.t('betslip.totalOdds')}: <strong data-testid="betslip-total-odds">{figures.price}</strong>
        </span>
        <span>
          {runtime.t('betslip.potentialWin')}:{' '}
          <data value={figures.win} data-testid="betslip-potential-win">
            {figures.winText}
          </data>
        </span>
      </p>
      {slip.error && !block && (
        <p className="betslip__error" role="alert" data-testid="betslip-error">
          {runtime.t(slip.errorText ?? errorMessageKey(slip.error), slip.errorValues)}
        </p>
      )}
      <SlipButton runtime={runtime} figures={figures} />
    </div>
  )
}

export function SlipSheet({ runtime, figures, id, stakes, onClose }: Parts & { id: string; stakes?: readonly number[]; onClose: () => void }) {
  const picks = useStore(betslip, (s) => s.picks)
  const status = useStore(betslip, (s) => s.status)
  const titleId = useId()
  const ref = useRef<HTMLElement>(null)
  useFocusTrap(ref, true, true)
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose()
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose])
  const related = relatedPickIds(picks)
  return (
    <>
      <div className="betslip-sheet__backdrop" aria-hidden="true" onClick={onClose} />
      <section ref={ref} id={id} className="betslip-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} data-testid="betslip" data-status={status} data-kind={figures.kind} data-block={slipBlock(picks, figures.mode) ?? undefined}>
        <header className="betslip-sheet__head">
          <h2 className="betslip__title" id={titleId}>
            {runtime.t('betslip.title')} · {runtime.t(figures.kind === 'single' ? 'betslip.single' : 'betslip.accumulator')}
          </h2>
          {/* the close button first: focus lands on it when the sheet opens, never on Remove all */}
          <button type="button" className="betslip-sheet__close" data-testid="betslip-close" aria-label={runtime.t('betslip.close')} onClick={onClose}>
            ⌄
          </button>
          <button type="button" className="betslip-sheet__clear" data-testid="betslip-clear" onClick={() => betslip.getState().clear()}>
            {runtime.t('betslip.clearAll')}
          </button>
        </header>
        <ul className="betslip__picks">
          {picks.map((pick) => (
            <SlipPickRow key={pick.id} runtime={runtime} pick={pick} figures={figures} related={related.has(pick.id)} asking={needsAcceptance(pick, figures.mode)} />
          ))}
        </ul>
        <SlipFoot runtime={runtime} figures={figures} stakes={stakes} />
      </section>
    </>
  )
}
