/**
 * `npm run bench interactions` (issue 33 item 2): what a punter's taps and keys cost after the
 * first load. Chromium at 360×740 with the CPU slowed 4× goes through the betting loop and the
 * casino — a pick from home and from live, opening the slip, a stake typed, a price change
 * accepted, a bet placed, My bets opened, the odds format switched, the login popup opened and
 * closed, a search typed in the casino lobby — and each interaction's latency is read as Event
 * Timing reports it (INP's definition), 20 of each: median, p75 and worst. Beside them in the same
 * run, a bare React page (a list of price buttons whose tap updates a store and re-renders a slip,
 * a stake input) doing the same state change. Asserts nothing.
 */
import type { Page } from 'playwright-core'
import { GATE, interactionLatency, loadAverage, logIn, phonePage, spread, startBenchSite, type BenchSite } from './browser-site'

const REPEATS = Number(process.env.PARLAY_BENCH_REPEATS ?? 20)
const BARE = 'bare-interactions'

/** The bare page: 30 events of three prices; a tap toggles the pick in a store (useSyncExternalStore,
 * as the engine's stores are read) and the slip below lists the picks; a stake input re-renders
 * the potential win. */
const BARE_INTERACTIONS = `import { useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
let state = { picks: [], stake: '' }
const listeners = new Set()
const set = (next) => { state = { ...state, ...next }; for (const l of listeners) l() }
const subscribe = (l) => (listeners.add(l), () => listeners.delete(l))
const useSlip = (select) => useSyncExternalStore(subscribe, () => select(state))
const EVENTS = Array.from({ length: 30 }, (_, i) => ({ id: 'e' + i, name: 'Team ' + i + ' v Team ' + (i + 30), prices: [1.5 + i / 10, 3.4, 2.5 + i / 20] }))
function Price({ id, price }) {
  const picked = useSlip((s) => s.picks.some((p) => p.id === id))
  return <li><button type="button" data-selection-id={id} aria-pressed={picked} onClick={() => set({ picks: picked ? state.picks.filter((p) => p.id !== id) : [...state.picks, { id, price }] })}><span>{id}</span><span>{price.toFixed(2)}</span></button></li>
}
function Slip() {
  const picks = useSlip((s) => s.picks)
  const stake = useSlip((s) => s.stake)
  const odds = picks.reduce((n, p) => n * p.price, 1)
  return <aside data-testid="slip"><p data-count={picks.length}>{picks.length} picks</p><ul>{picks.map((p) => <li key={p.id}>{p.id} {p.price.toFixed(2)}</li>)}</ul>
    <input data-testid="stake" inputMode="decimal" value={stake} onChange={(e) => set({ stake: e.target.value })} />
    <output>{(Number(stake || 0) * odds).toFixed(2)}</output></aside>
}
function App() {
  return <main>{EVENTS.map((e) => <section key={e.id}><h3>{e.name}</h3><ul>{e.prices.map((p, i) => <Price key={i} id={e.id + '-' + i} price={p} />)}</ul></section>)}<Slip /></main>
}
createRoot(document.getElementById('root')).render(<App />)
`

type Samples = Record<string, number[]>

async function repeat(samples: Samples, name: string, once: (i: number) => Promise<number | number[] | void>) {
  const list = (samples[name] ??= [])
  for (let i = 0; i < REPEATS; i++) {
    const got = await once(i)
    if (typeof got === 'number') list.push(got)
  }
  process.stdout.write(`  ${name}: ${list.length} measured\n`)
}

async function bare(site: BenchSite, samples: Samples) {
  const { context, page } = await phonePage(site)
  await page.goto(`${site.base}/${BARE}/index.html`)
  const button = page.locator('button[data-selection-id="e3-0"]')
  await repeat(samples, 'bare: tap a price (store + slip re-render)', async () => {
    const ms = await interactionLatency(page, () => button.click())
    await button.click()
    return ms
  })
  const stake = page.getByTestId('stake')
  await repeat(samples, 'bare: type a digit in the stake', async (i) => {
    await stake.focus()
    return interactionLatency(page, () => page.keyboard.press(String((i % 9) + 1)))
  })
  await context.close()
}

