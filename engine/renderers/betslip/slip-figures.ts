/**
 * The figures the bet slip shows in its bar and its sheet, from one place: the kind of bet, the
 * combined price and the potential win at the prices the bet would be placed at now (exactly as
 * the server reckons it, kernel/core/payout.ts), in the punter's odds format and the account's
 * currency (a guest sees the site's), and the punter's odds-change setting and indicator. The
 * betslip node (first-load script) computes them and hands them to the lazy sheet and receipt.
 */
import { useStore } from 'zustand'
import { accountCurrency } from '../../core/context'
import { betslip, combinedPrice, currentPrice, type SlipPick } from '../../core/betslip'
import { currencyCode, formatMoney, type CurrencyDisplays } from '../../../kernel/core/format'
import { formatOdds, isBetPlacingMode, isOddsType, type BetPlacingMode, type OddsType } from '../../../kernel/core/odds'
import { potentialWinMinor } from '../../../kernel/core/payout'
import { useRuntime } from '../runtime'

export interface SlipFigures {
  locale: string
  currency: string | undefined
  /** The site's currencyDisplay (how amounts in each currency are written). */
  displays: CurrencyDisplays | undefined
  oddsType: OddsType
  mode: BetPlacingMode
  /** priceChangeNotificationViewType: ARROW, TEXT_COLOR or OFF. */
  indicator: string
  kind: 'single' | 'accumulator'
  /** The combined price, printed in the punter's odds format (an accumulator's fraction exact). */
  price: string
  /** The potential win in major units (0 without a stake), and printed. */
  win: number
  winText: string
  odds(price: number): string
  money(amount: number): string
}

/** stake × the picks' current prices, rounded down to the cent; 0 when a price is not one the feed sends. */
function potentialWin(stake: number | null, picks: readonly SlipPick[]): number {
  if (stake === null || picks.length === 0) return 0
  try {
    return Number(potentialWinMinor(Math.round(stake * 100), picks.map(currentPrice))) / 100
  } catch {
    return 0
  }
}

export function useSlipFigures(): SlipFigures {
  const runtime = useRuntime()
  const picks = useStore(betslip, (s) => s.picks)
  const stake = useStore(betslip, (s) => s.stake)
  const settings = useStore(runtime.stores.settings, (s) => s.server)
  const locale = useStore(runtime.stores.site, (s) => s.locale)
  const siteCurrency = useStore(runtime.stores.site, (s) => s.bootstrap?.site.currency)
  const userData = useStore(runtime.stores.user, (s) => s.data)
  const guest = useStore(runtime.stores.session, (s) => !s.accessToken)
  const currency = guest ? currencyCode(siteCurrency) : currencyCode(accountCurrency(userData))
  const oddsType = isOddsType(settings.oddsType) ? settings.oddsType : 'decimal'
  const odds = (price: number) => formatOdds(price, oddsType, locale)
  const displays = useStore(runtime.stores.site, (s) => s.bootstrap?.site.currencyDisplay)
  const money = (amount: number) => formatMoney(amount, locale, currency, displays)
  const win = potentialWin(stake, picks)
  return {
    locale,
    currency,
    displays,
    oddsType,
    mode: isBetPlacingMode(settings.betPlacingMode) ? settings.betPlacingMode : 'GreaterOrEqualsToCurrent',
    indicator: settings.priceChangeNotificationViewType || 'ARROW',
    kind: picks.length > 1 ? 'accumulator' : 'single',
    price: formatOdds(combinedPrice(picks), oddsType, locale, picks.length > 1),
    win,
    winText: money(win),
    odds,
    money,
  }
}

