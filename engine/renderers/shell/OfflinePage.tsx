/**
 * The offline page (issue 10): a screen this device has never loaded, asked while the network is
 * down, says so — never "500 Internal Server Error" for what is a network failure. Texts come
 * from translations when the engine is up (its last good copy), English otherwise (the page also
 * shows when nothing at all could be booted). "Try again" reloads the address.
 */
import { useEffect } from 'react'
import { useOptionalRuntime } from '../runtime'

const ENGLISH = {
  'offline.title': 'You are offline',
  'offline.text': 'This page has not been saved on this device yet. Check your connection and try again.',
  'offline.retry': 'Try again',
} as const

export function OfflinePage() {
  const runtime = useOptionalRuntime()
  const translate = (key: keyof typeof ENGLISH) => {
    const text = runtime?.t(key)
    return text && text !== key ? text : ENGLISH[key]
  }
  const title = translate('offline.title')
  useEffect(() => {
    document.title = title
  }, [title])
  return (
    <div className="error-page" data-testid="offline-page" role="status">
      <h1 className="error-page__title">{title}</h1>
      <p>{translate('offline.text')}</p>
      <button type="button" className="button error-page__home" onClick={() => window.location.reload()}>
        {translate('offline.retry')}
      </button>
    </div>
  )
}
