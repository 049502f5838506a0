/**
 * The framework-free engine core, in one import for the React layer and the shell.
 * Names here are a stable API: renderers code against them.
 */
export * from '../../kernel/core/contracts'
export type { EvaluationContext, ContextVariable } from '../../kernel/core/context-declaration'
export { contextDeclaration } from '../../kernel/core/context-declaration'
export { evaluate, isCompiledExpression, type CompiledExpression, type ExpressionTree } from '../../kernel/core/expression'
export * from './report'
export * from './stores'
export * from './context'
export * from '../../kernel/core/locale-path'
export * from '../../kernel/core/routes'
export * from './route-load'
export * from './gateway'
export * from './documents'
export * from './i18n'
export * from '../../kernel/core/format'
export * from '../../kernel/core/odds'
