/**
 * The experiment groups of the visitor a page is for, decided on the server (issue 10), so a screen
 * that reads `experiments.` (/join's motivation banner) is server-rendered with the groups the
 * browser's first render uses, and the experiment client's later answer is the same.
 *
 * - The groups cookie (kernel/experiments/groups-cookie.ts) names the groups the page's stores
 *   held last: those are used as they are (a returning visitor, forced QA groups included).
 * - An experiment the cookie does not name, or a visitor with no cookie at all (a first visit), is
 *   decided by the experiment client itself (kernel/experiments/client.ts, `Sigma`) run here with
 *   in-memory storage holding the config the service serves (the same bytes), for the cookie's id
 *   or, on a first visit, an id minted here and sent in the cookie; the browser's client adopts it
 *   as its device id when its storage has none (engine-binding.ts), so its answer is this one.
 *   Storage wins over the cookie in the browser: a browser that already has a device id keeps it,
 *   and the cookie follows the stores from the client's first answer on.
 * - Nothing is decided (no groups) where the browser's client would decide nothing: the site has
 *   no experiment token or the token is not active, or the `sigma_disabled` cookie is set.
 */
import { randomInt } from 'node:crypto'
import { Sigma } from '../../kernel/experiments/client'
import { DISABLE_COOKIE_NAME, STORAGE_KEYS } from '../../kernel/experiments/constants'
import { experimentEntry, experimentGroups, type ExperimentContextEntry } from '../../kernel/experiments/context'
import { siteGeo } from '../../kernel/experiments/geo'
import { encodeVisitorGroups, readVisitorGroups } from '../../kernel/experiments/groups-cookie'
import type { KeyValueStorage } from '../../kernel/experiments/types'
import { loadExperimentsDocument, publicConfig, type ExperimentsDocument } from './document'

export interface VisitorGroupsInput {
  /** The site's experiment token (remoteConfig.SIGMA_TOKEN). */
  token: unknown
  /** The request's Cookie header. */
  cookies: string | undefined
  userAgent: string | undefined
  /** The site's country, as the browser's client gets it (`siteGeo`). */
  site: { country?: string; countryName?: string } | undefined
}

export interface DecidedGroups {
  /** Entries as the `experiments` store holds them (kernel/experiments/context.ts). */
  experiments: Record<string, ExperimentContextEntry>
  /** A cookie value to send (a first visit: the minted id and its groups), else undefined. */
  cookie?: string
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
/** The same shape as the device id the browser's client mints (24 of [a-z0-9]), from a CSPRNG. */
export function mintVisitorId(): string {
  let id = ''
  for (let i = 0; i < 24; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)]
  return id
}

function memoryStorage(initial: Record<string, string>): KeyValueStorage {
  const map = new Map(Object.entries(initial))
  return { getItem: (key) => map.get(key) ?? null, setItem: (key, value) => void map.set(key, value), removeItem: (key) => void map.delete(key) }
}

function hasDisableCookie(cookies: string | undefined): boolean {
  return (cookies ?? '').split(';').some((part) => {
    const eq = part.indexOf('=')
    return eq > 0 && part.slice(0, eq).trim() === DISABLE_COOKIE_NAME && part.slice(eq + 1).trim() !== ''
  })
}

/**
 * The groups the experiment client gives a guest with this id: the client's own code, with the
 * config in its storage (as after a fetch) and the visitor the binding describes.
 */
export function clientGroups(configBody: string, token: string, id: string, input: Pick<VisitorGroupsInput, 'userAgent' | 'site'>): Record<string, ExperimentContextEntry> {
  const sigma = new Sigma({
    token,
    api: '/experiments/api',
    storage: memoryStorage({ [STORAGE_KEYS.dataFile]: configBody }),
    // never asked: the config is in storage and the geo is given
    fetch: async () => ({ status: 400, text: async () => '' }),
    readCookie: () => undefined,
    userAgent: input.userAgent ?? '',
    geo: siteGeo(input.site),
    visitor: { userId: id, deviceId: id },
  })
  return experimentGroups(sigma)
}

export function createVisitorGroups(documentsDir: string) {
  // read once, when the first page asks (the experiment service's router has already checked it at
  // start; a document that does not load here means no groups, never a failed page)
  let loaded: { doc: ExperimentsDocument; configBody: string } | null | undefined
  const load = () => {
    if (loaded === undefined) {
      try {
        const doc = loadExperimentsDocument(documentsDir)
        loaded = { doc, configBody: JSON.stringify(publicConfig(doc)) }
      } catch {
        loaded = null
      }
    }
    return loaded
  }

  return {
    decide(input: VisitorGroupsInput): DecidedGroups {
      const source = load()
      const token = typeof input.token === 'string' ? input.token.trim() : ''
      if (!source || !token || hasDisableCookie(input.cookies) || !source.doc.tokens.some((t) => t.token === token && t.active)) return { experiments: {} }
      const known = readVisitorGroups(input.cookies)
      const id = known?.id ?? mintVisitorId()
      const named = known?.groups ?? {}
      const experiments: Record<string, ExperimentContextEntry> = {}
      const has = (name: string) => Object.hasOwn(named, name)
      const missing = source.doc.experiments.some((experiment) => !has(experiment.name))
      const decided = missing ? clientGroups(source.configBody, token, id, input) : {}
      for (const experiment of source.doc.experiments) {
        if (Object.hasOwn(experiments, experiment.name)) continue // the first of a name wins, as in the client
        experiments[experiment.name] = has(experiment.name) ? experimentEntry(experiment, named[experiment.name]) : decided[experiment.name]
      }
      const cookie = known ? undefined : encodeVisitorGroups({ id, groups: Object.fromEntries(Object.entries(experiments).map(([name, entry]) => [name, entry.index])) })
      return { experiments, cookie }
    },
  }
}
