/**
 * ajv's compiled validators kept on disk between processes, in node_modules/.cache/parlay-ajv,
 * when PARLAY_AJV_CACHE=1 (the test runner sets it: every test file is a new process, and compiling the document,
 * flow and request schemas was about half of each file's cold server start, ADR 0089). Unset, as
 * in production and `npm run dev`, everything compiles in memory as before.
 *
 * A validator is stored as ajv's own standalone code (the code `ajv.compile` turns into a function,
 * written out as a CommonJS module: ajv/dist/standalone) under a hash of ajv's version, the
 * caller's options and the schema, and loaded with `require`. Server side only: the browser never
 * evaluates generated code. The file is written to a temporary name and renamed, so two processes
 * compiling the same schema at once both leave a whole file.
 */
import type Ajv from 'ajv'
import type { ValidateFunction } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version
const FORMATS_VERSION = (require('ajv-formats/package.json') as { version: string }).version

/** ajv options that keep the generated source, which the standalone code is made of. */
export const AJV_SOURCE = { code: { source: true, lines: false } } as const

/** Inside the install, so the stored modules' `require("ajv/…")` and `require("ajv-formats/…")` resolve. */
const CACHE_DIR = join(dirname(require.resolve('ajv/package.json')), '..', '.cache', 'parlay-ajv')

/** The cache folder, or undefined when validators are compiled in memory only. */
export function ajvCacheDir(): string | undefined {
  return process.env.PARLAY_AJV_CACHE === '1' ? CACHE_DIR : undefined
}

/** The options an in-memory validator needs: AJV_SOURCE only when compiled validators are stored
 * (tests), so a production process keeps no generated source it never reads. */
export const ajvCacheOptions = (): typeof AJV_SOURCE | Record<string, never> => (ajvCacheDir() ? AJV_SOURCE : {})

/** A key for `parts` (options, schemas) under the installed ajv and ajv-formats. */
export function ajvCacheKey(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify([AJV_VERSION, FORMATS_VERSION, ...parts])).digest('hex').slice(0, 32)
}

/** The stored module of `key` (its exports and its source), or undefined when not stored yet. */
export function loadCachedModule(key: string): { exports: Record<string, unknown>; code: string } | undefined {
  const dir = ajvCacheDir()
  if (!dir) return undefined
  const file = join(dir, `${key}.cjs`)
  if (!existsSync(file)) return undefined
  return { exports: require(file) as Record<string, unknown>, code: readFileSync(file, 'utf8') }
}

/** Stores standalone `code` under `key` (a no-op without a cache folder or when it cannot be written). */
export function storeCachedModule(key: string, code: string): void {
  const dir = ajvCacheDir()
  if (!dir) return
  const file = join(dir, `${key}.cjs`)
  const partial = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(dir, { recursive: true })
    writeFileSync(partial, code)
    renameSync(partial, file)
  } catch {
    // a cache: a folder that cannot be written (read-only install) only means compiling next time
  }
}

/**
 * `ajv.compile(schema)`, or the same validator from the cache. `options` are the ajv options the
 * instance was made with (part of the key: they change the generated code); the instance must keep
 * its source (AJV_SOURCE) for the first compile to be stored.
 */
export function compileCached(ajv: Ajv, options: object, schema: object): ValidateFunction {
  if (!ajvCacheDir()) return ajv.compile(schema)
  const key = ajvCacheKey(options, schema)
  const stored = loadCachedModule(key)
  if (stored) return ((stored.exports as { default?: unknown }).default ?? stored.exports) as ValidateFunction
  const validate = ajv.compile(schema)
  storeCachedModule(key, standaloneCode(ajv, validate))
  return validate
}
