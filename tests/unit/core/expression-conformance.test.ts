/**
 * The browser evaluator must agree with the reference CEL interpreter on every expression the
 * documents use (ARCHITECTURE: "cross-checked against the reference interpreter in tests"). The
 * list is generated: every compiled expression of every shipped document (schemas/, as served to
 * browsers), plus the hand-written edge cases of tests/vectors/expressions.json.
 */
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import vectors from '../../vectors/expressions.json'
import { loadDocuments } from '../../../tools/schema-lint/documents/loader'
import { evaluate } from '../../../kernel/core/expression'
import { compileExpression, createEnvironment } from '../../../tools/schema-lint/documents/cel-compiler'

const normalise = (value: unknown): unknown => {
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, normalise(v)]))
  if (Array.isArray(value)) return value.map(normalise)
  if (value && typeof value === 'object' && value.constructor === Object)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]))
  return value
}

/** Every expression source in a served document (compiled expressions keep theirs as `cel`). */
function expressionsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => expressionsIn(item, found))
  else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>
    if (typeof object.cel === 'string' && 'ir' in object) found.add(object.cel)
    else Object.values(object).forEach((item) => expressionsIn(item, found))
  }
  return found
}

const { records } = loadDocuments(join(import.meta.dirname, '..', '..', '..', 'schemas'))
const shipped = expressionsIn(records.map((r) => r.served), new Set())
const expressions = [...new Set([...shipped, ...vectors.expressions])]

describe('the conformance list covers the shipped documents', () => {
  it('is generated from the expressions of the shipped documents (conditions, bindings, field conditions)', () => {
    expect(shipped.size).toBeGreaterThan(100)
    expect(shipped).toContain('session.loggedIn')
  })
})

describe('browser CEL evaluator agrees with the reference interpreter', () => {
  const env = createEnvironment()
  for (const [contextName, context] of Object.entries(vectors.contexts)) {
    for (const source of expressions) {
      it(`${source}  [${contextName}]`, () => {
        const compiled = compileExpression(source)
        expect(compiled.ok, compiled.ok ? '' : compiled.error).toBe(true)
        if (!compiled.ok) return
        let reference: unknown
        let referenceFailed = false
        try {
          reference = normalise(env.evaluate(source, context as never))
        } catch {
          referenceFailed = true
        }
        const ours = evaluate(compiled.expression, context)
        if (referenceFailed) expect(ours.ok).toBe(false)
        else {
          expect(ours.ok, ours.ok ? '' : ours.error).toBe(true)
          if (ours.ok) expect(normalise(ours.value)).toEqual(reference)
        }
      })
    }
  }
})

describe('expressions are checked against the declared context before any browser sees them', () => {
  it.each([
    ['foo.bar', 'Unknown variable'],
    ['user.balanse > 0.0', 'No such key'],
    ["user.loggedIn + 1", 'No such key'],
    ["'a' + 1", 'no such overload'],
    ['user.state ==', 'syntax'],
  ])('%s is refused (%s)', (source, message) => {
    const result = compileExpression(source)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toContain(message)
  })

  it('a condition slot needs a bool expression', () => {
    const result = compileExpression('user.firstName', 'bool')
    expect(result).toMatchObject({ ok: false })
  })

  it('an evaluation error becomes a reported result, never a throw', () => {
    const compiled = compileExpression('data.games[5].title == "x"')
    expect(compiled.ok).toBe(true)
    if (compiled.ok) expect(evaluate(compiled.expression, { data: { games: [] } })).toMatchObject({ ok: false })
  })
})
