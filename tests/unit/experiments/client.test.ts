import { describe, expect, it } from 'vitest'
import { Sigma, SigmaError, isEditorMode, type SigmaOptions } from '../../../kernel/experiments/client'
import { MESSAGES, SDK_VERSION, STORAGE_KEYS } from '../../../kernel/experiments/constants'
import type { ExperimentsConfig } from '../../../kernel/experiments/types'
import { fakeService, manualClock, memoryStorage, noCookies, seededRandom, twoGroupExperiment } from './helpers'

const DAY = 86_400_000

const baseConfig: ExperimentsConfig = {
  feature_flags: [
    { name: 'quiz', type: 'bool', rules: [{ id: 1, value: 'true', is_default: true }] },
    {
      name: 'cpf',
      type: 'bool',
      rules: [
        { id: 1, value: 'true', is_default: false, conditions: [{ name: 'geo.code', value: 'BR', condition_sign: 'equal' }] },
        { id: 2, value: 'false', is_default: true },
      ],
    },
    { name: 'broken', type: 'bool', rules: [{ id: 1, value: 'true', is_default: false }] },
  ],
  experiments: [
    twoGroupExperiment('registrationMotivation'),
    twoGroupExperiment('depositButtonWhenNotActive'),
    twoGroupExperiment('depositErrorHandling'),
    twoGroupExperiment('byDevice', { split_by: 'deviceId' }),
    twoGroupExperiment('byProfile', { split_by: 'profileId' }),
    twoGroupExperiment('splitUrlOnly', { platforms: ['spliturl'], redirection: { groups: [{ name: 'a', url: '/a' }, { name: 'b', url: '/b' }] } }),
    twoGroupExperiment('redirect', { redirection: { groups: [{ name: 'a', url: '/join?a' }, { name: 'b', url: '/join?b' }] } }),
  ],
}

function setup(overrides: Partial<SigmaOptions> = {}, config: ExperimentsConfig = baseConfig) {
  const storage = memoryStorage()
  const clock = manualClock()
  const service = fakeService(structuredClone(config))
  const make = (more: Partial<SigmaOptions> = {}) =>
    new Sigma({
      token: 'parlay-web-demo-token',
      api: '/experiments/api',
      storage,
      fetch: service.fetch,
      now: clock.now,
      random: seededRandom(7),
      readCookie: noCookies,
      visitor: { userId: 'punter-1' },
      ...overrides,
      ...more,
    })
  return { storage, clock, service, make, sigma: make() }
}

const configCalls = (calls: Array<{ url: string }>) => calls.filter((c) => c.url.includes('/config.json')).length

describe('init checks (spec §4, §8)', () => {
  it.each([undefined, null, '', '   '])("refuses a missing or falsy token (%j) with 'Please specify a token'", (token) => {
    expect(() => setup({ token })).toThrow(MESSAGES.tokenRequired)
  })
  it("refuses to start when the disable cookie is set: 'Sigma was disabled'", () => {
    expect(() => setup({ readCookie: (name) => (name === 'sigma_disabled' ? '1' : undefined) })).toThrow(MESSAGES.disabled)
  })
  it("refuses to start without browser storage: 'Too bad, no localStorage for us'", () => {
    expect(() => setup({ storage: null })).toThrow(MESSAGES.noStorage)
    // Node has no localStorage: the default storage is missing too.
    expect(() => setup({ storage: undefined })).toThrow(MESSAGES.noStorage)
  })
  it('errors are SigmaError with a stable code', () => {
    try {
      setup({ token: '' })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(SigmaError)
      expect((error as SigmaError).code).toBe('tokenRequired')
    }
  })
})

