import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { Sigma } from '../../../kernel/experiments/client'
import { experimentContext } from '../../../kernel/experiments/context'
import { md5 } from '../../../kernel/experiments/conditions'
import type { ExperimentsConfig } from '../../../kernel/experiments/types'
import { fakeService, manualClock, memoryStorage, noCookies, seededRandom } from './helpers'

const demo = JSON.parse(readFileSync(path.resolve(__dirname, '../../../schemas/experiments/experiments.json'), 'utf8'))
const config: ExperimentsConfig = { feature_flags: demo.feature_flags, experiments: demo.experiments }

function sigmaFor(visitor: Record<string, unknown>, geo?: { code: string }) {
  return new Sigma({
    token: 'parlay-web-demo-token',
    api: '/experiments/api',
    storage: memoryStorage(),
    fetch: fakeService(config).fetch,
    now: manualClock().now,
    random: seededRandom(5),
    readCookie: noCookies,
    visitor,
    geo,
  })
}

describe('document context: flags.<name> and experiments.<name> (issue 5 wiring)', () => {
  it('is empty before any config, so expressions see empty maps', () => {
    expect(experimentContext(sigmaFor({ userId: 'u' }))).toEqual({ flags: {}, experiments: {} })
  })

  it("exposes every shared-config flag with the demo document's defaults", async () => {
    const sigma = sigmaFor({ userId: 'u' })
    await sigma.loadConfig()
    const { flags } = experimentContext(sigma)
    for (const name of [
      'realityCheck', 'promocode', 'search', 'quiz', 'userMessagesService', 'loyalty', 'ratingReward', 'hideNicknameFill',
      'slipCode', 'cpf', 'rememberMe', 'copyPasteRestriction', 'gamblingTest', 'passwordChangeHistory',
    ]) {
      expect(typeof flags[name], name).toBe('boolean')
    }
  })

  it('flags follow their rules: quiz off for Spain, cpf on for Brazil', async () => {
    const spain = sigmaFor({ userId: 'u' }, { code: 'ES' })
    await spain.loadConfig()
    expect(experimentContext(spain).flags.quiz).toBe(false)
    const brazil = sigmaFor({ userId: 'u' }, { code: 'BR' })
    await brazil.loadConfig()
    expect(experimentContext(brazil).flags).toMatchObject({ quiz: true, cpf: true })
  })

  it('a private flag matches the MD5 of the user id', async () => {
    const tester = sigmaFor({ userId: 'qa-1001' })
    await tester.loadConfig()
    expect(experimentContext(tester).flags.qaTools).toBe(true)
    const punter = sigmaFor({ userId: 'qa-9999' })
    await punter.loadConfig()
    expect(experimentContext(punter).flags.qaTools).toBe(false)
    expect(JSON.stringify(demo)).not.toContain('qa-1001')
    expect(JSON.stringify(demo)).toContain(md5('qa-1001'))
  })

  it('experiments.registrationMotivation has group, index, inTest and typed params', async () => {
    const sigma = sigmaFor({ userId: 'u' })
    await sigma.loadConfig()
    sigma.forceExperiment('registrationMotivation', 1)
    expect(experimentContext(sigma).experiments.registrationMotivation).toEqual({
      group: 'b',
      index: 1,
      inTest: true,
      params: { variant: 'b-test' },
    })
  })

  it("a flag linked to an experiment takes its group's value (depositCta)", async () => {
    const sigma = sigmaFor({ userId: 'u' })
    await sigma.loadConfig()
    sigma.forceExperiment('depositButtonWhenNotActive', 1)
    expect(experimentContext(sigma).flags.depositCta).toBe('Top up now')
    sigma.forceExperiment('depositButtonWhenNotActive', 0)
    expect(experimentContext(sigma).flags.depositCta).toBe('Deposit')
  })

  it('an experiment the visitor is not in appears with group "" and index -1', async () => {
    const sigma = sigmaFor({ userId: 'u' })
    await sigma.loadConfig()
    const context = experimentContext(sigma)
    expect(Object.keys(context.experiments).sort()).toEqual(
      ['depositButtonWhenNotActive', 'depositErrorHandling', 'lobbyBanner', 'registrationMotivation'],
    )
    const outside = structuredClone(config)
    outside.experiments.find((e) => e.name === 'lobbyBanner')!.allocation = 0
    const excluded = new Sigma({
      token: 'parlay-web-demo-token', api: '/x', storage: memoryStorage(), fetch: fakeService(outside).fetch,
      now: manualClock().now, random: seededRandom(5), readCookie: noCookies, visitor: { deviceId: 'd-1' },
    })
    await excluded.loadConfig()
    expect(experimentContext(excluded).experiments.lobbyBanner).toEqual({ group: '', index: -1, inTest: false, params: {} })
  })
})
