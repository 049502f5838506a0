/**
 * The bet slip (issue 14 item 5, issue 31 item 1; node kind `betslip`), on every page of a
 * betting product: a compact bar at the bottom while it has picks (../betslip/SlipBar.tsx), one
 * tap from the full slip, a bottom sheet (../betslip/SlipSheet.tsx), and after a placement the
 * receipt (../betslip/SlipReceipt.tsx); the sheet and the receipt load on first use. The slip
 * lives across pages, reloads and tabs and its prices follow the socket (../betslip/slip-session.ts).
 * Rendered on the client only: the server's first screen has no slip, so hydration matches.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useState } from 'react'
import { useStore } from 'zustand'
import { betslip } from '../../core/betslip'
import type { NodeOf } from '../../../kernel/documents/types'
import { SlipBar } from '../betslip/SlipBar'
import { useSlipFigures } from '../betslip/slip-figures'
import { useSlipSession } from '../betslip/slip-session'
import { usePunterSocket } from '../punter-socket'
import { useRuntime } from '../runtime'

const parts = () => import('../betslip/slip-parts')
const LazySheet = lazy(() => parts().then((m) => ({ default: m.SlipSheet })))
const LazyReceipt = lazy(() => parts().then((m) => ({ default: m.SlipReceipt })))

/** While the bar shows, the page keeps room for it at its foot (html[data-betslip]). */
function usePageRoom(shown: boolean): void {
  useEffect(() => {
    if (!shown) return
    document.documentElement.dataset.betslip = 'bar'
    return () => {
      delete document.documentElement.dataset.betslip
    }
  }, [shown])
}

export function BetslipNode({ node }: { node: NodeOf<'betslip'> }) {
  const runtime = useRuntime()
  usePunterSocket()
  useSlipSession()
  const count = useStore(betslip, (s) => s.picks.length)
  const receipt = useStore(betslip, (s) => s.receipt && s.placed !== null)
  const [open, setOpen] = useState(false)
  const sheetId = useId()
  const close = useCallback(() => setOpen(false), [])
  const figures = useSlipFigures()
  // the full slip's code comes in with the first pick, before the punter opens it
  useEffect(() => {
    if (count > 0) void parts()
  }, [count > 0]) // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (count === 0) setOpen(false)
  }, [count])
  usePageRoom(count > 0 && !runtime.server)
  if (runtime.server) return null
  if (receipt)
    return (
      <Suspense fallback={null}>
        <LazyReceipt runtime={runtime} figures={figures} />
      </Suspense>
    )
  if (count === 0) return null
  if (!open) return <SlipBar figures={figures} sheetId={sheetId} onOpen={() => setOpen(true)} />
  return (
    <Suspense fallback={<SlipBar figures={figures} sheetId={sheetId} onOpen={() => undefined} />}>
      <LazySheet runtime={runtime} figures={figures} id={sheetId} stakes={node.stakes} onClose={close} />
    </Suspense>
  )
}