describe('requests (spec §7): headers token, user-id, sdk-name js, sdk-version 3.5.6', () => {
  it('sends the private id as user-id on config.json and geo', async () => {
    const { sigma, service } = setup()
    await sigma.init()
    expect(service.calls.map((c) => new URL(c.url, 'http://x').pathname)).toEqual(['/experiments/api/geo', '/experiments/api/config.json'])
    for (const call of service.calls) {
      expect(call.headers).toMatchObject({ token: 'parlay-web-demo-token', 'user-id': sigma.privateId, 'sdk-name': 'js', 'sdk-version': SDK_VERSION })
    }
    expect(SDK_VERSION).toBe('3.5.6')
  })
  it('skips the geo call when the host supplies geo', async () => {
    const { sigma, service } = setup({ geo: { code: 'ES' } })
    await sigma.init()
    expect(service.calls.some((c) => c.url.endsWith('/geo'))).toBe(false)
    expect(sigma.attributes()['geo.code']).toBe('ES')
  })
  it("geo failure stores location 'none' and continues", async () => {
    const { sigma, service, storage } = setup()
    service.geo = 'fail'
    const status = await sigma.init()
    expect(status.source).toBe('network')
    expect(storage.getItem(STORAGE_KEYS.geo)).toBe('none')
    expect(sigma.getVisitor().geo).toBe('none')
    expect(sigma.getFlag('cpf')).toBe(false)
  })
  it('retries a failed fetch twice (three attempts) and not a 4xx answer', async () => {
    const { sigma, service } = setup({ geo: { code: 'BR' } })
    service.mode = 'network'
    await expect(sigma.loadConfig()).rejects.toThrow(MESSAGES.configUnavailable)
    expect(configCalls(service.calls)).toBe(3)
    service.calls.length = 0
    service.mode = 400
    await expect(sigma.loadConfig()).rejects.toThrow(MESSAGES.configUnavailable)
    expect(configCalls(service.calls)).toBe(1)
  })
})

describe('private id and user agent (spec §3, §9)', () => {
  it('the private id is 80 random alphanumeric characters, kept across instances', () => {
    const { sigma, make, storage } = setup()
    expect(sigma.privateId).toMatch(/^[A-Za-z0-9]{80}$/)
    expect(storage.getItem(STORAGE_KEYS.privateId)).toBe(sigma.privateId)
    expect(make().privateId).toBe(sigma.privateId)
  })
  it('the user agent is truncated at 350 characters', () => {
    const ua = `Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) ${'x'.repeat(500)}`
    const { sigma } = setup({ userAgent: ua })
    expect(sigma.userAgent).toHaveLength(350)
    expect(sigma.getVisitor()).toMatchObject({ os: { name: 'iOS', version: '17.2' }, deviceCategory: 'mobile' })
  })
})

describe('config cache (spec §4, §5): TTL at least 10 s, hash stored only when changed', () => {
  it('a TTL under 10 s becomes 10 s; the default is 10 s', () => {
    expect(setup({ cacheTtlSeconds: 3 }).sigma.cacheTtlMs).toBe(10_000)
    expect(setup().sigma.cacheTtlMs).toBe(10_000)
    expect(setup({ cacheTtlSeconds: 60 }).sigma.cacheTtlMs).toBe(60_000)
  })
  it('uses the cache while younger than the TTL and refetches at the TTL', async () => {
    const { sigma, service, clock } = setup({ cacheTtlSeconds: 1 })
    await sigma.loadConfig()
    clock.advance(9_999)
    expect((await sigma.loadConfig()).source).toBe('cache')
    expect(configCalls(service.calls)).toBe(1)
    clock.advance(1)
    expect((await sigma.loadConfig()).source).toBe('network')
    expect(configCalls(service.calls)).toBe(2)
  })
  it('stores the data file and hash only when the config hash changed; the update time every fetch', async () => {
    const { sigma, service, clock, storage } = setup()
    await sigma.loadConfig()
    const hash = storage.getItem(STORAGE_KEYS.configHash)
    expect(hash).toMatch(/^[0-9a-f]{32}$/)
    storage.writes.length = 0
    clock.advance(10_000)
    await sigma.loadConfig()
    expect(storage.writes).toEqual([STORAGE_KEYS.lastUpdateTime])
    expect(storage.getItem(STORAGE_KEYS.lastUpdateTime)).toBe(String(clock.now()))
    ;(service.config as ExperimentsConfig).feature_flags[0].rules[0].value = 'false'
    clock.advance(10_000)
    storage.writes.length = 0
    await sigma.loadConfig()
    expect(storage.writes).toEqual([STORAGE_KEYS.dataFile, STORAGE_KEYS.configHash, STORAGE_KEYS.lastUpdateTime])
    expect(storage.getItem(STORAGE_KEYS.configHash)).not.toBe(hash)
    expect(sigma.getFlag('quiz')).toBe(false)
  })
  it('a new instance starts from the cached config before any fetch', async () => {
    const { sigma, make } = setup()
    await sigma.loadConfig()
    const second = make()
    expect(second.status.source).toBe('cache')
    expect(second.getFlag('quiz')).toBe(true)
  })
})

