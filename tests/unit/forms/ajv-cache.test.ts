/**
 * The validators cache between test processes (tools/schema-lint/documents/ajv-cache.ts, ADR 0089): a
 * validator read back from the disk judges every input exactly as ajv's in-memory compile of the
 * same schema does (verdict, errors, defaults filled in, formats), and a flow read back serves
 * the very module it compiled. Oracle: a fresh ajv instance with the same options, no cache.
 */
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AJV_SOURCE, ajvCacheDir, ajvCacheKey, compileCached } from '../../../tools/schema-lint/documents/ajv-cache'
import { compileFlowSchemas, type FlowLike } from '../../../server/validators/compile'

const OPTIONS = { allErrors: true, strict: false, useDefaults: true } as const

/** A schema no earlier run stored: a fresh $comment changes its key. */
const freshSchema = () => ({
  $comment: randomUUID(),
  type: 'object',
  additionalProperties: false,
  required: ['email', 'born'],
  properties: {
    email: { type: 'string', format: 'email' },
    born: { type: 'string', format: 'date' },
    stake: { type: 'number', minimum: 0.1, maximum: 100, multipleOf: 0.01 },
    currency: { type: 'string', enum: ['EUR', 'RUB'], default: 'EUR' },
  },
})

const INPUTS = [
  { email: 'a@b.example', born: '1990-02-03' },
  { email: 'a@b.example', born: '1990-02-03', stake: 5.25, currency: 'RUB' },
  { email: 'not an address', born: '1990-02-30' },
  { email: 'a@b.example', born: '1990-02-03', stake: 0.05 },
  { email: 'a@b.example', born: '1990-02-03', extra: true },
  { born: 7 },
  'a string',
]

const newAjv = (withSource: boolean) => {
  const ajv = new Ajv({ ...OPTIONS, ...(withSource ? AJV_SOURCE : {}) })
  addFormats(ajv)
  return ajv
}

let before: string | undefined
beforeEach(() => {
  before = process.env.PARLAY_AJV_CACHE
  process.env.PARLAY_AJV_CACHE = '1'
})
afterEach(() => {
  if (before === undefined) delete process.env.PARLAY_AJV_CACHE
  else process.env.PARLAY_AJV_CACHE = before
})

describe('a validator read back from the cache', () => {
  it('is stored at its first compile and read from the disk at the next, in another ajv instance', () => {
    const schema = freshSchema()
    const file = join(ajvCacheDir()!, `${ajvCacheKey(OPTIONS, schema)}.cjs`)
    expect(existsSync(file)).toBe(false)
    const first = compileCached(newAjv(true), OPTIONS, schema)
    expect(existsSync(file)).toBe(true)
    const second = compileCached(newAjv(true), OPTIONS, structuredClone(schema))
    expect(second).not.toBe(first)
    expect(second.schema).toBeUndefined() // ajv's own functions carry their schema; the stored module's do not
  })

  it('gives every input the verdict, the errors and the defaults of an in-memory compile', () => {
    const schema = freshSchema()
    compileCached(newAjv(true), OPTIONS, schema)
    const stored = compileCached(newAjv(true), OPTIONS, schema)
    const oracle = newAjv(false).compile(schema)
    for (const input of INPUTS) {
      const [mine, theirs] = [structuredClone(input), structuredClone(input)]
      expect(stored(mine)).toBe(oracle(theirs))
      expect(stored.errors ?? null).toEqual(oracle.errors ?? null)
      expect(mine).toEqual(theirs)
    }
  })
})

describe('a flow read back from the cache', () => {
  it('serves the module it compiled, and its step validators judge as the compiled ones', () => {
    const flow: FlowLike = { id: `cache-${randomUUID()}`, steps: [{ id: 'one', schema: freshSchema() }] }
    const compiled = compileFlowSchemas(flow)
    const again = compileFlowSchemas(structuredClone(flow))
    expect(again.standalone).toBe(compiled.standalone)
    expect(again.validate.one).not.toBe(compiled.validate.one)
    for (const input of INPUTS) {
      const [mine, theirs] = [structuredClone(input), structuredClone(input)]
      expect(again.validate.one!(mine)).toBe(compiled.validate.one!(theirs))
      expect(again.validate.one!.errors ?? null).toEqual(compiled.validate.one!.errors ?? null)
      expect(mine).toEqual(theirs)
    }
  })
})
