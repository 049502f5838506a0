/**
 * Connects the experiment client to the engine's stores, so documents vary by flag or experiment
 * (`flags.quiz`, `experiments.registrationMotivation.group`) with no code change.
 *
 * Framework-free. The shell loads this lazily after the first render: the lobby never waits for
 * the experiment service, and documents treat a missing flag as "not known yet"
 * (`has(flags.quiz) && flags.quiz == true`).
 */
import type { EngineStores } from '../core/stores'
import { isEditorMode, Sigma, type FetchLike } from '../../kernel/experiments/client'
import type { WebBuilderPage } from '../../kernel/experiments/types'
import { experimentContext } from '../../kernel/experiments/context'
import { encodeVisitorGroups, groupIndices, readVisitorGroups, visitorGroupsCookie } from '../../kernel/experiments/groups-cookie'
import { LAST_EXPERIMENTS_KEY } from '../../kernel/experiments/last-groups'
import { siteGeo } from '../../kernel/experiments/geo'

export { siteGeo }


export const DEVICE_KEY = 'parlay.deviceId'
/**
 * The id a guest is bucketed by: the one in storage; else the one the server chose for this
 * browser's first page (the groups cookie), so the groups the server rendered are the groups this
 * client decides (issue 10); else a new one.
 */
function deviceId(storage: Storage | undefined, random: () => number, fromCookie: string | undefined): string {
  const existing = storage?.getItem(DEVICE_KEY)
  if (existing) return existing
  const id = fromCookie ?? Array.from({ length: 24 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 36)]).join('')
  try {
    storage?.setItem(DEVICE_KEY, id)
  } catch {
    // private mode: a per-page id still assigns consistently within the visit
  }
  return id
}

/** Lets the browser paint and answer input before the next piece of work. */
function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}

/** Reads and writes the page's cookies (document.cookie, or a test double). */
export interface GroupsCookieJar {
  read(): string
  write(cookie: string): void
}

const documentJar: GroupsCookieJar = {
  read: () => (typeof document === 'undefined' ? '' : document.cookie),
  write: (cookie) => {
    try {
      document.cookie = cookie
    } catch {
      // cookies disabled: the server decides afresh on every page (the client's answer still wins)
    }
  },
}

export interface ExperimentBindingOptions {
  api?: string
  storage?: Storage
  random?: () => number
  onError?: (message: string) => void
  /** The experiment service's fetch (tests answer it in memory). */
  fetch?: FetchLike
  /** The page's cookies: the groups cookie is read for a first visit's id and kept in step. */
  cookies?: GroupsCookieJar
}

/** Starts the client with the site's SIGMA_TOKEN and keeps `flags`/`experiments` in the stores
 * current, re-evaluating when the punter logs in or out. Returns a stop function. */
/**
 * The web builder (spec §4 "optionally runs the web builder", §6 editor mode): each web-builder
 * experiment's pages are asked for here (a control group asks too and gets none); the applier's
 * chunk loads only when there are pages to apply or `?editor=start` opens the editor, so a page
 * with nothing to change downloads none of it. Never throws (spec §8).
 */
async function startWebBuilder(sigma: Sigma): Promise<void> {
  try {
    const experiments = sigma.webBuilderExperiments()
    if (experiments.length === 0) return
    if (isEditorMode(location.search)) {
      ;(await import('./web-builder-browser')).startEditor(sigma, experiments)
      return
    }
    const pages = (await Promise.all(experiments.map(({ name }) => sigma.fetchPages(name).catch(() => [] as WebBuilderPage[])))).flat()
    if (pages.length > 0) (await import('./web-builder-browser')).keepApplied(pages)
  } catch {
    // the page stays as the documents made it
  }
}

export async function connectExperiments(stores: EngineStores, options: ExperimentBindingOptions = {}): Promise<() => void> {
  const site = stores.site.getState().bootstrap
  const token = site?.remoteConfig.SIGMA_TOKEN
  const random = options.random ?? Math.random
  const jar = options.cookies ?? documentJar
  const device = deviceId(options.storage, random, readVisitorGroups(jar.read())?.id)
  const secure = typeof location !== 'undefined' && location.protocol === 'https:'
  // the cookie follows what the stores hold, so the server renders the next page with these groups
  // (server/experiments/visitor-groups.ts); the id is the device id, the guest's bucketing unit
  const followCookie = (experiments: Record<string, unknown>) => {
    const value = encodeVisitorGroups({ id: device, groups: groupIndices(experiments) })
    if (value) jar.write(visitorGroupsCookie(value, secure))
  }
  const userId = () => {
    const id = stores.user.getState().data?.user?.id
    return id === undefined || id === null ? device : String(id)
  }
  let sigma: Sigma
  try {
    sigma = new Sigma({
      token: typeof token === 'string' ? token : undefined,
      api: options.api ?? '/experiments/api',
      storage: options.storage,
      random,
      fetch: options.fetch,
      geo: siteGeo(site?.site),
      visitor: { userId: userId(), deviceId: device },
    })
    await sigma.init()
  } catch (error) {
    // No token, the disable cookie, or no config at all: documents see no flags and fall back
    // (and whoever waits for the flags knows there are none).
    options.onError?.((error as Error).message)
    stores.flags.getState().setValues({})
    stores.experiments.getState().setValues({})
    followCookie({})
    try {
      options.storage?.removeItem(LAST_EXPERIMENTS_KEY)
    } catch {
      // nothing stored to forget
    }
    return () => {}
  }
  // the config's parse and the visitor's bucketing above were one task; the stores' update (and
  // the re-render it causes) is the next one, so neither blocks input for long (issue 10's TBT)
  await yieldToBrowser()
  const apply = () => {
    const { flags, experiments } = experimentContext(sigma)
    stores.flags.getState().setValues(flags)
    stores.experiments.getState().setValues(experiments as Record<string, unknown>)
    followCookie(experiments as Record<string, unknown>)
    try {
      options.storage?.setItem(LAST_EXPERIMENTS_KEY, JSON.stringify(experiments))
    } catch {
      // private mode or full storage: the next load decides after its first paint again
    }
  }
  apply()
  // the web builder (or its editor with ?editor=start) in its own chunk, in the browser only
  if (typeof document !== 'undefined' && typeof MutationObserver === 'function') void startWebBuilder(sigma)
  let lastUser = userId()
  return stores.user.subscribe(() => {
    const next = userId()
    if (next === lastUser) return
    lastUser = next
    sigma.patchVisitor({ userId: next })
    apply()
  })
}
