/**
 * The browser's CEL evaluator.
 *
 * Documents hold CEL source. The server parses and type-checks it with the reference interpreter
 * (`@marcbachmann/cel-js`, see `server/documents/cel-compiler.ts`) and ships this compact
 * tree instead, so the phone downloads ~1 KB of evaluator instead of a 24 KB interpreter, and no
 * code is ever generated at run time (the site's CSP forbids `unsafe-eval`). Tests run the same
 * expressions through both and compare results (`tests/unit/expression-conformance.test.ts`).
 *
 * Deliberate difference: numbers are JS doubles here, so `7 / 2` is 3.5 rather than CEL's int 3.
 */

/** A compiled expression: `[op, ...operands]`. Literal values sit under op 'v'. */
export type ExpressionTree = [string, ...unknown[]]

/** A compiled expression as it travels inside a served document: source kept for messages. */
export interface CompiledExpression {
  cel: string
  ir: ExpressionTree
}

export class EvaluationError extends Error {
  override name = 'EvaluationError'
}

type Scope = Record<string, unknown>

const fail = (message: string): never => {
  throw new EvaluationError(message)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function select(target: unknown, key: unknown, optional: boolean): unknown {
  if (Array.isArray(target) && typeof key === 'number') {
    if (key >= 0 && key < target.length) return target[key]
    return optional ? undefined : fail(`index ${key} out of range`)
  }
  if (isPlainObject(target) && typeof key === 'string') {
    if (Object.prototype.hasOwnProperty.call(target, key)) return target[key]
    return optional ? undefined : fail(`no such key: ${key}`)
  }
  if (optional && (target === undefined || target === null)) return undefined
  return fail(`cannot select ${String(key)} from ${target === null ? 'null' : typeof target}`)
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]))
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal(a[k], b[k]))
  }
  return false
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  return fail(`cannot compare ${typeof a} with ${typeof b}`)
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : fail(`expected a number, got ${typeof value}`)
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : fail(`expected a string, got ${typeof value}`)
}

function size(value: unknown): number {
  if (typeof value === 'string') return [...value].length
  if (Array.isArray(value)) return value.length
  if (isPlainObject(value)) return Object.keys(value).length
  return fail('size() needs a string, list or map')
}

const functions: Record<string, (...args: unknown[]) => unknown> = {
  size,
  int: (v) => (typeof v === 'string' ? Math.trunc(Number(v)) : Math.trunc(num(v))),
  double: (v) => (typeof v === 'string' ? Number(v) : num(v)),
  string: (v) => (typeof v === 'string' ? v : String(v)),
}

const methods: Record<string, (target: unknown, ...args: unknown[]) => unknown> = {
  size,
  startsWith: (t, p) => text(t).startsWith(text(p)),
  endsWith: (t, p) => text(t).endsWith(text(p)),
  contains: (t, p) => text(t).includes(text(p)),
  matches: (t, p) => new RegExp(text(p), 'u').test(text(t)),
  lowerAscii: (t) => text(t).toLowerCase(),
  upperAscii: (t) => text(t).toUpperCase(),
  trim: (t) => text(t).trim(),
}

/** Every function and method name the browser evaluator runs; the compiler refuses others. */
export const supportedFunctions = Object.keys(functions)
export const supportedMethods = Object.keys(methods)

function iterate(collection: unknown): unknown[] {
  if (Array.isArray(collection)) return collection
  if (isPlainObject(collection)) return Object.keys(collection)
  return fail('a macro needs a list or a map')
}

