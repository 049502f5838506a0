/**
 * The bet slip (issue 14 item 5, node kind `betslip`): the picked selections with their prices in
 * the punter's odds format, a stake typed in the page's locale and shown in the account's currency
 * before Place (../amount-field.tsx, loaded with the first pick), the total odds and the potential win,
 * and the button that places a single (one pick) or an accumulator (several). Hidden while empty;
 * after a placement it says so until the next pick. Placing runs `betslip.place` (the server
 * decides); a guest is sent to log in.
 */
import { potentialWinMinor } from '../../core/payout'
import { Suspense } from 'react'
import { useStore } from 'zustand'
import { errorMessageKey } from '../../core/gateway'
import { betslip, combinedPrice } from '../../core/betslip'
import { currencyCode, formatMoney } from '../../core/format'
import { formatOdds, isOddsType } from '../../core/odds'
import type { NodeOf } from '../../documents/types'
import { LazyAmountField } from '../amount-field-lazy'
import { usePunterSocket } from '../punter-socket'
import { useEvaluate, useRuntime } from '../runtime'

const DEFAULT_STAKES = [1, 5, 10, 25]

function Picks({ format, locale }: { format: string; locale: string }) {
  const { text } = useEvaluate()
  const picks = useStore(betslip, (s) => s.picks)
  return (
    <ul className="betslip__picks">
      {picks.map((pick) => (
        <li key={pick.id} className="betslip__pick" data-selection-id={pick.id} data-inactive={pick.inactive}>
          <span className="betslip__label">{pick.label}</span>
          {pick.inactive && <span className="betslip__inactive" role="status">{text(`betslip.inactive.${pick.inactive}`)}</span>}
          <span className="betslip__price">{formatOdds(pick.price, isOddsType(format) ? format : 'decimal', locale)}</span>
          <button type="button" className="betslip__remove" aria-label={text('betslip.remove')} onClick={() => betslip.getState().remove(pick.id)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  )
}

function slipPotentialWin(stakeMinor: number, prices: number[]): number {
  try {
    return Number(potentialWinMinor(stakeMinor, prices)) / 100
  } catch {
    return 0 // a price the feed never sends (more than three decimals): no figure rather than a wrong one
  }
}

export function BetslipNode({ node }: { node: NodeOf<'betslip'> }) {
  const runtime = useRuntime()
  const { text, ctx } = useEvaluate()
  usePunterSocket()
  const slip = useStore(betslip)
  const oddsType = useStore(runtime.stores.settings, (s) => s.server.oddsType)
  const currency = currencyCode(ctx.user.currency)
  const locale = ctx.site.locale
  if (slip.picks.length === 0)
    return slip.status === 'placed' && slip.placed ? (
      <p className="betslip__placed" role="status" data-testid="betslip-placed">
        {text('betslip.placed')} {formatMoney(slip.placed.stake, locale, currencyCode(slip.placed.currency) ?? currency)} @ {slip.placed.price}
      </p>
    ) : null
  const price = combinedPrice(slip.picks)
  // exactly as the server reckons, shows and pays it (engine/core/payout.ts): every leg's price, rounded down once
  const potentialWin = slip.stake === null ? 0 : slipPotentialWin(Math.round(slip.stake * 100), slip.picks.map((pick) => pick.price))
  const guest = ctx.session.status === 'guest'
  return (
    <section className="betslip" aria-label={text('betslip.title')} data-testid={node.testId ?? 'betslip'} data-status={slip.status}>
      <h2 className="betslip__title">
        {text('betslip.title')} · {text(slip.picks.length === 1 ? 'betslip.single' : 'betslip.accumulator')}
      </h2>
      <Picks format={oddsType} locale={locale} />
      <Suspense fallback={null}>
        <LazyAmountField
          className="betslip__stake"
          label={text('betslip.stake')}
          value={slip.stake}
          onAmount={(stake) => betslip.getState().setStake(stake)}
          locale={locale}
          currency={currency}
          preview={(amount) => runtime.t('betslip.willBePlaced', { amount })}
          t={runtime.t}
          testId="betslip-stake"
        />
      </Suspense>
      <div className="betslip__shortcuts">
        {(node.stakes ?? DEFAULT_STAKES).map((stake) => (
          <button key={stake} type="button" className="button" data-variant="secondary" onClick={() => betslip.getState().setStake(stake)}>
            {formatMoney(stake, locale, currency)}
          </button>
        ))}
      </div>
      <p className="betslip__total">
        {text('betslip.totalOdds')}: {formatOdds(price, isOddsType(oddsType) ? oddsType : 'decimal', locale)} · {text('betslip.potentialWin')}: <data value={potentialWin} data-testid="betslip-potential-win">{formatMoney(potentialWin, locale, currency)}</data>
      </p>
      {slip.error && (
        <p className="betslip__error" role="alert">
          {runtime.t(slip.errorText ?? errorMessageKey(slip.error), slip.errorValues)}
        </p>
      )}
      <button
        type="button"
        className="button"
        data-testid="betslip-place"
        disabled={!guest && (!slip.stake || slip.status === 'placing')}
        onClick={() => void runtime.run(guest ? [{ do: 'nav.go', with: { to: '/login' } }] : [{ do: 'betslip.place' }])}
      >
        {text(guest ? 'betslip.loginToBet' : 'betslip.place')}
      </button>
    </section>
  )
}
