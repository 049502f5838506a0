/**
 * `npm run bench live-page` (issue 33 item 3): a live page that stays cool.
 * - Heat: /sport/live in Chromium at 360×740 with the CPU slowed 4×, the demo feed paused and the
 *   bench moving 20 prices a second (the dev feed control) spread over the main prices of every
 *   live event on the line; for WINDOW_S seconds: the main thread's busy share (CDP TaskDuration ÷
 *   wall time) and long tasks (PerformanceObserver 'longtask'). Beside it in the same run: a bare
 *   `ws` + React loop — a page of 100 events × 3 prices, each price reading a per-key store, fed by
 *   a `ws` server in this process at the same 20 changes a second.
 * - Memory: an hour of feed fast-forwarded (the dev clock moved a minute at a time, the feed
 *   playing those ticks: events end, new ones start, so subscriptions come and go) with
 *   CHANGES_PER_MINUTE more price changes sent per feed minute in bursts, and in-app navigation (history, no reload)
 *   live → prematch → an event page → live each minute. JS heap and DOM nodes after a forced
 *   collection (CDP HeapProfiler.collectGarbage) at minute 1 and minute 60, read on the casino
 *   lobby (a page of fixed size, reached the same way: the live list's length follows the feed).
 * Asserts nothing.
 */
import { createReadStream, existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { WebSocketServer } from 'ws'
import { loadAverage, phonePage, startBenchSite, type BenchSite } from './browser-site'

const RATE = 20
const WINDOW_S = Number(process.env.PARLAY_BENCH_WINDOW_S ?? 20)
const FEED_MINUTES = Number(process.env.PARLAY_BENCH_FEED_MINUTES ?? 60)
const BARE = 'bare-live'

/** The bare loop's page: per-key subscriptions, as the engine's live store has. */
const BARE_LIVE = `import { useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
const prices = new Map()
const listeners = new Map()
const subscribe = (id) => (l) => { const set = listeners.get(id) ?? new Set(); listeners.set(id, set); set.add(l); return () => set.delete(l) }
const EVENTS = Array.from({ length: 100 }, (_, i) => ({ id: 'e' + i, name: 'Team ' + i + ' v Team ' + (i + 100) }))
for (const e of EVENTS) for (let k = 0; k < 3; k++) prices.set(e.id + '-' + k, 1.5 + k)
function Price({ id }) {
  const price = useSyncExternalStore(subscribe(id), () => prices.get(id))
  return <li><button type="button" data-selection-id={id}><span>{id}</span><span>{price.toFixed(2)}</span></button></li>
}
function App() {
  return <main>{EVENTS.map((e) => <section key={e.id}><h3>{e.name}</h3><ul>{[0, 1, 2].map((k) => <Price key={k} id={e.id + '-' + k} />)}</ul></section>)}</main>
}
createRoot(document.getElementById('root')).render(<App />)
const socket = new WebSocket('ws://' + location.host + '/feed')
socket.onmessage = (m) => { const { id, price } = JSON.parse(m.data); prices.set(id, price); for (const l of listeners.get(id) ?? []) l() }
`

function observeLongTasks() {
  const tasks: number[] = []
  ;(window as unknown as { __parlayLongTasks: number[] }).__parlayLongTasks = tasks
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push(e.duration)
  }).observe({ type: 'longtask', buffered: true })
}

/** The bare page and its assets from the site's build, and the `ws` feed, on a server of this process. */
async function bareLoop(dist: string): Promise<{ base: string; server: Server; send: (i: number) => void }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const file = join(dist, path.startsWith('/assets/') ? path : `/${BARE}/index.html`)
    if (!existsSync(file)) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html' })
    createReadStream(file).pipe(res)
  })
  const sockets = new WebSocketServer({ server, path: '/feed' })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const send = (i: number) => {
    const message = JSON.stringify({ id: `e${(i * 7) % 100}-${i % 3}`, price: 1.5 + ((i * 13) % 100) / 50 })
    for (const client of sockets.clients) client.send(message)
  }
  return { base, server, send }
}

/** Busy share and long tasks over WINDOW_S seconds while `change(i)` runs RATE times a second. */
async function heat(page: Page, cdp: CDPSession, change: (i: number) => unknown) {
  await cdp.send('Performance.enable')
  const metrics = async () => {
    const all = (await cdp.send('Performance.getMetrics')).metrics
    return { task: all.find((m) => m.name === 'TaskDuration')?.value ?? 0, thread: all.find((m) => m.name === 'ThreadTime')?.value ?? 0 }
  }
  const longBefore = await page.evaluate(() => (window as unknown as { __parlayLongTasks: number[] }).__parlayLongTasks.length)
  const before = await metrics()
  const start = performance.now()
  let sent = 0
  while (performance.now() - start < WINDOW_S * 1000) {
    void change(sent++)
    const next = start + (sent * 1000) / RATE
    await new Promise((done) => setTimeout(done, Math.max(0, next - performance.now())))
  }
  const wall = (performance.now() - start) / 1000
  const after = await metrics()
  const long = (await page.evaluate(() => (window as unknown as { __parlayLongTasks: number[] }).__parlayLongTasks)).slice(longBefore)
  const percent = (seconds: number) => Math.round((seconds / wall) * 1000) / 10
  // busy: the main thread's tasks in wall time (the slowdown included; a loaded machine's waits too);
  // thread: the CPU time the main thread got (neither the slowdown's pauses nor the machine's waits)
  return { changes: sent, busyPercent: percent(after.task - before.task), threadCpuPercent: percent(after.thread - before.thread), longTasks: long.length, longestTaskMs: Math.round(Math.max(0, ...long)) }
}

