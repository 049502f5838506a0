/**
 * First-load evidence that a busy machine cannot blur as much as Lighthouse scores (issue 10): a
 * Chrome trace of one page load under 4x CPU slowdown (CDP Tracing, Emulation.setCPUThrottlingRate)
 * listing every main-thread task over 50 ms with what ran in it (layout, style, script, idle
 * callbacks), the paint marks, and each script fetched with its transferred bytes and time.
 * PROFILE=<ms> adds a CPU profile of the tasks longer than that (self and inclusive time by function).
 *   BASE=http://127.0.0.1:4714 WAIT=4000 npx tsx bench/first-load-trace.ts /casino/lobby /join
 * (a server of your own: docs/running.md; CONSENT=all sets the consent cookie, RATE the slowdown)
 * DIST=<the server's client build> adds, with PROFILE, the self time of the main thread's tasks over
 * 50 ms summed by function and by source module (through the build's hidden source maps).
 * Files go under OUT (default /tmp/perf5).
 */
import { chromium } from 'playwright-core'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping'

const maps = new Map<string, TraceMap | null>()
/** The source module of a profiled frame, through the build's source map when DIST has it. */
function sourceOf(frame: { url: string; lineNumber: number; columnNumber: number; functionName: string }): string {
  const file = frame.url.split('/').pop() ?? ''
  if (!file.endsWith('.js') || !process.env.DIST) return file || `(${frame.functionName || 'native'})`
  if (!maps.has(file)) {
    const path = `${process.env.DIST}/assets/${file}.map`
    maps.set(file, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8')) : null)
  }
  const map = maps.get(file)
  if (!map) return file
  const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber })
  const source = (position.source ?? file).replace(/^.*?\/(node_modules|engine|web|shared)\//, (_, dir: string) => (dir === 'node_modules' ? 'nm:' : `${dir}/`))
  return position.line ? `${source}:${position.line}` : source
}
const base = process.env.BASE ?? 'http://127.0.0.1:4714'
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/casino/lobby']
const waitAfterLoad = Number(process.env.WAIT ?? 4000)
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
for (const path of paths) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, serviceWorkers: 'block' })
  if (process.env.CONSENT) await context.addCookies([{ name: 'ConsentCookie', value: process.env.CONSENT, url: base }])
  const page = await context.newPage()
  await page.addInitScript(() => { (window as any).__intents = []; for (const n of ['pointerdown','keydown','scroll']) window.addEventListener(n, (e) => (window as any).__intents.push(`${n}@${Math.round(performance.now())}:${(e.target as Element)?.nodeName ?? e.target}.${(e.target as Element)?.className ?? ''}`), { capture: true, passive: true }) })
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.RATE ?? 4) })
  const responses = new Map<string, { url: string; type: string; t: number; bytes?: number }>()
  cdp.on('Network.responseReceived', (e: any) => responses.set(e.requestId, { url: e.response.url, type: e.type, t: e.timestamp }))
  cdp.on('Network.loadingFinished', (e: any) => { const r = responses.get(e.requestId); if (r) r.bytes = e.encodedDataLength })
  const events: any[] = []
  cdp.on('Tracing.dataCollected', (e: any) => events.push(...e.value))
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()))
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,loading,v8.execute,disabled-by-default-devtools.timeline.stack,latencyInfo', transferMode: 'ReportEvents' })
  if (process.env.PROFILE) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start') }
  await page.goto(base + path, { waitUntil: 'load' })
  await page.waitForTimeout(waitAfterLoad)
  const extra = await page.evaluate(() => ({ services: document.documentElement.dataset.parlayServices ?? null, renders: (window as any).__parlayRenders ?? null, dom: document.getElementsByTagName('*').length, intents: (window as any).__intents }))
  const profile = process.env.PROFILE ? (await cdp.send('Profiler.stop') as any).profile : null
  await cdp.send('Tracing.end')
  await done
  writeFileSync(`${process.env.OUT ?? "/tmp/perf5"}/trace${path.replace(/\W+/g, '_')}.json`, JSON.stringify({ traceEvents: events }))
  const nav = events.find((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').startsWith(base))
  const main = { pid: nav.pid, tid: nav.tid }
  const t0 = nav.ts
  const ms = (ts: number) => Math.round((ts - t0) / 1000)
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X')
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur > 50_000 && e.ts >= t0)
  const marks = events.filter((e) => e.pid === main.pid && (e.name === 'firstContentfulPaint' || e.name === 'largestContentfulPaint::Candidate' || e.name === 'parlay:first-render' || e.name === 'domContentLoadedEventEnd' || e.name === 'loadEventEnd')).map((e) => `${e.name}@${ms(e.ts)}`)
  let tbt = 0
  console.log(`\n=== ${path}  (services=${extra.services}, dom=${extra.dom}, renders=${JSON.stringify(extra.renders)}) intents=${JSON.stringify(extra.intents)}`)
  console.log(marks.join('  '))
  for (const task of tasks) {
    tbt += task.dur / 1000 - 50
    const inside = onMain.filter((e) => e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e !== task)
    const by: Record<string, number> = {}
    for (const e of inside) if (['Layout', 'UpdateLayoutTree', 'Paint', 'FunctionCall', 'EvaluateScript', 'v8.compile', 'v8.compileModule', 'ParseHTML', 'TimerFire', 'FireIdleCallback', 'EventDispatch', 'FireAnimationFrame', 'v8.evaluateModule', 'PrePaint', 'MajorGC', 'MinorGC', 'Commit', 'HitTest', 'RunMicrotasks', 'ParseAuthorStyleSheet', 'ScheduleStyleRecalculation', 'Layerize'].includes(e.name)) by[e.name] = (by[e.name] ?? 0) + e.dur / 1000
    const fn = inside.filter((e) => e.name === 'FunctionCall' || e.name === 'TimerFire' || e.name === 'FireIdleCallback' || e.name === 'EventDispatch').slice(0, 3).map((e) => `${e.name}:${e.args?.data?.functionName ?? e.args?.data?.type ?? ''}@${String(e.args?.data?.url ?? '').split('/').pop()}:${e.args?.data?.lineNumber ?? ''}`)
    if (profile && task.dur > Number(process.env.PROFILE) * 1000) {
      const byId = new Map(profile.nodes.map((n: any) => [n.id, n]))
      const parent = new Map<number, number>(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
      let t = profile.startTime; const self: Record<string, number> = {}; const incl: Record<string, number> = {}
      profile.samples.forEach((id: number, i: number) => { t += profile.timeDeltas[i]; if (t < task.ts || t > task.ts + task.dur) return
        const n: any = byId.get(id); const f = n.callFrame; const k = `${f.functionName || '(anon)'}@${f.url.split('/').pop()}:${f.lineNumber + 1}`; self[k] = (self[k] ?? 0) + profile.timeDeltas[i] / 1000
        const seen = new Set<string>(); let cur: any = n; while (cur) { const cf = cur.callFrame; const kk = `${cf.functionName || '(anon)'}@${cf.url.split('/').pop()}:${cf.lineNumber + 1}`; if (!seen.has(kk)) { seen.add(kk); incl[kk] = (incl[kk] ?? 0) + profile.timeDeltas[i] / 1000 } cur = byId.get(parent.get(cur.id)!) } })
      console.log('   self: ' + Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${k}=${Math.round(v)}`).join('  '))
      console.log('   incl: ' + Object.entries(incl).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k}=${Math.round(v)}`).join('  '))
    }
    console.log(`task @${ms(task.ts)} ${Math.round(task.dur / 1000)}ms  ${Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k}=${Math.round(v)}`).join(' ')}  ${fn.join(' ')}`)
  }
  console.log(`TBT-ish (all tasks to end) ${Math.round(tbt)} ms; tasks over 50 ms: ${tasks.length}, summed ${Math.round(tasks.reduce((n, t) => n + t.dur / 1000, 0))} ms`)
  // Less load-dependent view: a task's thread time (tdur) counts the time the main thread ran,
  // throttling included (Chromium's slowdown keeps the thread busy), but not the time a busy
  // machine took the core away, which only stretches wall time. Counted from the entry module's
  // task on: the page's own work.
  const entryTask = onMain.find((e) => e.name === 'RunTask' && e.ts >= t0 && onMain.some((m) => m.name === 'v8.evaluateModule' && m.ts >= e.ts && m.ts + m.dur <= e.ts + e.dur))
  if (entryTask) {
    const own = onMain.filter((e) => e.name === 'RunTask' && e.ts >= entryTask.ts && typeof e.tdur === 'number')
    const long = own.filter((e) => e.tdur > 50_000)
    const wall = own.filter((e) => e.dur > 50_000)
    const blocking = (list: any[], key: 'dur' | 'tdur') => Math.round(list.reduce((n, e) => n + e[key] / 1000 - 50, 0))
    console.log(`from the entry module's task (@${ms(entryTask.ts)}) on — wall: ${wall.length} tasks over 50 ms, blocking ${blocking(wall, 'dur')} ms; thread time: ${long.length} tasks over 50 ms, blocking ${blocking(long, 'tdur')} ms, busy ${Math.round(own.reduce((n, e) => n + e.tdur / 1000, 0))} ms in ${own.length} tasks`)
    console.log(`   longest by thread time: ${[...long].sort((a, b) => b.tdur - a.tdur).slice(0, 10).map((e) => `@${ms(e.ts)} ${Math.round(e.tdur / 1000)}`).join('  ')}`)
    if (profile && process.env.EACH) for (const task of [...long].sort((a, b) => b.tdur - a.tdur).slice(0, Number(process.env.EACH))) summarise(profile, [task], `the task @${ms(task.ts)} (thread ${Math.round(task.tdur / 1000)} ms)`, 12)
  }
  if (profile) {
    console.log(`profile: ${profile.samples.length} samples, ${ms(profile.startTime)}..${ms(profile.endTime)} ms`)
    summarise(profile, tasks, 'tasks over 50 ms')
    // the entry module's own task: where its evaluation (and the boot's microtasks) ran
    const moduleTask = onMain.filter((e) => e.name === 'RunTask' && e.ts >= t0 && onMain.some((m) => m.name === 'v8.evaluateModule' && m.ts >= e.ts && m.ts + m.dur <= e.ts + e.dur)).sort((a, b) => b.dur - a.dur)[0]
    if (moduleTask) summarise(profile, [moduleTask], `the entry module's task @${ms(moduleTask.ts)} (${Math.round(moduleTask.dur / 1000)} ms)`, 15)
  }
  const scripts = [...responses.values()].filter((r) => r.type === 'Script')
  console.log(`scripts ${scripts.length}, ${(scripts.reduce((n, s) => n + (s.bytes ?? 0), 0) / 1024).toFixed(1)} KB transferred: ${scripts.map((s) => `${s.url.split('/').pop()}(${((s.bytes ?? 0) / 1024).toFixed(1)} @${Math.round(s.t * 1000 - t0 / 1000)})`).join(' ')}`)
  await context.close()
}
await browser.close()

