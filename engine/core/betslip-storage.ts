/**
 * The bet slip kept across reloads and tabs (issue 31 item 1): the picks (what was picked and the
 * price agreed to) and the stake go to localStorage on every change, and come back on the next
 * page of any tab. What comes back is unchecked (`checked: false`): the page asks the feed about
 * each pick before anything can be placed, so a stored price is never placed as if it were current.
 * Stored text is untrusted (another script, an old version, a hand edit): anything that is not
 * a valid pick is dropped. Framework-free; the storage and the window are passed in.
 */
import type { StoreApi } from 'zustand/vanilla'
import { betslip, MAX_PICKS, type BetslipState, type SlipPick } from './betslip'
import type { StorageLike } from './stores'
import { pageLocalStorage } from './web-storage'

/** The storage key of the slip. */
export const BETSLIP_STORAGE_KEY = 'betslip'

const SELECTION_ID = /^[A-Za-z0-9_-]{1,80}$/

/** What is kept of a pick: never the feed's word (status, current price), which goes stale. */
const kept = (p: SlipPick) => ({ id: p.id, label: p.label, price: p.price, ...(p.event ? { event: p.event } : {}), ...(p.eventId ? { eventId: p.eventId } : {}), ...(p.treeId !== undefined ? { treeId: p.treeId } : {}) })

const text = (value: unknown, max: number) => (typeof value === 'string' && value.length <= max ? value : undefined)

function readPick(value: unknown): SlipPick | undefined {
  const v = (value ?? {}) as Record<string, unknown>
  const id = text(v.id, 80)
  const label = text(v.label, 200)
  if (!id || !SELECTION_ID.test(id) || label === undefined || typeof v.price !== 'number' || !(v.price > 1 && v.price <= 10_000)) return undefined
  const event = text(v.event, 200)
  const eventId = text(v.eventId, 80)
  const treeId = typeof v.treeId === 'number' && Number.isSafeInteger(v.treeId) ? v.treeId : undefined
  return { id, label, price: v.price, checked: false, ...(event ? { event } : {}), ...(eventId ? { eventId } : {}), ...(treeId !== undefined ? { treeId } : {}) }
}

/** The stored slip, cleaned; null when there is none or it cannot be read. */
export function readStoredSlip(storage: StorageLike | undefined): { picks: SlipPick[]; stake: number | null } | null {
  let raw: string | null = null
  try {
    raw = storage?.getItem(BETSLIP_STORAGE_KEY) ?? null
  } catch {
    return null
  }
  if (!raw) return null
  try {
    const parsed = JSON.parse(raw) as { picks?: unknown; stake?: unknown }
    const picks = (Array.isArray(parsed.picks) ? parsed.picks : []).map(readPick).filter((p): p is SlipPick => p !== undefined)
    const unique = picks.filter((p, i) => picks.findIndex((q) => q.id === p.id) === i).slice(0, MAX_PICKS)
    const stake = typeof parsed.stake === 'number' && parsed.stake > 0 && parsed.stake <= 1_000_000 ? parsed.stake : null
    return { picks: unique, stake }
  } catch {
    return null
  }
}

function write(storage: StorageLike | undefined, state: Pick<BetslipState, 'picks' | 'stake'>): void {
  try {
    if (state.picks.length === 0 && state.stake === null) storage?.removeItem(BETSLIP_STORAGE_KEY)
    else storage?.setItem(BETSLIP_STORAGE_KEY, JSON.stringify({ picks: state.picks.map(kept), stake: state.stake }))
  } catch {
    // storage full or refused: the slip still works on this page
  }
}

/** What persistence needs of the page: its storage, and the other tabs' changes to it. */
export interface SlipStorageEnvironment {
  storage(): StorageLike | undefined
  /** Calls back when another tab changed the stored slip; returns the stop. */
  onOtherTab?(listener: () => void): () => void
}

/**
 * Restores the stored slip into `slip` (unchecked) and keeps storing its changes; another tab's
 * change is taken over (unchecked too). Returns the stop.
 */
export function persistSlip(slip: StoreApi<BetslipState>, environment: SlipStorageEnvironment): () => void {
  const restore = () => {
    const stored = readStoredSlip(environment.storage())
    if (stored) slip.setState({ picks: stored.picks, stake: stored.stake })
  }
  if (slip.getState().picks.length === 0) restore()
  const stopSaving = slip.subscribe((state, previous) => {
    if (state.picks !== previous.picks || state.stake !== previous.stake) write(environment.storage(), state)
  })
  const stopListening = environment.onOtherTab?.(() => {
    const stored = readStoredSlip(environment.storage())
    slip.setState({ picks: stored?.picks ?? [], stake: stored?.stake ?? null })
  })
  return () => {
    stopSaving()
    stopListening?.()
  }
}

let keeping = false

/**
 * The page's slip kept in this browser's localStorage from now on (once per page; the betslip
 * node starts it after the first render, a pick added on a page without the node starts it too).
 */
export function keepSlipInBrowser(): void {
  if (keeping || typeof window === 'undefined') return
  keeping = true
  persistSlip(betslip, {
    storage: pageLocalStorage,
    onOtherTab(listener) {
      const onStorage = (event: StorageEvent) => event.key === BETSLIP_STORAGE_KEY && listener()
      window.addEventListener('storage', onStorage)
      return () => window.removeEventListener('storage', onStorage)
    },
  })
}