/** An open live event's main price, held still (the feed paused) so the bench's picks stay open. */
async function openSelections(page: Page, state: 'live' | 'prematch', count: number): Promise<string[]> {
  const line = await page.evaluate(async (state) => (await (await fetch(`/api/content/line?section=sport&state=${state}&locale=en`)).json()).payload as { id: string; main: { selections: { id: string; status?: string }[] } | null }[], state)
  return line.filter((e) => e.main?.selections[0]).slice(0, count).map((e) => e.main!.selections[0]!.id)
}

const post = (page: Page, path: string, data: object, headers: Record<string, string> = {}) =>
  page.evaluate(async ([path, data, headers]) => (await fetch(path, { method: path.includes('/punter/settings') ? 'PUT' : 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(data) })).status, [path, data, headers] as const)

async function pickToggles(page: Page, samples: Samples, name: string, path: string) {
  await page.goto(path)
  const button = page.locator('button.market-odds__button:not([disabled])').first()
  await button.waitFor()
  await repeat(samples, name, async () => {
    const ms = await interactionLatency(page, async () => {
      await button.click()
      await page.getByTestId('betslip-bar').waitFor()
    })
    await button.click()
    await page.getByTestId('betslip-bar').waitFor({ state: 'detached' })
    return ms
  })
}

async function punter(site: BenchSite, samples: Samples) {
  const { context, page } = await phonePage(site)
  const headers = await logIn(page, site.base)
  await post(page, `${GATE}/punter/settings`, { betPlacingMode: 'EqualsToCurrent', priceChangeNotificationViewType: 'ARROW' }, headers)
  await post(page, '/api/dev/feed/pause', { paused: true })
  await pickToggles(page, samples, 'add a pick (home)', `${site.base}/sport/live/popular`)
  await pickToggles(page, samples, 'add a pick (live)', `${site.base}/sport/live`)

  const [selectionId] = await openSelections(page, 'live', 1)
  await post(page, '/api/dev/feed/price', { selectionId, price: 2 })
  await page.locator(`button[data-selection-id="${selectionId}"]`).first().click()
  const bar = page.getByTestId('betslip-bar')
  const slip = page.getByTestId('betslip')
  const stake = slip.getByTestId('betslip-stake')
  await repeat(samples, 'open the slip', async () => {
    const ms = await interactionLatency(page, async () => {
      await bar.click()
      await stake.waitFor()
    })
    await page.keyboard.press('Escape')
    await slip.waitFor({ state: 'detached' })
    return ms
  })
  await bar.click()
  await repeat(samples, 'type a stake digit', async (i) => {
    await stake.fill('')
    await stake.focus()
    return interactionLatency(page, () => page.keyboard.press(String((i % 9) + 1)))
  })
  await stake.fill('1')
  const accept = slip.getByTestId('betslip-accept')
  await repeat(samples, 'accept a price change', async (i) => {
    await post(page, '/api/dev/feed/price', { selectionId, price: i % 2 ? 2 : 2.2 })
    await accept.waitFor()
    const ms = await interactionLatency(page, async () => {
      await accept.click()
      await slip.getByTestId('betslip-place').waitFor()
    })
    return ms
  })
  await placeAndMyBets(page, samples, selectionId!)
  await oddsFormat(page, samples, site.base)
  await context.close()
}

/** Place (with "keep picks" after each receipt but the My bets one), then My bets from the receipt. */
async function placeAndMyBets(page: Page, samples: Samples, selectionId: string) {
  const slip = page.getByTestId('betslip')
  const receipt = page.getByTestId('betslip-receipt')
  await repeat(samples, 'place a bet', async () => {
    if (!(await slip.isVisible())) await page.getByTestId('betslip-bar').click()
    await slip.getByTestId('betslip-stake').fill('1')
    const place = slip.getByTestId('betslip-place')
    await place.waitFor()
    const ms = await interactionLatency(page, async () => {
      await place.click()
      await receipt.waitFor()
    })
    await page.getByTestId('betslip-keep').click()
    await page.getByTestId('betslip-bar').waitFor()
    return ms
  })
  const livePage = page.url()
  await repeat(samples, 'open My bets (from the receipt)', async () => {
    if (!page.url().startsWith(livePage)) {
      await page.goBack()
      await page.locator(`button[data-selection-id="${selectionId}"]`).first().waitFor()
    }
    if (!(await page.getByTestId('betslip-bar').isVisible())) await page.locator(`button[data-selection-id="${selectionId}"]`).first().click()
    await page.getByTestId('betslip-bar').click()
    await slip.getByTestId('betslip-stake').fill('1')
    await slip.getByTestId('betslip-place').click()
    await receipt.getByTestId('betslip-my-bets').waitFor()
    return interactionLatency(page, async () => {
      await receipt.getByTestId('betslip-my-bets').click()
      await page.getByTestId('open-bets').waitFor()
    })
  })
}

