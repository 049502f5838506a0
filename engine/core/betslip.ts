/**
 * The bet slip's state (issue 14 item 5), framework-free: the picked selections, the stake and
 * the last placement's outcome. One slip per page (module-level store); the rules — prices, the
 * odds-change policy, money — are the server's, this only remembers what the punter picked.
 */
import { createStore } from 'zustand/vanilla'

export interface SlipPick {
  id: string
  label: string
  /** The decimal price the punter saw when picking (sent with the bet). */
  price: number
  /** Set while the selection is suspended or settled (WATCH_ON_BET / INACTIVE_SELECTION). */
  inactive?: 'SUSPENDED' | 'SETTLED'
}

export type SlipStatus = 'idle' | 'placing' | 'placed' | 'failed'

export interface PlacedBet {
  betId: string
  stake: number
  price: number
  currency: string
  potentialWin: number
}

export interface BetslipState {
  picks: SlipPick[]
  stake: number | null
  status: SlipStatus
  placed: PlacedBet | null
  /** The server's error code of the last failed placement. */
  error: string | null
  /** The failure's payload (limit, currency …) for its message. */
  errorValues: Record<string, unknown>
  /** The text key that says why (a restriction's reason); null: the code's own text. */
  errorText: string | null
  toggle(pick: SlipPick): void
  remove(id: string): void
  setStake(stake: number | null): void
  setPrice(id: string, price: number): void
  /** The pick went inactive (suspended, settled) or open again (undefined). */
  setInactive(id: string, inactive: SlipPick['inactive']): void
  start(): void
  succeed(bet: PlacedBet): void
  fail(code: string, values?: Record<string, unknown>, text?: string | null): void
  clear(): void
}

/** The most selections one accumulator takes (the server's limit too). */
export const MAX_PICKS = 20

function withInactive(pick: SlipPick, inactive: SlipPick['inactive']): SlipPick {
  const { inactive: _was, ...rest } = pick
  return inactive ? { ...rest, inactive } : rest
}

export function createBetslipStore() {
  return createStore<BetslipState>()((set) => ({
    picks: [],
    stake: null,
    status: 'idle',
    placed: null,
    error: null,
    errorValues: {},
    errorText: null,
    toggle: (pick) =>
      set((s) => {
        const picked = s.picks.some((p) => p.id === pick.id)
        if (!picked && s.picks.length >= MAX_PICKS) return s
        return { picks: picked ? s.picks.filter((p) => p.id !== pick.id) : [...s.picks, pick], status: 'idle', error: null }
      }),
    remove: (id) => set((s) => ({ picks: s.picks.filter((p) => p.id !== id), status: 'idle', error: null })),
    setStake: (stake) => set({ stake }),
    setPrice: (id, price) => set((s) => ({ picks: s.picks.map((p) => (p.id === id ? { ...p, price } : p)) })),
    setInactive: (id, inactive) =>
      set((s) => (s.picks.some((p) => p.id === id && p.inactive !== inactive) ? { picks: s.picks.map((p) => (p.id === id ? withInactive(p, inactive) : p)) } : s)),
    start: () => set({ status: 'placing', error: null }),
    succeed: (placed) => set({ status: 'placed', placed, picks: [], error: null }),
    fail: (error, values = {}, text = null) => set({ status: 'failed', error, errorValues: values, errorText: text }),
    clear: () => set({ picks: [], status: 'idle', error: null }),
  }))
}

export const betslip = createBetslipStore()

/** The combined decimal price of the picks (an accumulator multiplies them). */
export const combinedPrice = (picks: readonly SlipPick[]) => Math.round(picks.reduce((product, p) => product * p.price, 1) * 100) / 100
