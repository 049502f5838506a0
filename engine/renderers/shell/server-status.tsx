/**
 * The status the server answered this page load with, when it sent an error page as HTML (400 for
 * a broken URL, 405 for a POST to a page: server/http/error-pages.ts puts it in a meta tag). The
 * shell shows that error page for the first location only; any navigation leaves it behind.
 */
import { useMemo, type ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { ErrorPage } from './ErrorPage'

const STATUS_META = 'meta[name="parlay-status"]'

export function readServerStatus(): number | undefined {
  const content = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>(STATUS_META)?.content
  const status = Number(content)
  return Number.isInteger(status) && status >= 400 && status < 600 ? status : undefined
}

export function useServerErrorStatus(): number | undefined {
  const location = useLocation()
  const status = useMemo(readServerStatus, [])
  // react-router names the location the page was loaded at 'default'
  return location.key === 'default' ? status : undefined
}

/** The server's error page on the page it was loaded with; the routes everywhere else. */
export function ServerErrorOr({ children }: { children: ReactNode }) {
  const status = useServerErrorStatus()
  return status !== undefined ? <ErrorPage status={status} /> : <>{children}</>
}
