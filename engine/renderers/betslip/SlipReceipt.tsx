/**
 * The receipt after a bet is placed (issue 31 item 1): a sheet with the bet's reference (its id,
 * what support asks for), every leg with the price taken, the stake, the total price and the
 * potential win, all in the bet's own currency (the account's) as the server answered, and three
 * ways on: keep the picks for another bet, clear them, or open My bets.
 */
import { useEffect, useId, useRef } from 'react'
import { useStore } from 'zustand'
import { betslip } from '../../core/betslip'
import { currencyCode, formatMoney } from '../../../kernel/core/format'
import { formatOdds } from '../../../kernel/core/odds'
import { useFocusTrap } from '../popups/focus-trap'
import type { EngineRuntime } from '../runtime'
import type { SlipFigures } from './slip-figures'

export function SlipReceipt({ runtime, figures }: { runtime: EngineRuntime; figures: SlipFigures }) {
  const placed = useStore(betslip, (s) => s.placed)
  const titleId = useId()
  const ref = useRef<HTMLElement>(null)
  useFocusTrap(ref, true, true)
  const close = () => betslip.getState().closeReceipt()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && betslip.getState().closeReceipt()
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  if (!placed) return null
  const money = (amount: number) => formatMoney(amount, figures.locale, currencyCode(placed.currency) ?? figures.currency, figures.displays)
  const legs = placed.legs ?? []
  return (
    <>
      <div className="betslip-sheet__backdrop" aria-hidden="true" onClick={close} />
      <section ref={ref} className="betslip-sheet betslip-receipt" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} data-testid="betslip-receipt" data-bet-id={placed.betId}>
        <header className="betslip-sheet__head">
          <h2 className="betslip__title" id={titleId}>
            ✓ {runtime.t('betslip.receipt.title')} · {runtime.t(legs.length > 1 ? 'betslip.accumulator' : 'betslip.single')}
          </h2>
        </header>
        <p className="betslip-receipt__reference">
          {runtime.t('betslip.receipt.reference')}: <strong data-testid="betslip-receipt-reference">{placed.betId}</strong>
        </p>
        <ul className="betslip__picks">
          {legs.map((leg) => (
            <li key={leg.selectionId} className="betslip__pick" data-testid="betslip-receipt-leg" data-selection-id={leg.selectionId}>
              <span className="betslip__what">
                <span className="betslip__outcome">{leg.label}</span>
                {leg.event && <span className="betslip__event">{leg.event}</span>}
              </span>
              <span className="betslip__price">{figures.odds(leg.price)}</span>
            </li>
          ))}
        </ul>
        <dl className="betslip-receipt__figures">
          <dt>{runtime.t('betslip.stake')}</dt>
          <dd data-testid="betslip-receipt-stake">{money(placed.stake)}</dd>
          <dt>{runtime.t('betslip.totalOdds')}</dt>
          <dd data-testid="betslip-receipt-price">{formatOdds(placed.price, figures.oddsType, figures.locale, legs.length > 1)}</dd>
          <dt>{runtime.t('betslip.potentialWin')}</dt>
          <dd data-testid="betslip-receipt-win">{money(placed.potentialWin)}</dd>
        </dl>
        <div className="betslip-receipt__actions">
          <button type="button" className="button" data-variant="secondary" data-testid="betslip-keep" onClick={() => betslip.getState().keepPicks()}>
            {runtime.t('betslip.receipt.keep')}
          </button>
          <button type="button" className="button" data-variant="secondary" data-testid="betslip-receipt-clear" onClick={close}>
            {runtime.t('betslip.receipt.clear')}
          </button>
          <button type="button" className="button" data-testid="betslip-my-bets" onClick={() => (close(), void runtime.run([{ do: 'nav.go', with: { to: '/account/bets' } }]))}>
            {runtime.t('betslip.receipt.myBets')}
          </button>
        </div>
      </section>
    </>
  )
}
