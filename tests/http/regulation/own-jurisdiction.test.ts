/**
 * A logged-in punter's rules are the account's jurisdiction's, never the host's or the target
 * header's (issue 28 item 1; docs/adr/0001-punter-jurisdiction-is-the-accounts.md).
 *
 * For every jurisdiction's demo punter, every money and limit call is sent with every other
 * site's Host and with every other site's x-parlay-target header, and each answer must equal the
 * same call's answer on the punter's own host (the oracle), which is itself checked against the
 * numbers of the punter's jurisdiction document read from disk (the cooling-off hours, the payment
 * sources, the stake and payout bounds, the reality-check intervals, the self-exclusion periods).
 * Calls that change something are made repeatable (a raised limit is lowered again first, an
 * accepted deposit is cancelled at the provider) or compared from their second answer on.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, DEMO_PASSWORD, GATE } from '../../support/api'
import { rawRequest, SCHEMAS_DIR } from '../../support/server'
import { startBetsServer, type BetsServer } from '../bets/support'
import { openDemoPunter, SITES } from '../../support/sites'

interface Doc {
  id: string
  hosts: string[]
  defaultLocale: string
  currency: string
  payments: { sources: { id: string; currencies: string[]; minimum: number }[] }
  bonus?: { promoCodes?: { code: string; reward: Record<string, unknown> }[] }
  betting: { stake: { minimum: number; maximum: number }; maximumPayout: number; maximumDailyPayout: number }
  games: { stake: { minimum: number; maximum: number } }
  regulatory: { depositLimits?: { increaseTakesEffectAfterHours?: number }; limits?: { increaseWaitingHours?: number }; realityCheck?: { timeoutsMinutes?: number[] }; sessionReminder?: boolean; sessionReminderIntervalMinutes?: number }
}

const DOCS: Doc[] = readdirSync(join(SCHEMAS_DIR, 'jurisdictions')).map((id) => JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', id, 'jurisdiction.json'), 'utf8')))
const docOf = (id: string) => DOCS.find((d) => d.id === id)!
/** One open demo punter per jurisdiction (server/punters/demo.ts). */
const PUNTERS: Record<string, string> = Object.fromEntries(SITES.map((id) => [id, openDemoPunter(id)]))
const HOUR = 3_600_000
const CASINO_GATE = '/casino-gate/api/v1/'
const round2 = (n: number) => Math.round(n * 100) / 100

/** How a request names its site: a Host, and maybe a target header. */
interface Variant {
  name: string
  host: string
  target?: string
}

let server: BetsServer
let singles: { id: string; price: number }[]
const freshIp = addresses(27)
beforeAll(async () => {
  server = await startBetsServer()
  singles = await server.liveSelections(5)
}, 120_000)
afterAll(async () => server?.dispose())

interface Answer {
  status: number
  json: any
}

/** A call under a variant: its Host (with the port) and target header, the punter's session and language. */
async function call(variant: Variant, method: string, path: string, options: { hash?: string; body?: unknown; locale?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { host: `${variant.host}:${server.port}`, 'x-forwarded-for': freshIp() }
  if (variant.target) headers['x-parlay-target'] = variant.target
  if (options.hash) headers['punter-session-hash'] = options.hash
  if (options.locale) headers['accept-language'] = options.locale
  let body: string | undefined
  if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] = 'application/json'
  }
  const res = await rawRequest(server.port, { method, path: path.startsWith('/') ? path : GATE + path, headers, body })
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined }
}

/** Every other site's host, and every other site's header on the punter's own host. */
function otherVariants(own: Doc): Variant[] {
  const others = DOCS.filter((d) => d.id !== own.id)
  return [...others.map((d) => ({ name: `${d.id}'s host`, host: d.hosts[0] })), ...others.map((d) => ({ name: `${d.id}'s header`, host: own.hosts[0], target: d.id }))]
}

/** Removes what differs between two equal answers by nature (new ids, times, the running balance). */
function stable(answer: Answer, ...keys: string[]): Answer {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)).map(([k, v]) => [k, strip(v)]))
    return value
  }
  return { status: answer.status, json: strip(answer.json) }
}

