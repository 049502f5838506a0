/**
 * Experiment groups decided on the server (server/experiments/visitor-groups.ts, issue 10): /join is
 * server-rendered with the visitor's groups, so the experiment client's later answer in the browser
 * must be the groups the server rendered — on a first visit (the server mints the id, the client
 * adopts it) and on a return visit (the cookie names the groups the stores held). A browser whose
 * storage already has an id keeps it, and the cookie then follows the storage.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { createEngineStores } from '../../../engine/core/stores'
import { connectExperiments, DEVICE_KEY } from '../../../engine/experiments/engine-binding'
import { GROUPS_COOKIE, encodeVisitorGroups, readVisitorGroups } from '../../../kernel/experiments/groups-cookie'
import type { FetchLike } from '../../../kernel/experiments/client'
import { createVisitorGroups } from '../../../server/experiments/visitor-groups'
import { loadExperimentsDocument, publicConfig } from '../../../server/experiments/document'
import { siteBootstrap } from '../engine/helpers'
import { memoryStorage, seededRandom } from './helpers'
import { SCHEMAS_DIR } from '../../support/server'

const TOKEN = 'parlay-web-demo-token'
const site = { country: 'RU', countryName: 'Russia' }
const UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'
let configBody = ''
beforeAll(() => {
  configBody = JSON.stringify(publicConfig(loadExperimentsDocument(SCHEMAS_DIR)))
})

/** The experiment service as the browser's client reaches it, answered in memory. */
const service: FetchLike = async (url) => ({ status: url.endsWith('/config.json') ? 200 : 400, text: async () => (url.endsWith('/config.json') ? configBody : '') })

/** A browser page: its stores, storage and cookie jar, with the experiment client connected. */
async function browserAnswer(cookieHeader: string, storage = memoryStorage()) {
  const stores = createEngineStores({ site: { ...siteBootstrap(site), remoteConfig: { SIGMA_TOKEN: TOKEN } }, locale: 'en' })
  let jar = cookieHeader
  const written: string[] = []
  const errors: string[] = []
  await connectExperiments(stores, {
    storage: storage as unknown as Storage,
    fetch: service,
    random: seededRandom(7),
    cookies: { read: () => jar, write: (cookie) => (written.push(cookie), (jar = cookie.split(';')[0])) },
    onError: (message) => errors.push(message),
  })
  expect(errors).toEqual([])
  return { experiments: stores.experiments.getState().values, storage, written, jar }
}

const decider = () => createVisitorGroups(SCHEMAS_DIR)
const asCookie = (value: string) => `${GROUPS_COOKIE}=${value}`