describe('failure behaviour (spec §8): stale cache, not thrown', () => {
  it('a failed fetch with a cached config keeps the last good config and reports stale with status 400', async () => {
    const { sigma, service, clock } = setup()
    await sigma.loadConfig()
    service.mode = 'network'
    clock.advance(10_000)
    const status = await sigma.loadConfig()
    expect(status).toMatchObject({ source: 'stale', stale: true, failureStatus: 400 })
    expect(sigma.getFlag('quiz')).toBe(true)
  })
  it("the server's refusal is kept as lastError ('Token is not active') while stale", async () => {
    const { sigma, service, clock } = setup()
    await sigma.loadConfig()
    service.mode = 400
    clock.advance(10_000)
    expect((await sigma.loadConfig()).lastError).toBe(MESSAGES.tokenNotActive)
  })
  it("with nothing cached a failed fetch throws 'Sigma Error: Invalid token or configuration not published.'", async () => {
    const { sigma, service } = setup()
    service.mode = 'network'
    await expect(sigma.loadConfig()).rejects.toThrow('Sigma Error: Invalid token or configuration not published.')
    expect(sigma.status).toMatchObject({ source: 'none', failureStatus: 400 })
  })
  it("a config that is not an object of arrays is 'Bad config.json'", async () => {
    const { sigma, service } = setup()
    service.config = '{"feature_flags": 3}'
    await expect(sigma.loadConfig()).rejects.toThrow(MESSAGES.configUnavailable)
    expect(sigma.status.lastError).toBe(MESSAGES.badConfig)
    service.config = 'not json'
    await expect(sigma.loadConfig()).rejects.toThrow(MESSAGES.configUnavailable)
    expect(sigma.status.lastError).toBe('Bad config.json')
  })
  it("asking for an experiment before any config throws 'Experiments not found in cache'", () => {
    const { sigma } = setup()
    expect(() => sigma.getExperiment('registrationMotivation')).toThrow(MESSAGES.experimentsNotCached)
  })
})

describe('feature flags (spec §5)', () => {
  it('a flag evaluates by rules and its default rule', async () => {
    const { sigma } = setup({ geo: { code: 'BR' } })
    await sigma.init()
    expect(sigma.getFlag('quiz')).toBe(true)
    expect(sigma.getFlag('cpf')).toBe(true)
  })
  it('a flag without exactly one default rule does not evaluate', async () => {
    const { sigma } = setup()
    await sigma.loadConfig()
    expect(sigma.evaluateFlag('broken')).toEqual({ ok: false, code: 'DEFAULT_RULE_COUNT' })
    expect(sigma.getFlag('broken')).toBeUndefined()
    expect(sigma.evaluateFlag('missing')).toEqual({ ok: false, code: 'FLAG_NOT_FOUND' })
  })
})