async function login(own: Doc): Promise<string> {
  const res = await call({ name: 'own', host: own.hosts[0] }, 'POST', 'auth/v2/login', { body: { login: PUNTERS[own.id], password: DEMO_PASSWORD } })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return res.json.payload.punterHash
}

/** Cancels an accepted deposit at the provider and returns to the site: the payment is released. */
async function cancelDeposit(hash: string, own: Doc, answer: Answer) {
  if (answer.status !== 200) return
  const paymentId = answer.json.payload.paymentId as string
  await fetch(`${server.url}/dev/payments/checkout`, { method: 'POST', body: new URLSearchParams({ paymentId, action: 'cancel' }), redirect: 'manual' })
  const confirmed = await call({ name: 'own', host: own.hosts[0] }, 'POST', 'payments/deposit/confirm', { hash, body: { paymentId } })
  expect(confirmed.json.payload.status).toBe('abandoned')
}

type MoneyCall = { name: string; run(variant: Variant): Promise<Answer>; check?(own: Answer): void }

const methodIds = [...new Set(DOCS.flatMap((d) => d.payments.sources.map((s) => s.id)))]
const promoCodes = [...new Set(DOCS.flatMap((d) => (d.bonus?.promoCodes ?? []).map((p) => p.code)))]
const realityTimeouts = [...new Set(DOCS.flatMap((d) => d.regulatory.realityCheck?.timeoutsMinutes ?? []))].sort((a, b) => a - b)

