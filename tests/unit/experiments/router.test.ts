/**
 * The experiment service over real HTTP: express on 127.0.0.1, an ephemeral port, real fetch.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import express from 'express'
import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sigma } from '../../../kernel/experiments/client'
import { experimentContext } from '../../../kernel/experiments/context'
import { MESSAGES } from '../../../kernel/experiments/constants'
import { createExperimentsRouter, ExperimentsDocumentError, sha256Hex } from '../../../server/experiments'
import { manualClock, memoryStorage, noCookies, seededRandom } from './helpers'

const SCHEMAS = path.resolve(__dirname, '../../../schemas')
const TOKEN = 'parlay-web-demo-token'
const demo = () => JSON.parse(readFileSync(path.join(SCHEMAS, 'experiments/experiments.json'), 'utf8'))

/** The folders documentsDir made, removed after the file (temporary folders are in memory under vitest). */
const made: string[] = []
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A documents folder with the real schema and the given document. */
function documentsDir(document: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'parlay-experiments-'))
  made.push(dir)
  mkdirSync(path.join(dir, 'kinds'))
  mkdirSync(path.join(dir, 'experiments'))
  cpSync(path.join(SCHEMAS, 'kinds/experiments.schema.json'), path.join(dir, 'kinds/experiments.schema.json'))
  writeFileSync(path.join(dir, 'experiments/experiments.json'), JSON.stringify(document, null, 2))
  return dir
}

async function listen(router: express.Router): Promise<{ server: Server; api: string }> {
  const app = express()
  app.use('/experiments/api', router)
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return { server, api: `http://127.0.0.1:${port}/experiments/api` }
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

const SCRIPT = "document.documentElement.dataset.lobby = 'bold'"

let server: Server
let api: string
beforeAll(async () => {
  const doc = demo()
  doc.pages[0].rules[1].contentParams.contentHtml = '<strong>Weekly cashback</strong><img src=x onerror="alert(1)"><script>alert(2)</script>'
  doc.pages[0].globalJs = SCRIPT
  ;({ server, api } = await listen(
    createExperimentsRouter({ documentsDir: documentsDir(doc), pinnedGlobalJsSha256: [sha256Hex(SCRIPT)], now: () => 1_700_000_000_000 }),
  ))
})
afterAll(() => close(server))

const get = (url: string, headers: Record<string, string> = {}) => fetch(`${api}${url}`, { headers })
const sdkHeaders = { token: TOKEN, 'user-id': 'x'.repeat(80), 'sdk-name': 'js', 'sdk-version': '3.5.6' }

describe('GET {api}/config.json (spec §7)', () => {
  it('answers 200 with feature_flags and experiments, without tokens, pages or descriptions', async () => {
    const response = await get('/config.json', sdkHeaders)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/application\/json/)
    expect(response.headers.get('sdk-version')).toBe('3.5.6')
    expect(response.headers.get('server-time')).toBe('1700000000000')
    const body = await response.json()
    expect(Object.keys(body).sort()).toEqual(['experiments', 'feature_flags'])
    expect(JSON.stringify(body)).not.toContain(TOKEN)
    expect(JSON.stringify(body)).not.toContain('description')
    expect(body.feature_flags.map((f: { name: string }) => f.name)).toContain('quiz')
  })
  it("a missing token answers 400 'Please specify a token'", async () => {
    const response = await get('/config.json')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: MESSAGES.tokenRequired })
  })
  it('an unknown token answers 400 with the invalid-token message', async () => {
    const response = await get('/config.json', { ...sdkHeaders, token: 'not-a-token' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: MESSAGES.configUnavailable })
  })
  it("an inactive token answers 400 'Token is not active'", async () => {
    const response = await get('/config.json', { ...sdkHeaders, token: 'parlay-retired-token' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Token is not active' })
  })
})

describe('GET {api}/geo (spec §7)', () => {
  it('answers 200 with the geo the proxy reports', async () => {
    const response = await get('/geo', { ...sdkHeaders, 'cf-ipcountry': 'br', 'x-geo-city': 'Rio' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ code: 'BR', country: 'BR', city: 'Rio' })
  })
  it('answers 400 without geo, so the client stores none', async () => {
    expect((await get('/geo', sdkHeaders)).status).toBe(400)
  })
  it('refuses an inactive token', async () => {
    expect((await get('/geo', { ...sdkHeaders, token: 'parlay-retired-token', 'cf-ipcountry': 'BR' })).status).toBe(400)
  })
})

describe('GET {api}/pages.json?r= (spec §7): headers Content-Type, token, exp, group', () => {
  const pageHeaders = { 'Content-Type': 'application/json', token: TOKEN, exp: 'lobbyBanner', group: 'bold' }
  it("answers the group's pages with contentHtml passed through DOMPurify", async () => {
    const response = await get('/pages.json?r=12345', pageHeaders)
    expect(response.status).toBe(200)
    const { pages } = await response.json()
    expect(pages).toHaveLength(1)
    const html = pages[0].rules[1].contentParams.contentHtml as string
    expect(html).toContain('<strong>Weekly cashback</strong>')
    expect(html).not.toMatch(/onerror|<script|alert\(2\)/)
    expect(pages[0].globalJs).toBe(SCRIPT)
  })
  it('a group without pages answers 200 with none', async () => {
    const response = await get('/pages.json?r=1', { ...pageHeaders, group: 'control' })
    expect(await response.json()).toEqual({ pages: [] })
  })
  it('missing exp or group answers 400; an unknown experiment answers 400', async () => {
    expect((await get('/pages.json?r=1', { token: TOKEN, exp: 'lobbyBanner' })).status).toBe(400)
    expect((await get('/pages.json?r=1', { ...pageHeaders, exp: 'nope' })).status).toBe(400)
  })
  it('refuses a missing token', async () => {
    expect((await get('/pages.json?r=1', { exp: 'lobbyBanner', group: 'bold' })).status).toBe(400)
  })
})

