/**
 * The generic error page (spec §2): a status and its title — 400 Bad Request, 404 This page could
 * not be found, 405 Method Not Allowed, 500 Internal Server Error — otherwise 'An unexpected error
 * has occurred' (or the client-exception title). Texts come from translations when the engine is
 * up; the spec's English is the fallback (the page also shows before the engine boots). Every
 * error page offers a way home.
 */
import { useEffect } from 'react'
import { useOptionalRuntime } from '../runtime'
import { useRenderedSignal } from './rendered-signal'

export const ERROR_TITLES: Record<number, string> = {
  400: 'Bad Request',
  404: 'This page could not be found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
}
export const UNEXPECTED_ERROR = 'An unexpected error has occurred'
export const CLIENT_EXCEPTION = 'Application error: a client-side exception has occurred'
const HOME = 'Go to the home page'

/** The i18n key of a spec title (so a known English title is shown in the page's language). */
function titleKey(status: number | undefined, title: string | undefined): string {
  if (title === CLIENT_EXCEPTION) return 'error.clientException'
  if (title === undefined && status !== undefined && ERROR_TITLES[status]) return `error.${status}`
  return 'error.unexpected'
}

function useTranslate(): (key: string, fallback: string) => string {
  const runtime = useOptionalRuntime()
  return (key, fallback) => {
    if (!runtime) return fallback
    const text = runtime.t(key)
    return text && text !== key ? text : fallback
  }
}

export function ErrorPage({ status, title }: { status?: number; title?: string }) {
  const translate = useTranslate()
  const runtime = useOptionalRuntime()
  const english = title ?? (status !== undefined ? ERROR_TITLES[status] : undefined) ?? UNEXPECTED_ERROR
  const known = title === undefined || title === CLIENT_EXCEPTION
  const text = known ? translate(titleKey(status, title), english) : english
  useEffect(() => {
    document.title = status !== undefined ? `${status}: ${text}` : text
  }, [status, text])
  useRenderedSignal(`error-${status ?? 'unexpected'}`)
  return (
    <div className="error-page" data-testid="error-page" data-status={status}>
      {status !== undefined && <h1 className="error-page__status">{status}</h1>}
      {status !== undefined ? <h2 className="error-page__title">{text}</h2> : <h1 className="error-page__title">{text}</h1>}
      {/* a full load, not a client navigation: the way out of a broken page must not depend on it */}
      <a className="button error-page__home" href={runtime ? runtime.href('/') : '/'} data-testid="error-home">
        {translate('error.home', HOME)}
      </a>
    </div>
  )
}
