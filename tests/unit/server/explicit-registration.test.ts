/**
 * Explicit registration on the server (issue 32 item 2): the OpenAPI notes come from one list
 * (server/openapi-notes.ts) and the server's modules from one list (server/modules.ts), read top to
 * bottom. Every notes value and every module any server file exports is in its list, so a part
 * left out of the list shows up here rather than by being imported somewhere; the notes' helper
 * module holds no registry that an import could fill.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as registry from '../../../server/http/openapi-registry'
import { modules } from '../../../server/modules'
import { OPENAPI_NOTES, openApiNotes } from '../../../server/openapi-notes'

const ROOT = join(import.meta.dirname, '..', '..', '..')

function serverFiles(dir = join(ROOT, 'server')): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    return statSync(path).isDirectory() ? serverFiles(path) : entry.endsWith('.ts') ? [path] : []
  })
}

/** A value shaped as OpenAPI notes: an object keyed by paths, each an object of operations. */
const isNotes = (value: unknown): value is Record<string, object> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('/'))

describe('the OpenAPI notes come from one list', () => {
  it('the notes helper module exports no way to register: only the helpers and the merge', () => {
    expect(Object.keys(registry).sort()).toEqual(['ERROR_ENVELOPE', 'mergeNotes', 'openapi'])
  })

  it('every notes value a server file exports is in OPENAPI_NOTES (nothing documented by being imported)', async () => {
    const writers = serverFiles().filter((file) => /from '(\.\.\/http|\.)\/openapi-registry'/.test(readFileSync(file, 'utf8')))
    expect(writers.length).toBeGreaterThan(10)
    const listed = new Set<object>(OPENAPI_NOTES)
    const missing: string[] = []
    for (const file of writers)
      for (const [name, value] of Object.entries(await import(file))) {
        const notes = Array.isArray(value) && value.every(isNotes) ? value : isNotes(value) ? [value] : []
        for (const one of notes) if (!listed.has(one)) missing.push(`${relative(ROOT, file)}: ${name}`)
      }
    expect(missing).toEqual([])
  })

  it('merges in list order: a later note on an operation adds its keys and overrides the earlier ones', () => {
    const merged = registry.mergeNotes([
      { '/a': { get: { summary: 'first', tags: ['x'] } } },
      { '/a': { get: { summary: 'second' }, post: { summary: 'post' } }, '/b': { get: { summary: 'b' } } },
    ])
    expect(merged).toEqual({ '/a': { get: { summary: 'second', tags: ['x'] }, post: { summary: 'post' } }, '/b': { get: { summary: 'b' } } })
    expect(openApiNotes()).toEqual(registry.mergeNotes(OPENAPI_NOTES))
  })
})

describe('the server modules come from one list', () => {
  it('every ServerModule a server file exports is in server/modules.ts, once', async () => {
    const files = serverFiles().filter((file) => !file.endsWith('modules.ts') && readFileSync(file, 'utf8').includes('ServerModule = '))
    expect(files.length).toBeGreaterThan(5)
    const exported: string[] = []
    for (const file of files)
      for (const [name, value] of Object.entries(await import(file)))
        if (typeof value === 'object' && value !== null && typeof (value as { mount?: unknown }).mount === 'function') {
          exported.push(name)
          expect(modules.includes(value as (typeof modules)[number]), `${relative(ROOT, file)}: ${name} is not in server/modules.ts`).toBe(true)
        }
    expect(exported.length).toBeGreaterThan(10)
    expect(new Set(modules.map((one) => one.name)).size).toBe(modules.length)
  })
})
