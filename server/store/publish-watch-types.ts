/**
 * The shapes of a publish watch: one watch, the paths it watches, the server parts it reads. Their
 * own file so publish-watch.ts (which watches) and auto-rollback.ts (which rolls a bad publish
 * back) both import them without importing each other.
 */
import type { ServerDeps } from '../deps'

export type WatchedPath = [site: string, path: string]
export interface Watch {
  id: number
  subject: string
  author: string
  approvedBy: string | null
  paths: WatchedPath[]
  startedAt: number
  endsAt: number
  clientErrorsBefore: number
}

export type PublishWatchDeps = Pick<ServerDeps, 'data' | 'db' | 'documents' | 'now' | 'log' | 'store'>