describe('forced experiments (spec §4)', () => {
  it('forcing a group index puts the visitor in that group and is stored as (experimentId, groupIndex)', async () => {
    const { sigma, storage } = setup()
    await sigma.loadConfig()
    const natural = sigma.getExperiment('registrationMotivation').index
    sigma.forceExperiment('registrationMotivation', 1 - natural)
    expect(sigma.getExperiment('registrationMotivation')).toMatchObject({ index: 1 - natural, reason: 'forced' })
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.forcedExperiments)!)).toEqual([
      { experimentId: 'registrationMotivation', groupIndex: 1 - natural },
    ])
  })
  it('excluding one force ends it, clears the config hash and refetches even within the TTL', async () => {
    const { sigma, service, storage } = setup()
    await sigma.loadConfig()
    const natural = sigma.getExperiment('registrationMotivation').index
    sigma.forceExperiment('registrationMotivation', 1 - natural)
    sigma.forceExperiment('depositErrorHandling', 0)
    storage.writes.length = 0
    await sigma.excludeForced('registrationMotivation')
    expect(configCalls(service.calls)).toBe(2)
    expect(storage.writes).toContain(STORAGE_KEYS.configHash)
    expect(sigma.forcedExperiments()).toEqual([{ experimentId: 'depositErrorHandling', groupIndex: 0 }])
    expect(sigma.getExperiment('registrationMotivation')).toMatchObject({ index: natural })
  })
  it('excluding all forces clears the list', async () => {
    const { sigma, service } = setup()
    await sigma.loadConfig()
    sigma.forceExperiment('registrationMotivation', 1)
    sigma.forceExperiment('depositErrorHandling', 0)
    await sigma.excludeForced()
    expect(sigma.forcedExperiments()).toEqual([])
    expect(configCalls(service.calls)).toBe(2)
  })
  it('a force survives config reloads (re-applied)', async () => {
    const { sigma, clock } = setup()
    await sigma.loadConfig()
    sigma.forceExperiment('registrationMotivation', 1)
    clock.advance(10_000)
    await sigma.loadConfig()
    expect(sigma.getExperiment('registrationMotivation').index).toBe(1)
  })
})

describe('sticky assignment per experiment (spec §4)', () => {
  it('an assignment stays when the config changes its weights', async () => {
    const { sigma, service, clock } = setup()
    await sigma.loadConfig()
    const first = sigma.getExperiment('registrationMotivation')
    const config = service.config as ExperimentsConfig
    const experiment = config.experiments[0]
    experiment.groups = experiment.groups.map((g, i) => ({ ...g, weight: i === first.index ? 0 : 100 }))
    experiment.allocation = 1
    clock.advance(10_000)
    await sigma.loadConfig()
    expect(sigma.getExperiment('registrationMotivation')).toMatchObject({ index: first.index, reason: 'sticky' })
  })
  it('another punter on the same device is assigned afresh', async () => {
    const { sigma } = setup()
    await sigma.loadConfig()
    sigma.getExperiment('registrationMotivation')
    sigma.setVisitor({ userId: 'punter-2' })
    expect(sigma.getExperiment('registrationMotivation').reason).toBe('assigned')
  })
})

describe('visitor identifiers expire after 86 400 000 ms (spec §4, §9)', () => {
  it('a userId set a day ago no longer counts and the private id is used', async () => {
    const { sigma, clock } = setup()
    await sigma.loadConfig()
    expect(sigma.attributes().userId).toBe('punter-1')
    clock.advance(DAY - 1)
    expect(sigma.attributes().userId).toBe('punter-1')
    clock.advance(1)
    expect(sigma.attributes().userId).toBeUndefined()
    const experiment = sigma.config!.experiments[0]
    expect(sigma.unitId(experiment)).toBe(sigma.privateId)
  })
  it('setting the identifier again restarts its day', () => {
    const { sigma, clock } = setup()
    clock.advance(DAY)
    sigma.patchVisitor({ userId: 'punter-1' })
    clock.advance(DAY - 1)
    expect(sigma.attributes().userId).toBe('punter-1')
  })
})