describe('router creation checks the operator document (file + JSON pointer)', () => {
  const refusal = (mutate: (doc: ReturnType<typeof demo>) => void, options: { pinned?: string[] } = {}) => {
    const doc = demo()
    mutate(doc)
    const dir = documentsDir(doc)
    try {
      createExperimentsRouter({ documentsDir: dir, pinnedGlobalJsSha256: options.pinned })
    } catch (error) {
      expect(error).toBeInstanceOf(ExperimentsDocumentError)
      const e = error as ExperimentsDocumentError
      expect(e.file).toBe(path.join(dir, 'experiments/experiments.json'))
      return e
    }
    throw new Error('expected the router to refuse the document')
  }
  it('the demo document loads', () => {
    expect(() => createExperimentsRouter({ documentsDir: SCHEMAS })).not.toThrow()
  })
  it('a schema violation names its pointer', () => {
    const e = refusal((doc) => {
      doc.experiments[1].allocation = 140
    })
    expect(e.pointer).toBe('/experiments/1/allocation')
    expect(e.message).toContain('experiments.json#/experiments/1/allocation')
  })
  it('a feature flag needs exactly one default rule', () => {
    const e = refusal((doc) => {
      doc.feature_flags[3].rules.push({ id: 'second', value: 'false', is_default: true })
    })
    expect(e.pointer).toBe('/feature_flags/3/rules')
    expect(e.problem).toContain('exactly one default rule')
  })
  it('a private flag must carry MD5 digests, not raw values', () => {
    const e = refusal((doc) => {
      const qa = doc.feature_flags.find((f: { name: string }) => f.name === 'qaTools')
      qa.rules[0].conditions[0].value = ['qa-1001']
    })
    expect(e.pointer).toMatch(/^\/feature_flags\/\d+\/rules\/0\/conditions\/0\/value/)
  })
  it('a param value for an unknown group is refused', () => {
    const e = refusal((doc) => {
      doc.experiments[0].params[0].values[0].group = 'z'
    })
    expect(e.pointer).toBe('/experiments/0/params/0/values/0/group')
  })
  it('globalJs is refused unless its sha256 is pinned', () => {
    const e = refusal((doc) => {
      doc.pages[0].globalJs = 'alert(1)'
    })
    expect(e.pointer).toBe('/pages/0/globalJs')
    expect(e.problem).toContain(sha256Hex('alert(1)'))
    const doc = demo()
    doc.pages[0].globalJs = 'alert(1)'
    expect(() => createExperimentsRouter({ documentsDir: documentsDir(doc), pinnedGlobalJsSha256: [sha256Hex('alert(1)')] })).not.toThrow()
  })
})

describe('the SDK against the real service', () => {
  const client = (apiUrl: string, storage = memoryStorage(), clock = manualClock()) =>
    new Sigma({
      token: TOKEN,
      api: apiUrl,
      storage,
      now: clock.now,
      random: seededRandom(11),
      readCookie: noCookies,
      visitor: { userId: 'punter-77', deviceId: 'device-3' },
    })

  it('init loads geo (none without proxy headers) and config; the document context exposes flags and experiments', async () => {
    const sigma = client(api)
    const status = await sigma.init()
    expect(status).toMatchObject({ source: 'network', stale: false })
    expect(sigma.getVisitor().geo).toBe('none')
    const context = experimentContext(sigma)
    expect(context.flags).toMatchObject({
      realityCheck: true,
      promocode: true,
      search: true,
      quiz: true,
      userMessagesService: true,
      loyalty: true,
      ratingReward: false,
      hideNicknameFill: false,
      slipCode: false,
      cpf: false,
      rememberMe: true,
      copyPasteRestriction: false,
      gamblingTest: false,
      passwordChangeHistory: false,
    })
    expect(['a', 'b']).toContain(context.experiments.registrationMotivation.group)
    expect(context.experiments.registrationMotivation.inTest).toBe(context.experiments.registrationMotivation.group === 'b')
  })

  it('fetches web-builder pages for its group with exp and group headers', async () => {
    const sigma = client(api)
    await sigma.init()
    sigma.forceExperiment('lobbyBanner', 1)
    const pages = await sigma.fetchPages('lobbyBanner')
    expect(pages[0].rules[0]).toMatchObject({ path: '/casino/lobby' })
  })

  it('keeps the stale config when the service goes away, and throws only with nothing cached', async () => {
    const own = await listen(createExperimentsRouter({ documentsDir: SCHEMAS }))
    const storage = memoryStorage()
    const clock = manualClock()
    const sigma = client(own.api, storage, clock)
    await sigma.loadConfig()
    await close(own.server)
    clock.advance(10_000)
    const status = await sigma.loadConfig()
    expect(status).toMatchObject({ source: 'stale', stale: true, failureStatus: 400 })
    expect(sigma.getFlag('quiz')).toBe(true)
    const fresh = client(own.api)
    await expect(fresh.loadConfig()).rejects.toThrow('Sigma Error: Invalid token or configuration not published.')
  })
})

describe('CSP for pinned web-builder scripts', () => {
  it("gives the 'sha256-<base64>' source of each pinned script", async () => {
    const { pinnedScriptCspSources } = await import('../../../server/experiments')
    const { createHash } = await import('node:crypto')
    expect(pinnedScriptCspSources([sha256Hex(SCRIPT)])).toEqual([`'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`])
  })
})
