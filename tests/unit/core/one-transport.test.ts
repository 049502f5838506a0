/**
 * One HTTP transport for the client (issue 17): every request of the engine goes through the
 * gateway client (its headers, envelope, error codes and timeout) or the document client. Only
 * those two clients and the page's transport handed to them may call `fetch` themselves.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')

/** The clients and the one transport they are handed (boot answers, else window.fetch). */
const TRANSPORT_FILES = new Set(['engine/core/gateway.ts', 'engine/core/documents.ts', 'engine/renderers/shell/browser-runtime.ts'])

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path)
    return /\.(ts|tsx)$/.test(entry) ? [path] : []
  })
}

/** Calls of fetch itself (`fetch(`, `window.fetch(`, `globalThis.fetch(`), not of `options.fetch` or `fetchData(`. */
const rawFetch = /(^|[^.\w])(window\.|globalThis\.|self\.)?fetch\s*\(/m

describe('the engine calls the network only through its HTTP clients', () => {
  const files = sources('engine').map((f) => relative(ROOT, join(ROOT, f)))
  it('has files to check', () => expect(files.length).toBeGreaterThan(50))
  it.each(files.filter((f) => !TRANSPORT_FILES.has(f)))('%s has no raw fetch', (file) => {
    const code = readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    expect(code).not.toMatch(rawFetch)
  })
  it('the page transport is the only window.fetch', () => {
    const runtime = readFileSync(join(ROOT, 'engine/renderers/shell/browser-runtime.ts'), 'utf8')
    expect(runtime.match(/window\.fetch\(/g)).toHaveLength(1)
  })
})
