/** The generic error page (spec §2): a status and its title; otherwise the generic messages. */
import { useEffect } from 'react'

export const ERROR_TITLES: Record<number, string> = {
  400: 'Bad Request',
  404: 'This page could not be found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
}
export const UNEXPECTED_ERROR = 'An unexpected error has occurred'
export const CLIENT_EXCEPTION = 'Application error: a client-side exception has occurred'

export function ErrorPage({ status, title }: { status?: number; title?: string }) {
  const text = title ?? (status !== undefined ? ERROR_TITLES[status] : undefined) ?? UNEXPECTED_ERROR
  useEffect(() => {
    document.title = status !== undefined ? `${status}: ${text}` : text
  }, [status, text])
  return (
    <div className="error-page" data-testid="error-page" data-status={status}>
      {status !== undefined && <h1 className="error-page__status">{status}</h1>}
      {status !== undefined ? <h2 className="error-page__title">{text}</h2> : <h1 className="error-page__title">{text}</h1>}
    </div>
  )
}
