/**
 * The bet slip's state (issue 14 item 5, issue 31 item 1), framework-free: the picks, the stake,
 * the last placement and its receipt. One slip per page (module-level store), kept in the browser's
 * storage by ./betslip-storage.ts. The rules — prices, the odds-change policy, money — are the
 * server's; the slip keeps what the punter agreed to apart from what the feed says now, so it can
 * ask before Place exactly when the server would refuse (`needsAcceptance`).
 *
 * A pick's `price` is the price the punter agreed to (sent with the bet and judged by their
 * betPlacingMode); `current` is the feed's price now (the socket, a re-check); `checked` says the
 * page has seen the feed's word on it (a pick restored from storage has not, and cannot be placed
 * until it has).
 */
import { createStore } from 'zustand/vanilla'
import { priceAccepted, type BetPlacingMode } from '../../kernel/core/odds'

export type PickInactive = 'SUSPENDED' | 'SETTLED' | 'UNAVAILABLE'

export interface SlipPick {
  id: string
  /** The outcome picked ("1", "Over 2.5"): shown whole, never cut. */
  label: string
  /** The match ("Arsenal – Chelsea"), once known. */
  event?: string
  eventId?: string
  /** The event's tree id, which its socket messages carry. */
  treeId?: number
  /** The price the punter agreed to (sent with the bet). */
  price: number
  /** The feed's price now; absent while it is the agreed one. */
  current?: number
  /** The last move of the feed's price, and how many moves (an indicator restarts on each). */
  move?: 'up' | 'down'
  moves?: number
  /** The server refused this pick's price (ODDS_CHANGED): the punter accepts the new one first. */
  confirm?: boolean
  /** Suspended, settled or gone from the feed: the slip cannot be placed with it. */
  inactive?: PickInactive
  /** The page has the feed's word on this pick's price and status. */
  checked?: boolean
}

export type SlipStatus = 'idle' | 'placing' | 'placed' | 'failed'

export interface PlacedLeg {
  selectionId: string
  label: string
  event?: string
  price: number
}

export interface PlacedBet {
  betId: string
  kind?: 'single' | 'accumulator'
  stake: number
  price: number
  currency: string
  potentialWin: number
  legs?: PlacedLeg[]
}

export interface BetslipState {
  picks: SlipPick[]
  stake: number | null
  status: SlipStatus
  placed: PlacedBet | null
  /** The picks of the last placed bet, for "Keep picks". */
  lastPicks: SlipPick[]
  /** The receipt of the last placement is on screen. */
  receipt: boolean
  /** The server's error code of the last failed placement. */
  error: string | null
  /** The failure's payload (limit, currency …) for its message. */
  errorValues: Record<string, unknown>
  /** The text key that says why (a restriction's reason); null: the code's own text. */
  errorText: string | null
  toggle(pick: SlipPick): void
  remove(id: string): void
  setStake(stake: number | null): void
  /** What the feed says of a pick now (the socket, a re-check): its price and, if known, status. */
  feedPrice(id: string, price: number, status?: string): void
  /** The server refused the pick at `price`'s predecessor: the punter must accept `price`. */
  setPrice(id: string, price: number): void
  /** The pick went inactive (suspended, settled, gone) or open again (undefined). */
  setInactive(id: string, inactive: PickInactive | undefined): void
  /** The match of a pick, once looked up. */
  describe(id: string, about: Pick<SlipPick, 'event' | 'eventId' | 'treeId'>): void
  /** The punter accepts every pick's current price. */
  acceptPrices(): void
  /** Every pick needs the feed's word again (restored, or back from another tab). */
  uncheck(): void
  start(): void
  succeed(bet: PlacedBet): void
  fail(code: string, values?: Record<string, unknown>, text?: string | null): void
  /** The receipt's "Keep picks": the placed picks back in the slip (their prices checked again). */
  keepPicks(): void
  closeReceipt(): void
  clear(): void
}

/** The most selections one accumulator takes (the server's limit too). */
export const MAX_PICKS = 20

const FEED_STATUS: Record<string, PickInactive | undefined> = { OPEN: undefined, SUSPENDED: 'SUSPENDED', SETTLED: 'SETTLED', UNKNOWN: 'UNAVAILABLE' }

function withInactive(pick: SlipPick, inactive: PickInactive | undefined): SlipPick {
  const { inactive: _was, ...rest } = pick
  return inactive ? { ...rest, inactive } : rest
}

/** The pick with the feed's price now: a move is counted, the direction against the last price seen. */
function withFeedPrice(pick: SlipPick, price: number): SlipPick {
  const before = pick.current ?? pick.price
  const { current: _current, ...rest } = pick
  const next: SlipPick = price === pick.price ? rest : { ...rest, current: price }
  return price === before ? next : { ...next, move: price > before ? 'up' : 'down', moves: (pick.moves ?? 0) + 1 }
}

