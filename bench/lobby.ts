/**
 * Lobby benchmark (issue 2 §9): first-load JS of the lobby route, gzip and brotli, beside a bare
 * React + react-dom app built the same way in the same run; and the time to first render of the
 * lobby in Chromium (median of 5 cold loads, from the shell's `parlay:first-render` mark).
 * Asserts nothing: returns numbers for `bench/run.ts` to print and store.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { randomBytes } from 'node:crypto'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const LOBBY = '/casino/lobby'
const COLD_LOADS = 5

interface Size {
  files: string[]
  raw: number
  gzip: number
  brotli: number
}

/** The entry script of a built index.html plus everything it imports statically (not `import()`). */
function firstLoadScripts(distDir: string): string[] {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8')
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1])
  const seen = new Set<string>()
  const visit = (url: string) => {
    const file = join(distDir, url.replace(/^\//, ''))
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    // static imports only: `import … from "./x.js"` and `import "./x.js"`; dynamic `import(` is lazy
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[^"'`()]*?\sfrom\s*)?["']([^"']+\.js)["']/g)) visit(join(dirname(url), m[1]).replace(/\\/g, '/'))
  }
  for (const entry of entries) visit(entry)
  return [...seen]
  // (paths are absolute files inside distDir)
}

function measure(files: string[]): Size {
  let raw = 0
  let gzip = 0
  let brotli = 0
  for (const file of files) {
    const bytes = readFileSync(file)
    raw += bytes.length
    gzip += gzipSync(bytes, { level: 9 }).length
    brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
  }
  return { files: files.map((f) => f.split(/[\\/]/).pop()!), raw, gzip, brotli }
}

async function buildParlay(outDir: string): Promise<void> {
  const { build } = await import('vite')
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } })
}

/** A bare React 19 app (createRoot + one element), built with the same Vite and React plugin. */
async function buildBareReact(outDir: string): Promise<void> {
  // inside the repository's node_modules so `react` resolves exactly as for Parlay
  const app = mkdtempSync(join(ROOT, 'node_modules', '.parlay-bench-'))
  try {
    writeFileSync(join(app, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><div id="root"></div><script type="module" src="./main.jsx"></script></body></html>')
    writeFileSync(
      join(app, 'main.jsx'),
      "import { createRoot } from 'react-dom/client'\nimport { useState } from 'react'\nfunction App() { const [n, setN] = useState(0); return <button onClick={() => setN(n + 1)}>{n}</button> }\ncreateRoot(document.getElementById('root')).render(<App />)\n",
    )
    const { build } = await import('vite')
    const react = (await import('@vitejs/plugin-react')).default
    await build({ configFile: false, root: app, logLevel: 'silent', plugins: [react()], build: { outDir, emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } } })
  } finally {
    rmSync(app, { recursive: true, force: true })
  }
}

async function firstRenderTimes(distDir: string): Promise<number[] | { failed: string }> {
  const { startServer } = await import('../server/main')
  const work = mkdtempSync(join(tmpdir(), 'parlay-bench-'))
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  try {
    server = await startServer({ port: 0, dataDir: join(work, 'data'), distDir, watch: false, quiet: true, development: false, totpKeys: { current: randomBytes(32).toString('hex') } })
    const times: number[] = []
    for (let i = 0; i < COLD_LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } }) // fresh cache and storage
      const page = await context.newPage()
      await page.goto(server.url + LOBBY)
      await page.waitForFunction(() => performance.getEntriesByName('parlay:first-render').length > 0, undefined, { timeout: 30_000 })
      times.push(await page.evaluate(() => performance.getEntriesByName('parlay:first-render')[0].startTime))
      await context.close()
    }
    return times
  } catch (error) {
    return { failed: (error as Error).message }
  } finally {
    await browser.close()
    await server?.close()
    rmSync(work, { recursive: true, force: true })
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits

export async function runLobbyBench(): Promise<object> {
  const work = mkdtempSync(join(tmpdir(), 'parlay-bench-build-'))
  const parlayDist = join(work, 'parlay')
  const bareDist = join(work, 'bare')
  mkdirSync(parlayDist, { recursive: true })
  try {
    await buildParlay(parlayDist)
    await buildBareReact(bareDist)
    const lobby = measure(firstLoadScripts(parlayDist))
    const bare = measure(firstLoadScripts(bareDist))
    const allParlayJs = (await import('node:fs')).readdirSync(join(parlayDist, 'assets')).filter((f) => f.endsWith('.js'))
    const lazyChunks = allParlayJs.filter((f) => !lobby.files.includes(f))
    const rjsfInFirstLoad = lobby.files.some((f) => readFileSync(join(parlayDist, 'assets', f), 'utf8').includes('@rjsf') || /^(forms|FormNode)-/.test(f))
    const times = await firstRenderTimes(parlayDist)
    return {
      lobbyRoute: LOBBY,
      lobbyJs: { files: lobby.files.join(' '), rawBytes: lobby.raw, gzipBytes: lobby.gzip, brotliBytes: lobby.brotli },
      bareReactJs: { rawBytes: bare.raw, gzipBytes: bare.gzip, brotliBytes: bare.brotli },
      ratioGzip: round(lobby.gzip / bare.gzip),
      ratioBrotli: round(lobby.brotli / bare.brotli),
      targetRatioGzip: 2,
      lazyChunks: lazyChunks.join(' '),
      rjsfInFirstLoad,
      firstRenderMs: Array.isArray(times) ? { median: round(median(times), 1), runs: times.map((t) => round(t, 1)) } : times,
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
