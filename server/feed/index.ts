/**
 * One feed per running server (tests run several servers in one process, each with its own
 * clock): `feedFor(deps)` creates it on first use and hands the same one to every module.
 * The seed is PARLAY_FEED_SEED (default 14), so a demo shows the same tree after a restart.
 */
import type { ServerDeps } from '../deps'
import { createFeed, type Feed } from './feed'

export type { Feed, FeedListener, SelectionView } from './feed'
export type * from './model'
export { createFeed, treeOriginOf } from './feed'
export { TICK_MS } from './generate'

const feeds = new WeakMap<object, Feed>()

export function feedFor(deps: Pick<ServerDeps, 'now'>): Feed {
  let feed = feeds.get(deps)
  if (!feed) {
    const seed = Number.parseInt(process.env.PARLAY_FEED_SEED ?? '', 10)
    feed = createFeed({ seed: Number.isFinite(seed) ? seed : 14, now: deps.now })
    feeds.set(deps, feed)
  }
  return feed
}