const mapPick = (picks: SlipPick[], id: string, change: (pick: SlipPick) => SlipPick) => picks.map((p) => (p.id === id ? change(p) : p))

export function createBetslipStore() {
  return createStore<BetslipState>()((set) => ({
    picks: [],
    stake: null,
    status: 'idle',
    placed: null,
    lastPicks: [],
    receipt: false,
    error: null,
    errorValues: {},
    errorText: null,
    toggle: (pick) =>
      set((s) => {
        const picked = s.picks.some((p) => p.id === pick.id)
        if (!picked && s.picks.length >= MAX_PICKS) return s
        return { picks: picked ? s.picks.filter((p) => p.id !== pick.id) : [...s.picks, pick], status: 'idle', error: null, receipt: false }
      }),
    remove: (id) => set((s) => ({ picks: s.picks.filter((p) => p.id !== id), status: 'idle', error: null })),
    setStake: (stake) => set({ stake }),
    feedPrice: (id, price, status) =>
      set((s) => ({
        picks: mapPick(s.picks, id, (p) => {
          const priced = withFeedPrice(p, price)
          return { ...(status === undefined ? priced : withInactive(priced, Object.hasOwn(FEED_STATUS, status) ? FEED_STATUS[status] : 'UNAVAILABLE')), checked: true }
        }),
      })),
    setPrice: (id, price) => set((s) => ({ picks: mapPick(s.picks, id, (p) => ({ ...withFeedPrice(p, price), confirm: true, checked: true })) })),
    setInactive: (id, inactive) => set((s) => (s.picks.some((p) => p.id === id && p.inactive !== inactive) ? { picks: mapPick(s.picks, id, (p) => withInactive(p, inactive)) } : s)),
    describe: (id, about) => set((s) => ({ picks: mapPick(s.picks, id, (p) => ({ ...p, ...about })) })),
    acceptPrices: () =>
      set((s) => ({
        picks: s.picks.map(({ current, confirm: _confirm, ...p }) => ({ ...p, price: current ?? p.price })),
        status: 'idle',
        error: null,
      })),
    uncheck: () => set((s) => ({ picks: s.picks.map((p) => ({ ...p, checked: false })) })),
    start: () => set({ status: 'placing', error: null }),
    succeed: (placed) => set((s) => ({ status: 'placed', placed, lastPicks: s.picks, picks: [], error: null, receipt: true })),
    fail: (error, values = {}, text = null) => set({ status: 'failed', error, errorValues: values, errorText: text }),
    keepPicks: () => set((s) => ({ picks: s.lastPicks.map((p) => ({ ...p, checked: false })), receipt: false, status: 'idle' })),
    closeReceipt: () => set({ receipt: false }),
    clear: () => set({ picks: [], status: 'idle', error: null, receipt: false }),
  }))
}

export const betslip = createBetslipStore()

/** The price a pick would be placed at now. */
export const currentPrice = (pick: SlipPick): number => pick.current ?? pick.price

/** The combined decimal price of the picks at their current prices (an accumulator multiplies them). */
export const combinedPrice = (picks: readonly SlipPick[]) => Math.round(picks.reduce((product, p) => product * currentPrice(p), 1) * 100) / 100

/** Does the punter have to accept this pick's new price before Place (their betPlacingMode says so)? */
export const needsAcceptance = (pick: SlipPick, mode: BetPlacingMode): boolean => pick.confirm === true || !priceAccepted(mode, pick.price, currentPrice(pick))

/** The picks of an accumulator that share their match with another pick (none for a single). */
export function relatedPickIds(picks: readonly SlipPick[]): Set<string> {
  const related = new Set<string>()
  if (picks.length < 2) return related
  const byEvent = new Map<string, string[]>()
  for (const pick of picks) if (pick.eventId) byEvent.set(pick.eventId, [...(byEvent.get(pick.eventId) ?? []), pick.id])
  for (const ids of byEvent.values()) if (ids.length > 1) for (const id of ids) related.add(id)
  return related
}

/** What stands between the slip and Place, the first that applies (null: it can be placed). */
export type SlipBlock = 'EMPTY' | 'CHECKING' | 'INACTIVE' | 'RELATED' | 'PRICES_CHANGED'

export function slipBlock(picks: readonly SlipPick[], mode: BetPlacingMode): SlipBlock | null {
  if (picks.length === 0) return 'EMPTY'
  if (picks.some((p) => p.inactive)) return 'INACTIVE'
  if (relatedPickIds(picks).size > 0) return 'RELATED'
  if (picks.some((p) => !p.checked)) return 'CHECKING'
  if (picks.some((p) => needsAcceptance(p, mode))) return 'PRICES_CHANGED'
  return null
}
