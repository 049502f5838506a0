/**
 * Loyalty over HTTP (issue 15 item 3, spec §3 loyalty active campaign and loyaltyAccountInfo, §6
 * "the loyalty campaign is loaded only for Curaçao and Russia"): campaigns from loyalty-campaign
 * documents, their texts by key for the asked locale, the account with its rules-acceptance step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { updateProfile } from '../../../server/punters/lookups'
import { findPunterByLogin } from '../../../server/punters/repository'
import { startMoneyServer, type MoneyServer } from '../payments/support'

let server: MoneyServer
beforeAll(async () => {
  server = await startMoneyServer() // clock: 2026-01-15T12:00Z
})
afterAll(async () => server?.dispose())

describe('the loyalty campaign runs where the jurisdiction document says', () => {
  it('Curaçao: the running campaign with its text keys; the bootstrap says the site loads it', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const campaigns = await server.call('GET', 'loyalty/active-campaigns', { hash })
    expect(campaigns.json.payload).toEqual([
      { id: 'season-race', landingUrl: '/account/loyalty', mainPrizeKey: 'loyalty.campaign.seasonRace.mainPrize', mainPrizeCardKey: 'loyalty.campaign.seasonRace.card', commonTitleKey: 'loyalty.campaign.seasonRace.title' },
    ])
    expect((await server.call('GET', '/api/site')).json.site.loyaltyCampaign).toBe(true)
    const prizes = await server.call('GET', 'loyalty/prizes', { hash })
    expect(prizes.json.payload[0]).toEqual({ id: 'free-bet-10', title: 'loyalty.prize.freeBet10', label: 'Free bet of 10', points: 1000, campaignId: 'season-race' })
  })

  it('Spain: no campaign is served and the bootstrap says not to load one', async () => {
    const hash = await server.login('spain@demo.parlay.test', 'spain')
    const campaigns = await server.call('GET', 'loyalty/active-campaigns', { hash, site: 'spain' })
    expect([campaigns.status, campaigns.json.errorCode]).toEqual([404, 'LOYALTY_CAMPAIGN_NOT_AVAILABLE'])
    expect((await server.call('GET', 'loyalty/prizes', { hash, site: 'spain' })).status).toBe(404)
    expect((await server.call('GET', '/api/site', { site: 'spain' })).json.site.loyaltyCampaign).toBe(false)
  })

  it('a campaign outside its start and end is not served', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    server.clock.now = Date.parse('2025-12-31T23:00:00Z')
    try {
      expect((await server.call('GET', 'loyalty/active-campaigns', { hash })).json.payload).toEqual([])
    } finally {
      server.clock.now = Date.parse('2026-01-15T12:00:00Z')
    }
  })
})

describe('localize/resources: texts by key for the Accept-Language locale', () => {
  it('answers the keys in Russian, falls back to the site default for a locale the site lacks, and refuses bad keys', async () => {
    const keys = ['loyalty.campaign.seasonRace.title', 'loyalty.campaign.seasonRace.mainPrize']
    const ru = await server.call('POST', '/uniweb-gate/localize/resources', { body: { keys }, headers: { 'accept-language': 'ru-RU,ru;q=0.9' } })
    expect(ru.json.payload).toEqual({ locale: 'ru', resources: { 'loyalty.campaign.seasonRace.title': 'Гонка сезона', 'loyalty.campaign.seasonRace.mainPrize': 'Главный приз: поездка на финал кубка для двоих' } })
    const da = await server.call('POST', '/uniweb-gate/localize/resources', { body: { keys: keys.slice(0, 1) }, headers: { 'accept-language': 'da' } })
    expect(da.json.payload).toEqual({ locale: 'en', resources: { 'loyalty.campaign.seasonRace.title': 'Season race' } })
    const bad = await server.call('POST', '/uniweb-gate/localize/resources', { body: { keys: ['<script>'] } })
    expect([bad.status, bad.json.errorCode]).toEqual([400, 'ValidationError'])
  })
})

describe('the loyalty account and its rules-acceptance step', () => {
  it('a punter asked to accept the rules accepts them once; balance, tier and bonusAvailable stay', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    const vip = (await findPunterByLogin(server.deps.data, 'curacao', 'email', 'vip@demo.parlay.test'))!
    await updateProfile(server.deps.data, vip.id, server.clock.now, (profile) => ({ ...profile, loyalty: { ...profile.loyalty!, needRequestRulesAcceptance: true } }))
    expect((await server.call('GET', 'loyalty/account', { hash })).json.payload).toEqual({ balance: 12_500, tier: 'VIP', bonusAvailable: true, needRequestRulesAcceptance: true })
    const accepted = await server.call('POST', 'loyalty/rules/accept', { hash })
    expect(accepted.json.payload).toEqual({ balance: 12_500, tier: 'VIP', bonusAvailable: true, needRequestRulesAcceptance: false })
    expect((await server.call('GET', 'heartbeat', { hash })).json.payload.loyaltyAccountInfo.needRequestRulesAcceptance).toBe(false)
    expect((await server.call('GET', 'loyalty/account')).status).toBe(401)
  })
})
