/**
 * Architecture rules that keep the engine portable and the client CSP-safe.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')

function sources(dir: string): string[] {
  const full = join(ROOT, dir)
  let entries: string[]
  try {
    entries = readdirSync(full)
  } catch {
    return []
  }
  return entries.flatMap((entry) => {
    const path = join(full, entry)
    if (statSync(path).isDirectory()) return sources(relative(ROOT, path))
    return /\.(ts|tsx)$/.test(entry) ? [path] : []
  })
}

const FRAMEWORK_FREE = ['kernel', 'engine/core', 'engine/actions', 'engine/experiments', 'engine/auth', 'engine/signup']
const CLIENT = ['kernel', 'engine', 'web', 'studio']

describe('the framework-free core of engine/ does not import React', () => {
  const files = FRAMEWORK_FREE.flatMap(sources)
  it('has files to check', () => expect(files.length).toBeGreaterThan(3))
  it.each(files.map((f) => [relative(ROOT, f), f]))('%s imports neither react nor the renderers', (_name, file) => {
    const text = readFileSync(file, 'utf8')
    expect(text).not.toMatch(/from ['"](react|react-dom|react-router|react-router-dom)(\/[^'"]*)?['"]/)
    expect(text).not.toMatch(/from ['"][./]*\/renderers\//)
  })
})

describe('client code never generates code at run time (CSP without unsafe-eval)', () => {
  const files = CLIENT.flatMap(sources)
  it.each(files.map((f) => [relative(ROOT, f), f]))('%s has no eval or new Function', (_name, file) => {
    const text = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '')
    expect(text).not.toMatch(/(^|[^A-Za-z0-9_$.])eval\(/)
    expect(text).not.toMatch(/new Function\(/)
  })
  it('the client never imports the server-side CEL interpreter or ajv', () => {
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      expect(text, relative(ROOT, file)).not.toMatch(/from ['"]@marcbachmann\/cel-js['"]/)
      expect(text, relative(ROOT, file)).not.toMatch(/from ['"]ajv['"]/)
    }
  })
})