/** Self time inside the long tasks, summed by function (with its source module) and by module. */
function summarise(profile: any, tasks: any[], what: string, rows = 25) {
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]))
  const inLongTask = (t: number) => tasks.some((task) => t >= task.ts && t <= task.ts + task.dur)
  const byFunction: Record<string, number> = {}
  const byModule: Record<string, number> = {}
  let t = profile.startTime
  profile.samples.forEach((id: number, i: number) => {
    t += profile.timeDeltas[i]
    if (!inLongTask(t)) return
    const frame = byId.get(id).callFrame
    const at = sourceOf(frame)
    const module = at.replace(/:\d+$/, '')
    const key = `${frame.functionName || '(anon)'} ${at}`
    const ms = profile.timeDeltas[i] / 1000
    byFunction[key] = (byFunction[key] ?? 0) + ms
    // a bundle's top-level code is one function over many modules: split its time by the lines
    // that ran (the profile's position ticks), each line's source module through the map
    const ticks: { line: number; ticks: number }[] | undefined = byId.get(id).positionTicks
    if (!frame.functionName && ticks?.length && frame.lineNumber === 0) {
      const total = ticks.reduce((n, p) => n + p.ticks, 0)
      for (const p of ticks) {
        const lineModule = sourceOf({ ...frame, lineNumber: p.line - 1, columnNumber: 0 }).replace(/:\d+$/, '')
        byModule[`top level: ${lineModule}`] = (byModule[`top level: ${lineModule}`] ?? 0) + (ms * p.ticks) / total
      }
    } else byModule[module] = (byModule[module] ?? 0) + ms
  })
  const top = (table: Record<string, number>, n: number) => Object.entries(table).sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `  ${v.toFixed(1).padStart(7)} ms  ${k}`).join('\n')
  console.log(`self time in ${what}, by function:\n${top(byFunction, rows)}`)
  console.log(`by source module:\n${top(byModule, rows)}`)
}
