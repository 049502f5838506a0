/**
 * Server side of the expression language: parse and type-check CEL with the reference interpreter,
 * then lower the checked tree to the compact form the browser evaluates (`kernel/core/expression.ts`).
 */
import { Environment } from '@marcbachmann/cel-js'
import { contextDeclaration } from '../../../kernel/core/context-declaration'
import {
  supportedFunctions,
  supportedMethods,
  type CompiledExpression,
  type ExpressionTree,
} from '../../../kernel/core/expression'

type Declaration = string | { [key: string]: Declaration }

export function createEnvironment(): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false })
  for (const [name, declared] of Object.entries(contextDeclaration as Record<string, Declaration>)) {
    if (typeof declared === 'string') env.registerVariable(name, declared)
    else env.registerVariable({ name, schema: declared as never })
  }
  return env
}

let sharedEnvironment: Environment | undefined
const environment = () => (sharedEnvironment ??= createEnvironment())

export type CompileResult = { ok: true; expression: CompiledExpression; type: string } | { ok: false; error: string }

const MACROS = new Set(['exists', 'all', 'exists_one', 'filter', 'map'])

interface AstNode {
  op: string
  args: unknown
}

function lower(node: AstNode): ExpressionTree {
  const { op, args } = node
  const sub = (n: unknown) => lower(n as AstNode)
  switch (op) {
    case 'value': {
      const value = args
      if (typeof value === 'bigint') return ['v', Number(value)]
      if (value !== null && typeof value === 'object') {
        // UnsignedInt wrapper or bytes: neither is used by documents.
        if ('value' in (value as object)) return ['v', Number((value as { value: bigint }).value)]
        throw new Error('byte literals are not supported in documents')
      }
      return ['v', value]
    }
    case 'id':
      return ['id', args as string]
    case '.':
    case '.?': {
      const [target, key] = args as [AstNode, string]
      return [op, sub(target), key]
    }
    case '[]':
    case '[?]': {
      const [target, index] = args as [AstNode, AstNode]
      return [op, sub(target), sub(index)]
    }
    case 'list':
      return ['list', ...(args as AstNode[]).map(sub)]
    case 'map':
      return ['map', ...(args as [AstNode, AstNode][]).flatMap(([k, v]) => [sub(k), sub(v)])]
    case '!_':
      return ['!', sub(args)]
    case '-_':
      return ['neg', sub(args)]
    case 'call': {
      const [name, callArgs] = args as [string, AstNode[]]
      if (name === 'has') {
        const target = callArgs[0]
        if (target?.op !== '.') throw new Error('has() needs a field selection such as has(user.nickname)')
        const [obj, key] = target.args as [AstNode, string]
        return ['has', sub(obj), key]
      }
      if (name === 'dyn') return sub(callArgs[0])
      if (!supportedFunctions.includes(name)) throw new Error(`function ${name}() is not available in documents`)
      return ['call', name, ...callArgs.map(sub)]
    }
    case 'rcall': {
      const [name, receiver, callArgs] = args as [string, AstNode, AstNode[]]
      if (MACROS.has(name)) {
        const [variable, body] = callArgs
        if (variable?.op !== 'id' || !body) throw new Error(`${name}() needs a variable name and an expression`)
        return [`@${name}`, sub(receiver), variable.args as string, sub(body)]
      }
      if (!supportedMethods.includes(name)) throw new Error(`method ${name}() is not available in documents`)
      return ['rcall', name, sub(receiver), ...callArgs.map(sub)]
    }
    default: {
      if (Array.isArray(args) && args.length === 2) return [op, sub(args[0]), sub(args[1])]
      if (Array.isArray(args) && args.length === 3) return [op, sub(args[0]), sub(args[1]), sub(args[2])]
      throw new Error(`operator ${op} is not supported`)
    }
  }
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]
}

/** Parses, type-checks and lowers one expression. `expected` is the CEL type the slot needs. */
export function compileExpression(source: string, expected?: 'bool'): CompileResult {
  if (typeof source !== 'string' || source.trim() === '') return { ok: false, error: 'empty expression' }
  if (source.length > 2000) return { ok: false, error: 'expression longer than 2000 characters' }
  let parsed
  try {
    parsed = environment().parse(source)
  } catch (error) {
    return { ok: false, error: `syntax: ${firstLine(error)}` }
  }
  const checked = parsed.check()
  if (!checked.valid) return { ok: false, error: `type: ${firstLine(checked.error)}` }
  if (expected && checked.type !== expected && checked.type !== 'dyn')
    return { ok: false, error: `type: expected ${expected}, got ${checked.type}` }
  try {
    return { ok: true, expression: { cel: source, ir: lower(parsed.ast as unknown as AstNode) }, type: checked.type ?? 'dyn' }
  } catch (error) {
    return { ok: false, error: firstLine(error) }
  }
}
