/**
 * Is the page offline? (issue 31 item 6: "No promotions right now" when offline.) The browser's
 * own word (`navigator.onLine` and its online/offline events) and what the page's own requests
 * saw (a screen data load that failed on the network says offline; one that succeeded, online).
 * Framework-free: the shell's banner and the list node read it through `useOffline`.
 */

let offline = false
const listeners = new Set<() => void>()

export const isOffline = (): boolean => offline

export function setOffline(value: boolean): void {
  if (offline === value) return
  offline = value
  for (const listener of listeners) listener()
}

export function subscribeConnectivity(listener: () => void): () => void {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/** Follows the browser's online/offline state (once per page). */
let watching = false
export function watchConnectivity(target: Pick<Window, 'addEventListener'> & { navigator: { onLine: boolean } } = window): void {
  if (watching) return
  watching = true
  setOffline(target.navigator.onLine === false)
  target.addEventListener('online', () => setOffline(false))
  target.addEventListener('offline', () => setOffline(true))
}

/** A request was answered: online again, unless the browser says it is offline (the service
 * worker answers from its copies then, which is no sign of a network). */
export function sawAnswer(): void {
  if (typeof navigator === 'undefined' || navigator.onLine !== false) setOffline(false)
}

/** A request's failure codes that mean the network, not the server, said no. */
export const isNetworkFailure = (code: string): boolean => code === 'NETWORK_ERROR' || code === 'TIMEOUT'