async function oddsFormat(page: Page, samples: Samples, base: string) {
  await page.goto(`${base}/account/settings`)
  const select = page.getByTestId('setting-oddsType').locator('select')
  await select.waitFor()
  await repeat(samples, 'switch the odds format', async (i) => {
    await select.focus()
    // a key on the focused select: a trusted input, as a tap on an option is (selectOption is not)
    return interactionLatency(page, () => page.keyboard.press(i % 2 ? 'ArrowUp' : 'ArrowDown'))
  })
}

async function guest(site: BenchSite, samples: Samples) {
  const { context, page } = await phonePage(site)
  await page.goto(`${site.base}/sport/live/popular`)
  const login = page.locator('header.app-header [data-header-item="login"]')
  const dialog = page.getByRole('dialog')
  await login.waitFor()
  const opened: number[] = []
  await repeat(samples, 'open a popup (login)', async () => {
    const ms = await interactionLatency(page, async () => {
      await login.click()
      await dialog.waitFor()
    })
    opened.push(
      await interactionLatency(page, async () => {
        await page.keyboard.press('Escape')
        await dialog.waitFor({ state: 'detached' })
      }),
    )
    return ms
  })
  samples['close a popup (Escape)'] = opened
  await page.goto(`${site.base}/casino/lobby`)
  const search = page.getByRole('searchbox').or(page.getByLabel('Search games')).first()
  await search.waitFor()
  await page.waitForFunction(() => !document.querySelector('input[readonly]'))
  const letters = 'bookofrag'
  await repeat(samples, 'search the casino lobby (one letter)', async (i) => {
    if (i % letters.length === 0) await search.fill('')
    await search.focus()
    return interactionLatency(page, () => page.keyboard.press(letters[i % letters.length]!))
  })
  await context.close()
}

export async function runInteractionsBench(): Promise<object> {
  const site = await startBenchSite({ [BARE]: BARE_INTERACTIONS })
  const samples: Samples = {}
  const chromium = site.browser.version()
  const load = [loadAverage()]
  try {
    await bare(site, samples)
    await guest(site, samples)
    await punter(site, samples)
    // the bare page again at the end: the machine's load moves during the run
    await bare(site, samples)
  } finally {
    load.push(loadAverage())
    await site.close()
  }
  const tap = spread(samples['bare: tap a price (store + slip re-render)']!)
  const key = spread(samples['bare: type a digit in the stake']!)
  const typed = (name: string) => /type|search|odds format|Escape/.test(name)
  const figures = Object.fromEntries(
    Object.entries(samples).map(([name, list]) => {
      const s = spread(list)
      const baseline = typed(name) ? key : tap
      return [name, { ...s, p75VsBare: Math.round((s.p75Ms / baseline.p75Ms) * 100) / 100, meetsTarget: s.p75Ms <= 100 && s.p75Ms <= 1.5 * baseline.p75Ms }]
    }),
  )
  return {
    setup: `Chromium ${chromium}, 360×740, CPU slowed 4× (CDP), Event Timing (type 'event', durationThreshold 16; under 16 ms counts as 16), ${REPEATS} of each; baseline: the bare React page in the same run (taps beside its tap, keys beside its key)`,
    loadAverage: { start: load[0], end: load[1] },
    targets: { p75Ms: '<= 100', p75VsBare: '<= 1.5' },
    interactions: figures,
  }
}
