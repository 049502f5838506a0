/**
 * The page's connectivity (engine/core/connectivity.ts) for a component: false on the server and
 * in the render that hydrates its markup, the browser's state after.
 */
import { useSyncExternalStore } from 'react'
import { isOffline, subscribeConnectivity } from '../core/connectivity'

export const useOffline = (): boolean => useSyncExternalStore(subscribeConnectivity, isOffline, () => false)
