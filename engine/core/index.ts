/**
 * The framework-free engine core, in one import for the React layer and the shell.
 * Names here are a stable API: renderers code against them.
 */
export * from './contracts'
export type { EvaluationContext, ContextVariable } from './context-declaration'
export { contextDeclaration } from './context-declaration'
export { evaluate, isCompiledExpression, type CompiledExpression, type ExpressionTree } from './expression'
export * from './report'
export * from './stores'
export * from './context'
export * from './locale-path'
export * from './routes'
export * from './route-load'
export * from './gateway'
export * from './documents'
export * from './i18n'
export * from './format'
export * from './odds'
