/**
 * The browser's CEL evaluator.
 *
 * Documents hold CEL source. The server parses and type-checks it with the reference interpreter
 * (`@marcbachmann/cel-js`, see `tools/schema-lint/documents/cel-compiler.ts`) and ships this compact
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

type Evaluator = (scope: Scope) => unknown

const BINARY: Record<string, (a: unknown, b: unknown) => unknown> = {
  '==': (a, b) => equal(a, b),
  '!=': (a, b) => !equal(a, b),
  '<': (a, b) => compare(a, b) < 0,
  '<=': (a, b) => compare(a, b) <= 0,
  '>': (a, b) => compare(a, b) > 0,
  '>=': (a, b) => compare(a, b) >= 0,
  in: (needle, haystack) => {
    if (Array.isArray(haystack)) return haystack.some((x) => equal(x, needle))
    if (isPlainObject(haystack)) return typeof needle === 'string' && needle in haystack
    return fail("'in' needs a list or a map")
  },
  '+': (a, b) => {
    if (typeof a === 'string' && typeof b === 'string') return a + b
    if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b]
    return num(a) + num(b)
  },
  '-': (a, b) => num(a) - num(b),
  '*': (a, b) => num(a) * num(b),
  '/': (a, b) => (num(b) === 0 ? fail('division by zero') : num(a) / num(b)),
  '%': (a, b) => (num(b) === 0 ? fail('modulus by zero') : num(a) % num(b)),
}

/** CEL's commutative logic: the deciding value on either side wins over an error on the other. */
function logical(left: Evaluator, right: Evaluator, decides: boolean): Evaluator {
  return (scope) => {
    let l: unknown
    try {
      l = left(scope)
    } catch (error) {
      if (right(scope) === decides) return decides
      throw error
    }
    if (l === decides) return decides
    const r = right(scope)
    return r === decides ? decides : l === !decides && r === !decides ? !decides : fail('logical operator needs bools')
  }
}

/** A macro (`exists`, `all`, `exists_one`, `filter`, `map`): runs `body` once per item of the
 * collection (a list's items or a map's keys) with the item bound to `name`. */
function macro(op: string, collection: Evaluator, name: string, body: Evaluator): Evaluator {
  return (scope) => {
    const items = iterate(collection(scope))
    const inner: Scope = { ...scope }
    const run = (item: unknown) => {
      inner[name] = item
      return body(inner)
    }
    if (op === '@exists') return items.some((item) => run(item) === true)
    if (op === '@all') return items.every((item) => run(item) === true)
    if (op === '@exists_one') return items.filter((item) => run(item) === true).length === 1
    if (op === '@filter') return items.filter((item) => run(item) === true)
    return items.map(run)
  }
}

/** A function call `['call', name, ...args]` or a method call `['rcall', name, receiver, ...args]`;
 * an unknown name fails when the tree is built, before its operands are. */
function invocation(tree: ExpressionTree, sub: (node: unknown) => Evaluator): Evaluator {
  const [op, name, receiverNode] = tree
  if (op === 'call') {
    const fn = functions[name as string] ?? fail(`unknown function ${name}`)
    const args = tree.slice(2).map(sub)
    return (scope) => fn(...args.map((arg) => arg(scope)))
  }
  const method = methods[name as string] ?? fail(`unknown method ${name}`)
  const receiver = sub(receiverNode)
  const args = tree.slice(3).map(sub)
  return (scope) => method(receiver(scope), ...args.map((arg) => arg(scope)))
}

/** Turns a tree into nested closures once (no code generation: CSP-safe), so each evaluation
 * only runs the closures. */
function build(tree: ExpressionTree): Evaluator {
  const [op, a, b, c] = tree
  const sub = (node: unknown) => build(node as ExpressionTree)
  switch (op) {
    case 'v':
      return () => a
    case 'id': {
      const name = a as string
      return (scope) => (Object.prototype.hasOwnProperty.call(scope, name) ? scope[name] : fail(`unknown variable ${name}`))
    }
    case '.':
    case '.?': {
      const target = sub(a)
      const optional = op === '.?'
      return (scope) => select(target(scope), b, optional)
    }
    case '[]':
    case '[?]': {
      const target = sub(a)
      const index = sub(b)
      const optional = op === '[?]'
      return (scope) => select(target(scope), index(scope), optional)
    }
    case 'list': {
      const items = tree.slice(1).map(sub)
      return (scope) => items.map((item) => item(scope))
    }
    case 'map': {
      const entries = tree.slice(1).map(sub)
      return (scope) => {
        const out: Record<string, unknown> = {}
        for (let i = 0; i < entries.length; i += 2) out[String(entries[i](scope))] = entries[i + 1](scope)
        return out
      }
    }
    case '!': {
      const operand = sub(a)
      return (scope) => !operand(scope)
    }
    case 'neg': {
      const operand = sub(a)
      return (scope) => -num(operand(scope))
    }
    case '&&':
      return logical(sub(a), sub(b), false)
    case '||':
      return logical(sub(a), sub(b), true)
    case '?:': {
      const [test, yes, no] = [sub(a), sub(b), sub(c)]
      return (scope) => (test(scope) ? yes(scope) : no(scope))
    }
    case 'has': {
      const target = sub(a)
      const key = b as string
      return (scope) => {
        const value = target(scope)
        return isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, key)
      }
    }
    case 'call':
    case 'rcall':
      return invocation(tree, sub)
    case '@exists':
    case '@all':
    case '@exists_one':
    case '@filter':
    case '@map':
      return macro(op, sub(a), b as string, sub(c))
    default: {
      const binary = BINARY[op] ?? fail(`unknown operation ${op}`)
      const [left, right] = [sub(a), sub(b)]
      return (scope) => binary(left(scope), right(scope))
    }
  }
}

const built = new WeakMap<ExpressionTree, Evaluator>()

export function evaluateTree(tree: ExpressionTree, scope: Scope): unknown {
  let evaluator = built.get(tree)
  if (!evaluator) {
    evaluator = build(tree)
    built.set(tree, evaluator)
  }
  return evaluator(scope)
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
