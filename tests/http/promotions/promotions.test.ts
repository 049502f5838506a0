/**
 * Promotions over HTTP (issue 15 items 4 and 5): promotion documents listed per site, product,
 * time and audience (spec §6: guests see promotions unless disabled for guests), the punter's
 * offers (GET bonus/ticket/active-campaigns), the promoParticipation event of a promo code, and a
 * promotion going live only through the operators' draft → lint → review → publish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMoneyServer, type MoneyServer } from '../payments/support'
import { COMPLIANCE, OPERATOR, signIn, type AdminClient } from '../admin/support'
import { punterEvents } from '../../../server/punters/events'

let server: MoneyServer
let operator: AdminClient
let compliance: AdminClient
const ids = (json: any) => (json.payload as { id: string }[]).map((p) => p.id)

beforeAll(async () => {
  server = await startMoneyServer()
  operator = await signIn(server, OPERATOR)
  compliance = await signIn(server, COMPLIANCE)
})
afterAll(() => server.dispose())

describe('promotions a site lists', () => {
  it('a guest sees the live promotions of the product, not the ones disabled for guests', async () => {
    const casino = await server.call('GET', '/api/promotions?product=casino')
    expect(casino.status).toBe(200)
    expect(ids(casino.json)).toEqual(['casino-welcome-package'])
    const all = ids((await server.call('GET', '/api/promotions')).json)
    expect(all).toContain('sport-accumulator-boost')
    expect(all).not.toContain('live-casino-weekly-cashback')
    expect((await server.call('GET', '/api/promotions/live-casino-weekly-cashback')).json).toEqual({ status: 'ERROR', errorCode: 'PROMOTION_NOT_FOUND' })
  })

  it('a logged-in punter also sees the promotions for logged-in punters only', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    expect(ids((await server.call('GET', 'bonus/promotions/live-casino', { hash })).json)).toEqual(['live-casino-weekly-cashback'])
    expect((await server.call('GET', 'bonus/promotions/detail/live-casino-weekly-cashback', { hash })).json.payload.title).toBe('Weekly live casino cashback')
    expect((await server.call('GET', 'bonus/promotions/poker', { hash })).json.errorCode).toBe('UNKNOWN_PRODUCT')
    expect((await server.call('GET', 'bonus/promotions')).status).toBe(401)
  })

  it('a promotion shows only on the sites it targets, in the asked locale, with its end and prize', async () => {
    expect(ids((await server.call('GET', '/api/promotions?product=toto')).json)).toEqual(['toto-jackpot'])
    expect(ids((await server.call('GET', '/api/promotions?product=toto', { site: 'spain' })).json)).toEqual([])
    const ru = (await server.call('GET', '/api/promotions/toto-jackpot?locale=ru')).json.payload
    expect(ru.title).toBe('Джекпот Тото 15')
    expect(ru.endsText).toMatch(/^До 30 июн\.? 2027/)
    expect(ru.prizeText).toMatch(/^Приз 100\s000,00\s€$/)
  })

  it('only promotions between their start and end are listed', async () => {
    const before = server.clock.now
    try {
      server.clock.now = Date.UTC(2025, 11, 31, 23)
      expect(ids((await server.call('GET', '/api/promotions')).json)).toEqual([])
      server.clock.now = Date.UTC(2027, 5, 30, 23, 58)
      const late = ids((await server.call('GET', '/api/promotions')).json)
      expect(late).not.toContain('esports-major-free-bet') // ended 31 March 2027
      expect(late).toContain('sport-accumulator-boost') // ends a minute later (23:59)
      expect(late).toContain('casino-welcome-package') // until the end of 2027
    } finally {
      server.clock.now = before
    }
  })

  it('bad queries get a 400 in the envelope, never a 500', async () => {
    for (const path of ['/api/promotions?product=poker', '/api/promotions?page=2', '/api/promotions?locale=RU!', '/api/promotions/casino-welcome-package?x=1']) {
      const res = await server.call('GET', path)
      expect(res.status, path).toBe(400)
      expect(res.json.status).toBe('ERROR')
    }
    expect((await server.call('GET', '/api/promotions/NOT%20AN%20ID')).status).toBe(404)
  })
})

describe('offers: bonus/ticket/active-campaigns and promo-code participation', () => {
  it('needs a session', async () => {
    expect((await server.call('GET', 'bonus/ticket/active-campaigns')).json).toEqual({ status: 'ERROR', errorCode: 'UNAUTHORIZED' })
  })

  it('a promo code of a live promotion makes the punter take part: promoParticipation is sent and the campaign comes first', async () => {
    const hash = await server.login('10000001')
    const before = (await server.call('GET', 'bonus/ticket/active-campaigns', { hash })).json.payload as { id: string; participating: boolean }[]
    expect(before.some((c) => c.participating)).toBe(false)
    expect(before.map((c) => c.id)).toContain('live-casino-weekly-cashback')
    const events: unknown[] = []
    const listener = (event: unknown) => events.push(event)
    punterEvents.on('promoParticipation', listener)
    try {
      expect((await server.call('POST', 'bonus/punter/promo-code/input', { hash, body: { promoCode: 'casino25' } })).status).toBe(200)
    } finally {
      punterEvents.off('promoParticipation', listener)
    }
    expect(events).toEqual([expect.objectContaining({ promoCode: 'CASINO25', promotionId: 'casino-welcome-package', product: 'casino' })])
    const after = (await server.call('GET', 'bonus/ticket/active-campaigns', { hash })).json.payload as { id: string; participating: boolean; subtitle: string }[]
    expect(after[0]).toMatchObject({ id: 'casino-welcome-package', participating: true })
    expect(after[0].subtitle).toMatch(/^You are taking part · /)
  })
})

describe('operators publish promotions through review', () => {
  const promotion = (over: Record<string, unknown> = {}) => ({
    $schema: '../kinds/promotion.schema.json',
    kind: 'promotion',
    id: 'casino-autumn-spins',
    product: 'casino',
    startsAt: '2026-01-10T00:00:00Z',
    endsAt: '2026-12-01T00:00:00Z',
    prize: { amount: 50, currency: 'EUR' },
    texts: Object.fromEntries(['en', 'ru', 'be', 'es', 'pt', 'da', 'it'].map((l) => [l, { title: `Autumn spins ${l}`, body: 'Fifty free spins.' }])),
    ...over,
  })

  it('the lint gate refuses a promotion that ends before it starts or lacks a locale of a site it targets', async () => {
    const draft = await operator.post('/admin/api/drafts', { file: 'promotions/casino-bad.json', content: JSON.stringify(promotion({ id: 'casino-bad', endsAt: '2026-01-01T00:00:00Z', texts: { en: { title: 'Bad', body: 'Bad' } } })) })
    expect(draft.status).toBe(201)
    const submitted = await operator.post(`/admin/api/versions/${draft.json().payload.id}/submit`)
    expect(submitted.status).toBe(422)
    const messages = JSON.stringify(submitted.json())
    expect(messages).toContain('before or when it starts')
    expect(messages).toContain('no da texts')
  })

  it('a new promotion is live only once approved and published; the review says what changed in words', async () => {
    const draft = await operator.post('/admin/api/drafts', { file: 'promotions/casino-autumn-spins.json', content: JSON.stringify(promotion(), null, 2) })
    const id = draft.json().payload.id as number
    expect((await operator.post(`/admin/api/versions/${id}/submit`)).status).toBe(200)
    expect(ids((await server.call('GET', '/api/promotions?product=casino')).json)).not.toContain('casino-autumn-spins')
    expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).status).toBe(200)
    expect((await operator.post(`/admin/api/versions/${id}/publish`)).status).toBe(200)
    expect(ids((await server.call('GET', '/api/promotions?product=casino')).json)).toContain('casino-autumn-spins')

    const change = await operator.post('/admin/api/drafts', { file: 'promotions/casino-autumn-spins.json', content: JSON.stringify(promotion({ endsAt: '2026-11-28T00:00:00Z', prize: { amount: 500, currency: 'EUR' } })) })
    const review = (await compliance.get(`/admin/api/versions/${change.json().payload.id}`)).json().payload
    const messages = (review.diff.findings as { message: string }[]).map((f) => f.message)
    expect(messages).toContain('promotion casino-autumn-spins: prize changed from 50 to 500 EUR')
    expect(messages).toContain('promotion casino-autumn-spins: ends earlier: 2026-12-01 → 2026-11-28')
  })
})