/** The money and limit calls of a punter of `own`, each with its check of the own answer against the document. */
function moneyCalls(own: Doc, hash: string, offeredPeriods: string[], allPeriods: string[]): MoneyCall[] {
  const s = { hash, locale: own.defaultLocale }
  const hours = own.regulatory.depositLimits?.increaseTakesEffectAfterHours ?? own.regulatory.limits?.increaseWaitingHours ?? 24
  const { stake, maximumPayout } = own.betting
  const pick = (n: number) => singles.slice(0, n).map((x) => ({ selectionId: x.id, price: x.price }))
  let key = 0
  const bet = (v: Variant, kind: string, n: number, amount: number) =>
    call(v, 'POST', 'bets/place', { ...s, body: { kind, selections: pick(n), stake: amount, idempotencyKey: `own-${own.id}-${++key}` } })
  return [
    {
      name: 'deposit limits: lowered at once, raised after the cooling-off',
      run: async (v) => {
        const lowered = await call(v, 'PUT', 'payments/deposit-limits', { ...s, body: { daily: 100 } })
        const raised = await call(v, 'PUT', 'payments/deposit-limits', { ...s, body: { daily: 500 } })
        return { status: raised.status, json: [lowered.json, raised.json] }
      },
      check: (a) => {
        expect(a.json[1].payload.increaseTakesEffectAfterHours).toBe(hours)
        expect(a.json[1].payload.limits.find((l: { period: string }) => l.period === 'daily').pending.effectiveAt).toBe(new Date(server.clock.now + hours * HOUR).toISOString())
      },
    },
    { name: 'deposit limits', run: (v) => call(v, 'GET', 'payments/deposit-limits', s), check: (a) => expect(a.json.payload.currency).toBe(own.currency) },
    {
      name: 'a deposit over the daily limit',
      run: (v) => call(v, 'POST', 'payments/deposit', { ...s, body: { amount: 100.01, method: 'card' } }),
      check: (a) => expect(a.json).toMatchObject({ errorCode: 'DAILY_DEPOSIT_LIMIT_EXCEED', payload: { limit: 100 } }),
    },
    ...methodIds.map(
      (method): MoneyCall => ({
        name: `a deposit by ${method}`,
        run: async (v) => {
          const source = own.payments.sources.find((x) => x.id === method && x.currencies.includes(own.currency))
          const answer = await call(v, 'POST', 'payments/deposit', { ...s, body: { amount: source?.minimum ?? 20, method } })
          await cancelDeposit(hash, own, answer)
          return stable(answer, 'paymentId', 'redirectUrl')
        },
        check: (a) => expect(a.status).toBe(own.payments.sources.some((x) => x.id === method && x.currencies.includes(own.currency)) ? 200 : 400),
      }),
    ),
    {
      name: 'payment methods',
      run: (v) => call(v, 'GET', '/api/payments/methods', s),
      check: (a) => expect(a.json.payload.map((x: { id: string }) => x.id)).toEqual(own.payments.sources.map((x) => x.id)),
    },
    ...promoCodes
      .filter((code) => !(own.bonus?.promoCodes ?? []).some((p) => p.code === code))
      .map((code): MoneyCall => ({ name: `another jurisdiction's promo code ${code}`, run: (v) => call(v, 'POST', 'bonus/punter/promo-code/input', { ...s, body: { promoCode: code } }), check: (a) => expect(a.json.errorCode).toBe('INVALID_PROMO_CODE') })),
    { name: 'a stake above the maximum', run: (v) => bet(v, 'single', 1, round2(stake.maximum + 0.01)), check: (a) => expect(a.json).toMatchObject({ errorCode: 'STAKE_TOO_HIGH', payload: { limit: stake.maximum, currency: own.currency } }) },
    { name: 'a stake below the minimum', run: (v) => bet(v, 'single', 1, round2(stake.minimum - 0.01)), check: (a) => expect(a.json).toMatchObject({ errorCode: 'STAKE_TOO_LOW', payload: { limit: stake.minimum } }) },
    { name: 'a potential win above the maximum payout', run: (v) => bet(v, 'accumulator', 4, stake.maximum), check: (a) => expect(a.json).toMatchObject({ errorCode: 'PAYOUT_TOO_HIGH', payload: { limit: maximumPayout, currency: own.currency } }) },
    {
      name: 'an accepted bet',
      run: async (v) => stable(await bet(v, 'single', 1, stake.minimum), 'betId', 'createdAt', 'balance', 'cashOut'),
      check: (a) => expect(a.json.payload).toMatchObject({ stake: stake.minimum, potentialWin: round2(stake.minimum * singles[0].price), currency: own.currency, status: 'open' }),
    },
    { name: 'game launch', run: async (v) => stable(await call(v, 'GET', 'games/casino/book-of-ra', s), 'balance'), check: (a) => expect(a.json.payload.stake).toEqual(own.games.stake) },
    {
      name: 'a game stake above the maximum',
      run: (v) => call(v, 'POST', 'games/casino/book-of-ra/play', { ...s, body: { stake: round2(own.games.stake.maximum + 0.01), idempotencyKey: `game-${own.id}-${++key}` } }),
      check: (a) => expect(a.json).toMatchObject({ errorCode: 'STAKE_TOO_HIGH', payload: { limit: own.games.stake.maximum } }),
    },
    {
      name: 'reality-check intervals chosen, then read',
      run: async (v) => {
        const chosen: Answer[] = []
        for (const timeout of realityTimeouts) chosen.push(await call(v, 'POST', `${CASINO_GATE}realitycheck/punter/settings`, { ...s, body: { timeout } }))
        const read = await call(v, 'GET', `${CASINO_GATE}realitycheck/punter/settings`, s)
        return { status: read.status, json: [...chosen.map((c) => [c.status, c.json.errorCode ?? c.json.payload.timeout]), read.json] }
      },
      check: (a) => expect(a.json.at(-1).payload.timeouts).toEqual(own.regulatory.realityCheck?.timeoutsMinutes),
    },
    { name: 'self-exclusion options', run: (v) => call(v, 'GET', 'self-exclude/options', s), check: (a) => expect(a.json.payload.periods).toEqual(offeredPeriods) },
    {
      name: "self-exclusion periods the punter's jurisdiction does not offer",
      run: async (v) => {
        const periods = allPeriods.filter((p) => !offeredPeriods.includes(p))
        const answers = await Promise.all(periods.map((period) => call(v, 'POST', 'self-exclude/temporary', { ...s, body: { period } })))
        return { status: 200, json: answers.map((a) => [a.status, a.json]) }
      },
      check: (a) => a.json.forEach(([status, json]: [number, any]) => expect([status, json.errorCode, json.payload.allowed]).toEqual([400, 'SELF_EXCLUSION_NOT_OFFERED', offeredPeriods])),
    },
    {
      name: 'session reminder',
      run: (v) => call(v, 'GET', 'regulation/punter/session/notification', s),
      check: (a) => expect(a.json.payload.intervalMinutes).toBe(own.regulatory.sessionReminder ? own.regulatory.sessionReminderIntervalMinutes : null),
    },
    { name: 'restrictions', run: (v) => call(v, 'GET', 'regulation/punter/restrictions', s) },
  ]
}