type LiveLine = { id: string; main: { selections: { id: string }[] } | null }[]
const line = (page: Page, state: 'live' | 'prematch') =>
  page.evaluate(async (state) => ((await (await fetch(`/api/content/line?section=sport&state=${state}&locale=en`)).json()) as { payload: LiveLine }).payload, state)
const post = (site: BenchSite, path: string, data: object) => fetch(`${site.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) })

async function parlayHeat(site: BenchSite) {
  const { context, page, cdp } = await phonePage(site)
  await context.addInitScript(observeLongTasks)
  await post(site, '/api/dev/feed/pause', { paused: true })
  await page.goto(`${site.base}/sport/live`)
  await page.locator('button.market-odds__button').first().waitFor()
  const events = (await line(page, 'live')).filter((e) => e.main)
  const selections = events.flatMap((e) => e.main!.selections.map((s) => s.id))
  // settle: the socket's snapshots and the first frames are not the steady state
  await page.waitForTimeout(3000)
  const figures = await heat(page, cdp, (i) => post(site, '/api/dev/feed/price', { selectionId: selections[(i * 7) % selections.length], price: 1.5 + ((i * 13) % 100) / 50 }))
  await post(site, '/api/dev/feed/pause', { paused: false })
  await context.close()
  return { liveEvents: events.length, prices: selections.length, ...figures }
}

async function bareHeat(site: BenchSite, dist: string) {
  const loop = await bareLoop(dist)
  const { context, page, cdp } = await phonePage(site, { cookies: false })
  await context.addInitScript(observeLongTasks)
  await page.goto(`${loop.base}/${BARE}/index.html`)
  await page.locator('button').first().waitFor()
  await page.waitForTimeout(3000)
  const figures = await heat(page, cdp, loop.send)
  await context.close()
  loop.server.closeAllConnections()
  await new Promise((done) => loop.server.close(done))
  return { liveEvents: 100, prices: 300, ...figures }
}

/** A history navigation inside the loaded page (what back/forward does), as the census does it. */
async function visit(page: Page, path: string) {
  await page.evaluate((to) => {
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1
    window.history.pushState({ usr: null, key: `bench-${idx}`, idx }, '', to)
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }))
  }, path)
}

/** `PARLAY_BENCH_HEAP_DIFF=1`: the heap by constructor (count, self bytes), to see what grew. */
async function heapByConstructor(cdp: CDPSession): Promise<Map<string, { count: number; bytes: number }>> {
  let text = ''
  const onChunk = (e: { chunk: string }) => (text += e.chunk)
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
  const snapshot = JSON.parse(text) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] }
  const fields = snapshot.snapshot.meta.node_fields
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number]
  const types = snapshot.snapshot.meta.node_types[0]
  const table = new Map<string, { count: number; bytes: number }>()
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]!]!
    const key = type === 'object' || type === 'closure' ? `${type} ${snapshot.strings[snapshot.nodes[i + nameAt]!]}` : type
    const row = table.get(key) ?? { count: 0, bytes: 0 }
    row.count++
    row.bytes += snapshot.nodes[i + sizeAt]!
    table.set(key, row)
  }
  return table
}

function heapGrowth(first: Map<string, { count: number; bytes: number }>, last: Map<string, { count: number; bytes: number }>) {
  return [...last].map(([key, row]) => ({ key, count: row.count - (first.get(key)?.count ?? 0), bytes: row.bytes - (first.get(key)?.bytes ?? 0) })).sort((a, b) => b.bytes - a.bytes).slice(0, 15)
}

async function memoryNow(page: Page, cdp: CDPSession) {
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const heap = (await cdp.send('Runtime.getHeapUsage')).usedSize
  const counters = await cdp.send('Memory.getDOMCounters')
  const inDocument = await page.evaluate(() => document.getElementsByTagName('*').length)
  return { jsHeapBytes: heap, domNodes: counters.nodes, elementsInDocument: inDocument, listeners: counters.jsEventListeners }
}

/** Price changes the bench adds per feed minute (the feed's own ticks come on top: every live
 * event moves every 2 s of feed time). */
const CHANGES_PER_MINUTE = Number(process.env.PARLAY_BENCH_CHANGES_PER_MINUTE ?? 200)

/** One feed minute: the clock a minute on, the bench's price changes, live → prematch → event → live. */
async function feedMinute(site: BenchSite, page: Page, minute: number) {
  await post(site, '/api/dev/clock', { advanceMs: 60_000 })
  const live = (await line(page, 'live')).filter((e) => e.main)
  const selections = live.flatMap((e) => e.main!.selections.map((s) => s.id))
  for (let i = 0; i < CHANGES_PER_MINUTE && selections.length; i += 20)
    await Promise.all(Array.from({ length: 20 }, (_, k) => post(site, '/api/dev/feed/price', { selectionId: selections[(i + k + minute) % selections.length], price: 1.5 + (((i + k) * 13 + minute) % 100) / 50 })))
  await visit(page, '/sport/prematch')
  await page.locator('button.market-odds__button').first().waitFor()
  if (live[minute % live.length]) {
    await visit(page, `/sport/live/event?id=${live[minute % live.length]!.id}`)
    await page.waitForFunction(() => document.querySelectorAll('button.market-odds__button').length > 0)
  }
  await visit(page, '/sport/live')
  await page.locator('button.market-odds__button').first().waitFor()
}

async function memory(site: BenchSite) {
  // no CPU slowdown here: the figure is what stays, not how fast it got there
  const { context, page, cdp } = await phonePage(site)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  await page.goto(`${site.base}/sport/live`)
  await page.locator('button.market-odds__button').first().waitFor()
  const readings: Record<string, Awaited<ReturnType<typeof memoryNow>>> = {}
  const heaps: Map<string, { count: number; bytes: number }>[] = []
  const started = Date.now()
  for (let minute = 1; minute <= FEED_MINUTES; minute++) {
    await feedMinute(site, page, minute)
    // read on a page of fixed size (the lobby's games), not on the live list, whose length follows
    // the feed: what the live pages left behind is what shows there
    if (minute === 1 || minute === FEED_MINUTES) {
      await visit(page, '/casino/lobby')
      await page.getByTestId('casino-games').first().waitFor()
      readings[`minute${minute}`] = await memoryNow(page, cdp)
      if (process.env.PARLAY_BENCH_HEAP_DIFF) heaps.push(await heapByConstructor(cdp))
    }
    if (minute % 10 === 0) process.stdout.write(`  memory: feed minute ${minute}/${FEED_MINUTES} (${Math.round((Date.now() - started) / 1000)} s)\n`)
  }
  await context.close()
  const first = readings.minute1!
  const last = readings[`minute${FEED_MINUTES}`]!
  const change = (a: number, b: number) => Math.round(((b - a) / a) * 1000) / 10
  const growth = heaps.length === 2 ? heapGrowth(heaps[0]!, heaps[1]!) : undefined
  if (growth) process.stdout.write(`  heap growth by constructor, minute 1 → ${FEED_MINUTES}:\n${growth.map((g) => `    ${String(g.bytes).padStart(9)} B ${String(g.count).padStart(6)}  ${g.key}`).join('\n')}\n`)
  return { ...(growth ? { heapGrowthByConstructor: growth.slice(0, 8).map((g) => `${g.key}: ${g.bytes} B, ${g.count}`) } : {}), feedMinutes: FEED_MINUTES, wallSeconds: Math.round((Date.now() - started) / 1000), first, last, heapChangePercent: change(first.jsHeapBytes, last.jsHeapBytes), domNodesChangePercent: change(first.domNodes, last.domNodes) }
}

export async function runLivePageBench(): Promise<object> {
  const site = await startBenchSite({ [BARE]: BARE_LIVE })
  try {
    const dist = site.dist
    // PARLAY_BENCH_LIVE_PARTS=memory (or heat) runs one part only
    const parts = process.env.PARLAY_BENCH_LIVE_PARTS ?? 'heat,memory'
    process.stdout.write('  heat: bare ws + React loop, then Parlay /sport/live…\n')
    const bare = parts.includes('heat') ? await bareHeat(site, dist) : undefined
    const parlay = parts.includes('heat') ? await parlayHeat(site) : undefined
    process.stdout.write('  memory: an hour of feed, fast-forwarded…\n')
    const held = parts.includes('memory') ? await memory(site) : undefined
    return {
      setup: `Chromium at 360×740, CPU slowed 4×, ${RATE} price changes a second for ${WINDOW_S} s; busy = CDP TaskDuration ÷ wall time; baseline: a bare ws + React loop in the same run`,
      loadAverage: loadAverage(),
      targets: { busyPercent: '<= 15', longestTaskMs: '<= 50', memoryChangePercent: '<= 5' },
      heat: parlay && bare ? { parlay, bare, busyVsBare: Math.round((parlay.busyPercent / Math.max(0.1, bare.busyPercent)) * 100) / 100 } : 'not run',
      memory: held ?? 'not run',
    }
  } finally {
    await site.close()
  }
}