export function evaluateTree(tree: ExpressionTree, scope: Scope): unknown {
  const [op, a, b, c] = tree
  const ev = (node: unknown) => evaluateTree(node as ExpressionTree, scope)
  switch (op) {
    case 'v':
      return a
    case 'id':
      return Object.prototype.hasOwnProperty.call(scope, a as string) ? scope[a as string] : fail(`unknown variable ${a}`)
    case '.':
      return select(ev(a), b, false)
    case '.?':
      return select(ev(a), b, true)
    case '[]':
      return select(ev(a), ev(b), false)
    case '[?]':
      return select(ev(a), ev(b), true)
    case 'list':
      return tree.slice(1).map(ev)
    case 'map': {
      const out: Record<string, unknown> = {}
      for (let i = 1; i < tree.length; i += 2) out[String(ev(tree[i]))] = ev(tree[i + 1])
      return out
    }
    case '!':
      return !ev(a)
    case 'neg':
      return -num(ev(a))
    case '&&': {
      // CEL's commutative logic: false wins over an error on either side.
      let left: unknown
      try {
        left = ev(a)
      } catch (error) {
        if (ev(b) === false) return false
        throw error
      }
      return left === false ? false : Boolean(ev(b)) && left === true
    }
    case '||': {
      let left: unknown
      try {
        left = ev(a)
      } catch (error) {
        if (ev(b) === true) return true
        throw error
      }
      return left === true ? true : ev(b) === true
    }
    case '?:':
      return ev(a) ? ev(b) : ev(c)
    case '==':
      return equal(ev(a), ev(b))
    case '!=':
      return !equal(ev(a), ev(b))
    case '<':
      return compare(ev(a), ev(b)) < 0
    case '<=':
      return compare(ev(a), ev(b)) <= 0
    case '>':
      return compare(ev(a), ev(b)) > 0
    case '>=':
      return compare(ev(a), ev(b)) >= 0
    case 'in': {
      const needle = ev(a)
      const haystack = ev(b)
      if (Array.isArray(haystack)) return haystack.some((x) => equal(x, needle))
      if (isPlainObject(haystack)) return typeof needle === 'string' && needle in haystack
      return fail("'in' needs a list or a map")
    }
    case '+': {
      const left = ev(a)
      const right = ev(b)
      if (typeof left === 'string' && typeof right === 'string') return left + right
      if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right]
      return num(left) + num(right)
    }
    case '-':
      return num(ev(a)) - num(ev(b))
    case '*':
      return num(ev(a)) * num(ev(b))
    case '/': {
      const divisor = num(ev(b))
      return divisor === 0 ? fail('division by zero') : num(ev(a)) / divisor
    }
    case '%': {
      const divisor = num(ev(b))
      return divisor === 0 ? fail('modulus by zero') : num(ev(a)) % divisor
    }
    case 'has': {
      const target = ev(a)
      return isPlainObject(target) && Object.prototype.hasOwnProperty.call(target, b as string)
    }
    case 'call': {
      const fn = functions[a as string] ?? fail(`unknown function ${a}`)
      return fn(...tree.slice(2).map(ev))
    }
    case 'rcall': {
      const method = methods[a as string] ?? fail(`unknown method ${a}`)
      return method(ev(b), ...tree.slice(3).map(ev))
    }
    case '@exists':
    case '@all':
    case '@exists_one':
    case '@filter':
    case '@map': {
      const items = iterate(ev(a))
      const name = b as string
      const body = c as ExpressionTree
      const run = (item: unknown) => evaluateTree(body, { ...scope, [name]: item })
      if (op === '@exists') return items.some((item) => run(item) === true)
      if (op === '@all') return items.every((item) => run(item) === true)
      if (op === '@exists_one') return items.filter((item) => run(item) === true).length === 1
      if (op === '@filter') return items.filter((item) => run(item) === true)
      return items.map(run)
    }
    default:
      return fail(`unknown operation ${op}`)
  }
}

export function isCompiledExpression(value: unknown): value is CompiledExpression {
  return isPlainObject(value) && typeof value.cel === 'string' && Array.isArray(value.ir)
}

export type EvaluationResult = { ok: true; value: unknown } | { ok: false; error: string }

/** Evaluates without throwing: a broken expression is a reported problem, never a broken page. */
export function evaluate(expression: CompiledExpression, scope: object): EvaluationResult {
  try {
    return { ok: true, value: evaluateTree(expression.ir, scope as Scope) }
  } catch (error) {
    return { ok: false, error: `${expression.cel}: ${(error as Error).message}` }
  }
}