/** The periods a jurisdiction offers as the self-exclusion screen gets them, asked as a guest on its own host. */
async function offeredPeriodsOf(own: Doc): Promise<string[]> {
  return (await call({ name: 'guest', host: own.hosts[0] }, 'GET', 'self-exclude/options')).json.payload.periods
}

describe("the reported cases: a punter's session sent through another site", () => {
  const spain = () => docOf('spain')
  const sevilla = async () => {
    const res = await call({ name: 'own', host: spain().hosts[0] }, 'POST', 'auth/v2/login', { body: { login: 'alert@demo.parlay.test', password: DEMO_PASSWORD } })
    return res.json.payload.punterHash as string
  }
  const everyOther = (own: Doc) => otherVariants(own)

  it("a Spanish punter (daily limit 600 EUR by Spain's document) cannot start a deposit of 1,000 EUR under any other site's host or header; 600 is taken", async () => {
    const hash = await sevilla()
    const defaults = (spain().regulatory.depositLimits as { defaults: { daily: number } }).defaults
    expect(defaults.daily).toBe(600)
    for (const variant of everyOther(spain())) {
      const refused = await call(variant, 'POST', 'payments/deposit', { hash, body: { amount: 1000, method: 'card' } })
      expect(refused.json, variant.name).toMatchObject({ errorCode: 'DAILY_DEPOSIT_LIMIT_EXCEED', payload: { period: 'daily', limit: 600, currency: 'EUR' } })
    }
    const taken = await call({ name: "curacao's header", host: spain().hosts[0], target: 'curacao' }, 'POST', 'payments/deposit', { hash, body: { amount: 600, method: 'card' } })
    expect(taken.status).toBe(200)
    await cancelDeposit(hash, spain(), taken)
  })

  it("a monthly raise asked under Curaçao's header waits Spain's 72 hours (Curaçao's would be 24)", async () => {
    const hash = await sevilla()
    expect(spain().regulatory.depositLimits?.increaseTakesEffectAfterHours).toBe(72)
    expect(docOf('curacao').regulatory.limits?.increaseWaitingHours).toBe(24)
    const raised = await call({ name: "curacao's header", host: spain().hosts[0], target: 'curacao' }, 'PUT', 'payments/deposit-limits', { hash, body: { monthly: 5000 } })
    expect(raised.json.payload.changes).toEqual({ monthly: 'pending' })
    const monthly = raised.json.payload.limits.find((l: { period: string }) => l.period === 'monthly')
    expect(monthly).toMatchObject({ amount: 3000, pending: { amount: 5000, effectiveAt: new Date(server.clock.now + 72 * HOUR).toISOString() } })
  })

  it("Curaçao's promo codes are refused to Spanish and Danish punters on Curaçao's host and under its header", async () => {
    const curacao = docOf('curacao')
    const codes = (curacao.bonus?.promoCodes ?? []).map((p) => p.code)
    expect(codes).toEqual(['SPORT10', 'CASINO25'])
    const danish = await call({ name: 'own', host: docOf('denmark').hosts[0] }, 'POST', 'auth/v2/login', { body: { login: PUNTERS.denmark, password: DEMO_PASSWORD } })
    for (const [hash, own] of [[await sevilla(), spain()], [danish.json.payload.punterHash, docOf('denmark')]] as const)
      for (const variant of [{ name: "curacao's host", host: curacao.hosts[0] }, { name: "curacao's header", host: own.hosts[0], target: 'curacao' }])
        for (const promoCode of codes) expect((await call(variant, 'POST', 'bonus/punter/promo-code/input', { hash, body: { promoCode } })).json.errorCode, `${own.id} ${promoCode} via ${variant.name}`).toBe('INVALID_PROMO_CODE')
  })

  it("the language asked for is kept when the punter's own site offers it, else the own site's", async () => {
    const hash = await sevilla()
    await call({ name: 'own', host: spain().hosts[0] }, 'PUT', 'payments/deposit-limits', { hash, body: { weekly: 1000 } })
    await call({ name: 'own', host: spain().hosts[0] }, 'PUT', 'payments/deposit-limits', { hash, body: { weekly: 1400 } })
    const weeklyText = async (variant: Variant, locale: string) =>
      (await call(variant, 'GET', 'payments/deposit-limits', { hash, locale })).json.payload.limits.find((l: { period: string }) => l.period === 'weekly').pending.effectiveAtText as string
    expect(await weeklyText({ name: "denmark's host", host: docOf('denmark').hosts[0] }, 'es')).toMatch(/ ene /) // Spanish asked, Spain offers it
    expect(await weeklyText({ name: "curacao's host", host: docOf('curacao').hosts[0] }, 'en')).toMatch(/^Jan /) // English asked, Spain offers it
    expect(await weeklyText({ name: "denmark's host", host: docOf('denmark').hosts[0] }, 'da')).toMatch(/ ene /) // Danish: not Spain's, so Spain's own
  })

  it('guest calls and the documents a page renders still follow the host', async () => {
    const hash = await sevilla()
    const denmark: Variant = { name: "denmark's host", host: docOf('denmark').hosts[0] }
    const ids = (answer: Answer) => answer.json.payload.map((x: { id: string }) => x.id)
    expect(ids(await call(denmark, 'GET', '/api/payments/methods'))).toEqual(docOf('denmark').payments.sources.map((x) => x.id))
    expect(ids(await call(denmark, 'GET', '/api/payments/methods', { hash }))).toEqual(spain().payments.sources.map((x) => x.id))
    expect((await call(denmark, 'GET', 'dictionary/settings', { hash })).json.payload.jurisdiction).toBe('denmark')
  })
})