describe('the server decides the groups the browser will', () => {
  it('a first visit: the server mints an id and its groups; the client adopts the id and answers the same groups (120 visitors)', async () => {
    const groups = decider()
    const seen = new Set<string>()
    for (let i = 0; i < 120; i++) {
      const server = groups.decide({ token: TOKEN, cookies: undefined, userAgent: UA, site })
      expect(server.cookie).toBeDefined()
      const browser = await browserAnswer(asCookie(server.cookie!))
      expect(browser.experiments).toEqual(server.experiments)
      // the client keeps the server's id as its device id, and the cookie it writes says the same
      expect(browser.storage.getItem(DEVICE_KEY)).toBe(readVisitorGroups(asCookie(server.cookie!))!.id)
      expect(browser.jar).toBe(asCookie(server.cookie!))
      seen.add(String((server.experiments.registrationMotivation as { inTest: boolean }).inTest))
    }
    // both groups of the motivation experiment came up: the check covered the banner and its absence
    expect([...seen].sort()).toEqual(['false', 'true'])
  })

  it('an id in the cookie without groups (the client could not answer yet): the server decides for that id as the client does (200 ids)', async () => {
    const groups = decider()
    const random = seededRandom(42)
    for (let i = 0; i < 200; i++) {
      const id = Array.from({ length: 24 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 36)]).join('')
      const cookie = asCookie(encodeVisitorGroups({ id, groups: {} })!)
      const server = groups.decide({ token: TOKEN, cookies: cookie, userAgent: UA, site })
      expect(server.cookie).toBeUndefined()
      const browser = await browserAnswer(cookie)
      expect(browser.experiments, id).toEqual(server.experiments)
    }
  })

  it('a return visit: the cookie the client wrote makes the server render the groups its stores hold', async () => {
    const groups = decider()
    const first = groups.decide({ token: TOKEN, cookies: undefined, userAgent: UA, site })
    const browser = await browserAnswer(asCookie(first.cookie!))
    const again = groups.decide({ token: TOKEN, cookies: browser.jar, userAgent: UA, site })
    expect(again.experiments).toEqual(browser.experiments)
    expect(again.cookie).toBeUndefined()
  })

  it('a group forced in the browser (QA) is rendered from the cookie once the client has written it', async () => {
    const storage = memoryStorage()
    storage.setItem('sigma_forced_experiments', JSON.stringify([{ experimentId: 'registrationMotivation', groupIndex: 1 }]))
    const first = decider().decide({ token: TOKEN, cookies: undefined, userAgent: UA, site })
    const browser = await browserAnswer(asCookie(first.cookie!), storage)
    expect(browser.experiments.registrationMotivation).toMatchObject({ group: 'b', index: 1, inTest: true })
    const again = decider().decide({ token: TOKEN, cookies: browser.jar, userAgent: UA, site })
    expect(again.experiments).toEqual(browser.experiments)
  })

  it('a browser whose storage already has an id keeps it over the cookie, and the cookie follows the storage', async () => {
    const storage = memoryStorage()
    storage.setItem(DEVICE_KEY, 'storedid0000000000000000')
    const first = decider().decide({ token: TOKEN, cookies: undefined, userAgent: UA, site })
    const browser = await browserAnswer(asCookie(first.cookie!), storage)
    expect(storage.getItem(DEVICE_KEY)).toBe('storedid0000000000000000')
    expect(readVisitorGroups(browser.jar)!.id).toBe('storedid0000000000000000')
    expect(decider().decide({ token: TOKEN, cookies: browser.jar, userAgent: UA, site }).experiments).toEqual(browser.experiments)
  })

  it('no groups where the browser’s client decides none: no token, an inactive token, the disable cookie', () => {
    const groups = decider()
    expect(groups.decide({ token: undefined, cookies: undefined, userAgent: UA, site })).toEqual({ experiments: {} })
    expect(groups.decide({ token: 'parlay-retired-token', cookies: undefined, userAgent: UA, site })).toEqual({ experiments: {} })
    expect(groups.decide({ token: TOKEN, cookies: 'sigma_disabled=1', userAgent: UA, site })).toEqual({ experiments: {} })
  })

  it('a malformed or hostile cookie is ignored: a fresh id is minted, never an error', () => {
    const groups = decider()
    for (const cookies of [`${GROUPS_COOKIE}=%%%`, `${GROUPS_COOKIE}=1:x:y`, `${GROUPS_COOKIE}=${'a'.repeat(5000)}`, `${GROUPS_COOKIE}=1:abcdefgh12345678:constructor.0/toString.1`]) {
      const decided = groups.decide({ token: TOKEN, cookies, userAgent: UA, site })
      expect(Object.keys(decided.experiments), cookies).toContain('registrationMotivation')
    }
    // names of Object.prototype in the cookie are entries, not inherited members
    const hostile = groups.decide({ token: TOKEN, cookies: `${GROUPS_COOKIE}=1:abcdefgh12345678:constructor.0/toString.1`, userAgent: UA, site })
    expect(Object.keys(hostile.experiments)).not.toContain('constructor')
  })

  it('a cookie naming an index the experiment does not have renders "not in it", as the client reads it', () => {
    const decided = decider().decide({ token: TOKEN, cookies: `${GROUPS_COOKIE}=1:abcdefgh12345678:registrationMotivation.7`, userAgent: UA, site })
    expect(decided.experiments.registrationMotivation).toEqual({ group: '', index: -1, inTest: false, params: {} })
  })
})