describe('split_by (spec §3): userId by default, profileId, deviceId', () => {
  it('uses the id named by split_by', async () => {
    const { sigma } = setup({ visitor: { userId: 'u', deviceId: 'd', profileId: 'p' } })
    await sigma.loadConfig()
    const experiments = sigma.config!.experiments
    expect(sigma.unitId(experiments[0])).toBe('u')
    expect(sigma.unitId(experiments.find((e) => e.name === 'byDevice')!)).toBe('d')
    expect(sigma.unitId(experiments.find((e) => e.name === 'byProfile')!)).toBe('p')
  })
  it('ids are trimmed strings', async () => {
    const { sigma } = setup({ visitor: { userId: '  u-7  ' } })
    expect(sigma.attributes().userId).toBe('u-7')
  })
})

describe('the three product experiments (spec §4): test group when the param value starts with b', () => {
  it.each(['depositButtonWhenNotActive', 'registrationMotivationIncrease', 'depositErrorHandling'] as const)(
    '%s returns inTest and the group index',
    async (key) => {
      const { sigma } = setup()
      await sigma.loadConfig()
      const experiment = key === 'registrationMotivationIncrease' ? 'registrationMotivation' : key
      sigma.forceExperiment(experiment, 1)
      expect(sigma.checkProductExperiment(key)).toEqual({ inTest: true, groupIndex: 1 })
      sigma.forceExperiment(experiment, 0)
      expect(sigma.checkProductExperiment(key)).toEqual({ inTest: false, groupIndex: 0 })
    },
  )
})

describe('platforms and redirection (spec §3)', () => {
  it('an experiment for split url only does not apply on web', async () => {
    const { sigma } = setup()
    await sigma.loadConfig()
    expect(sigma.getExperiment('splitUrlOnly')).toMatchObject({ inExperiment: false, reason: 'platform' })
    expect(sigma.getRedirect('splitUrlOnly')).toBeNull()
  })
  it("redirection gives the url of the visitor's group", async () => {
    const { sigma } = setup()
    await sigma.loadConfig()
    const { group } = sigma.getExperiment('redirect')
    expect(sigma.getRedirect('redirect')).toBe(`/join?${group}`)
  })
})

describe('editor mode (spec §6)', () => {
  it('is marked by the editor query parameter with value start', () => {
    expect(isEditorMode('?editor=start')).toBe(true)
    expect(isEditorMode('?editor=stop')).toBe(false)
    expect(isEditorMode('')).toBe(false)
  })
})

describe('custom properties (spec §5): the name must be a string', () => {
  it('stores a custom property under a string name and refuses any other name', () => {
    const { sigma } = setup()
    expect(sigma.setCustomProperty('vip', true)).toEqual({ ok: true })
    expect(sigma.attributes()['custom.vip']).toBe('true')
    expect(sigma.setCustomProperty(42, true)).toEqual({ ok: false, code: 'CUSTOM_NAME_NOT_STRING' })
    expect(sigma.setCustomProperty(undefined, true)).toEqual({ ok: false, code: 'CUSTOM_NAME_NOT_STRING' })
  })
})

describe("forced users (spec §3 group forced_user_list)", () => {
  it('a forced user is in that group, and returns to the natural group once the operator lifts it', async () => {
    const config = structuredClone(baseConfig)
    const { sigma: probe } = setup({}, config)
    await probe.loadConfig()
    const natural = probe.getExperiment('registrationMotivation').index
    const forcedIndex = 1 - natural
    config.experiments[0].groups[forcedIndex].forced_user_list = ['punter-1']
    const { sigma, service, clock } = setup({}, config)
    await sigma.loadConfig()
    expect(sigma.getExperiment('registrationMotivation')).toMatchObject({ index: forcedIndex, reason: 'forcedUser' })
    delete (service.config as ExperimentsConfig).experiments[0].groups[forcedIndex].forced_user_list
    clock.advance(10_000)
    await sigma.loadConfig()
    expect(sigma.getExperiment('registrationMotivation')).toMatchObject({ index: natural, reason: 'assigned' })
  })
})