describe.each(DOCS.map((d) => d.id))("the %s punter's money and limit calls answer by the account's jurisdiction under every other host and header", (id) => {
  it('every call answers as on the own host', async () => {
    const own = docOf(id)
    const hash = await login(own)
    const ownSite: Variant = { name: 'own host', host: own.hosts[0] }
    // a daily limit of 100 in force, so every run of the limit calls starts from the same state
    expect((await call(ownSite, 'PUT', 'payments/deposit-limits', { hash, body: { daily: 100 } })).status).toBe(200)
    const allPeriods = [...new Set((await Promise.all(DOCS.map(offeredPeriodsOf))).flat())]
    for (const moneyCall of moneyCalls(own, hash, await offeredPeriodsOf(own), allPeriods)) {
      const expected = await moneyCall.run(ownSite)
      moneyCall.check?.(expected)
      for (const variant of otherVariants(own)) expect(await moneyCall.run(variant), `${moneyCall.name} via ${variant.name}`).toEqual(expected)
    }
  }, 240_000)

  it("the punter's own promo codes are accepted under another site's header and count once; a self-exclusion period only the own jurisdiction offers is taken under another site's host", async () => {
    const own = docOf(id)
    const hash = await login(own)
    const [first, ...rest] = otherVariants(own).reverse() // headers first
    for (const promo of own.bonus?.promoCodes ?? []) {
      const accepted = await call(first, 'POST', 'bonus/punter/promo-code/input', { hash, body: { promoCode: promo.code } })
      expect(accepted.json.payload, `${promo.code} via ${first.name}`).toMatchObject({ promoCode: promo.code, reward: promo.reward })
      for (const variant of [{ name: 'own host', host: own.hosts[0] }, ...rest])
        expect((await call(variant, 'POST', 'bonus/punter/promo-code/input', { hash, body: { promoCode: promo.code } })).json.errorCode).toBe('PROMO_CODE_ALREADY_USED')
    }
    const offered = await offeredPeriodsOf(own)
    const site = (
      await Promise.all(
        DOCS.filter((d) => d.id !== id).map(async (d) => ({ d, periods: await offeredPeriodsOf(d) })),
      )
    ).find(({ periods }) => offered.some((p) => !periods.includes(p)))!
    const period = offered.find((p) => !site.periods.includes(p))!
    const excluded = await call({ name: `${site.d.id}'s host`, host: site.d.hosts[0] }, 'POST', 'self-exclude/temporary', { hash, body: { period } })
    expect(excluded.status, `${period} via ${site.d.id}'s host: ${JSON.stringify(excluded.json)}`).toBe(200)
    expect(excluded.json.payload.selfExcludeSettings).toMatchObject({ permanent: false })
  })
})
