/**
 * Issue 30 item 7: a production install serves the built site. The deployment's steps, on a copy
 * of this checkout: `npm run build` where the dev dependencies are (here: this checkout's
 * node_modules, linked in), then a production install (`npm ci --omit=dev` from the npm cache) and
 * `npm start`. Before, the start failed: the server required jsdom, a dev dependency.
 *
 * Two shortcuts keep it near a minute, and neither can hide a missing dependency: the install runs
 * with `--ignore-scripts`, and the two native addons (better-sqlite3, argon2) get the binaries this
 * checkout's install compiled (same Node, same machine) instead of compiling them again (minutes).
 * The static check of every run-time import: tests/unit/production-dependencies.test.ts.
 */
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onPostgres } from '../support/server'

const ROOT = resolve(import.meta.dirname, '..', '..')
const STARTED = /at http:\/\/localhost:(\d+)/

/** The checkout's files as git sees them (tracked, and new ones not ignored): no node_modules, dist or data. */
function copyCheckout(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean)
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue // deleted in the working tree
    mkdirSync(dirname(join(to, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(to, file))
  }
}

/** The compiled addons of the packages that build one (a binding.gyp), from this checkout's install. */
function copyNativeBuilds(site: string): string[] {
  const modules = join(site, 'node_modules')
  const names = readdirSync(modules).flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((sub) => `${name}/${sub}`) : [name]))
  const native = names.filter((name) => existsSync(join(modules, name, 'binding.gyp')))
  for (const name of native) cpSync(join(ROOT, 'node_modules', name, 'build', 'Release'), join(modules, name, 'build', 'Release'), { recursive: true })
  return native
}

/** `npm start` in the copy; resolves with its address, or with its output once it exits. */
function npmStart(site: string, env: Record<string, string>): Promise<{ port?: number; exitCode: number | null; output: string; stop(): Promise<void> }> {
  const child = spawn('npm', ['start'], { cwd: site, env: { ...process.env, PORT: '0', PARLAY_DATA_DIR: join(site, 'data'), PARLAY_TOTP_KEY: 'ab'.repeat(32), ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  const exited = new Promise<number | null>((done) => child.once('exit', done))
  const stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM') // npm and the server it started
    await exited
  }
  return new Promise((done) => {
    const seen = (chunk: Buffer) => {
      output += chunk
      const port = STARTED.exec(output)?.[1]
      if (port) done({ port: Number(port), exitCode: null, output, stop })
    }
    child.stdout.on('data', seen)
    child.stderr.on('data', seen)
    void exited.then((exitCode) => done({ exitCode, output, stop }))
  })
}

describe.skipIf(onPostgres)('npm ci --omit=dev && npm start on a copy of the checkout', () => {
  const site = mkdtempSync(join(tmpdir(), 'parlay-production-'))
  let native: string[] = []
  beforeAll(() => {
    copyCheckout(site)
    symlinkSync(join(ROOT, 'node_modules'), join(site, 'node_modules'))
    execFileSync('npm', ['run', 'build'], { cwd: site, stdio: 'pipe' })
    rmSync(join(site, 'node_modules'))
    execFileSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: site, stdio: 'pipe' })
    native = copyNativeBuilds(site)
  }, 240_000)
  afterAll(() => rmSync(site, { recursive: true, force: true }))

  it('the install has no dev dependency (vite, vitest, jsdom stays: the server needs it)', () => {
    expect(native.sort()).toEqual(['argon2', 'better-sqlite3'])
    expect(['vite', 'vitest', 'playwright-core'].filter((name) => existsSync(join(site, 'node_modules', name)))).toEqual([])
    expect(existsSync(join(site, 'node_modules', 'jsdom'))).toBe(true)
  })

  it('serves the built site: the page with its hashed scripts, a script, the ping and a document', { timeout: 120_000 }, async () => {
    const server = await npmStart(site, {})
    try {
      expect(server.port, server.output).toBeDefined()
      const base = `http://127.0.0.1:${server.port}`
      const page = await fetch(`${base}/`)
      expect(page.status).toBe(200)
      const html = await page.text()
      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
      expect(script, html.slice(0, 500)).toBeDefined()
      expect((await fetch(base + script)).status).toBe(200)
      expect((await fetch(`${base}/ping.json`)).status).toBe(200)
      expect((await fetch(`${base}/api/documents/flow/signup-email`, { headers: { host: `spain.localhost:${server.port}` } })).status).toBe(200)
    } finally {
      await server.stop()
    }
  })

  it('without a built client it stops at once and says how to build one (no build tools in a production install)', { timeout: 60_000 }, async () => {
    const empty = mkdtempSync(join(tmpdir(), 'parlay-nodist-'))
    try {
      const server = await npmStart(site, { PARLAY_DIST_DIR: empty })
      expect(server.port).toBeUndefined()
      expect(server.exitCode).toBe(1)
      expect(server.output).toContain('the client is not built')
      expect(server.output).toContain('npm run build')
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})
